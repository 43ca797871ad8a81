import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateState } from '../src/fixtures/generate.js';
import { parseCli } from '../src/cli.js';
import { ConfigError, settings } from '../src/config.js';
import { VERSION } from '../src/version.js';
import { cliEntry, outputMatching, REAP_AFTER_MS } from './support/server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tempDir = () => mkdtemp(join(tmpdir(), 'parcel-sandbox-cli-'));

/** The environment of every run: no setting leaks in from the shell that runs the tests. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const setting of settings) delete base[setting.env];
  return { ...base, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', ...env };
}

interface Run {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Runs the CLI (this run's bundle of the sources), as `parcel-sandbox <args>` would run; `nodeArgs` go to node itself. */
function cli(args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Run {
  const child = spawn(process.execPath, [...nodeArgs, ...cliEntry(), ...args], { cwd: root, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const reaper = setTimeout(() => child.kill('SIGKILL'), REAP_AFTER_MS);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(reaper);
      resolve(code);
    }),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function runToExit(args: string[], env: Record<string, string> = {}) {
  const run = cli(args, env);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** The error the command line refuses `args` with (under `env` and no other setting), as src/main.ts gets it from parseCli. */
function refusal(args: string[], env: Record<string, string>): Error | undefined {
  try {
    parseCli(args, cleanEnv(env));
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/** Starts the CLI and resolves with its URL once it listens. */
async function start(args: string[], env: Record<string, string> = {}) {
  const run = cli(args, env);
  // Piped, the banner is on stderr (stdout holds the log's JSON lines only).
  const [, url] = await outputMatching(run.child, run.stderr, /listening on (http\S+)/).catch((error: Error) => {
    throw new Error(`${error.message}${run.stderr()}`);
  });
  return {
    ...run,
    url: url!,
    /** Sends a signal and resolves with the exit code. */
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      run.child.kill(signal);
      return run.exited;
    },
  };
}

/** Whether a new connection to `url` goes unserved (refused, or reset before an answer). */
function refused(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = httpRequest(`${url}/health`, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(false));
    });
    request.on('error', () => resolve(true));
    request.end();
  });
}

async function token(url: string): Promise<string> {
  const response = await fetch(`${url}/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

async function carrierIds(url: string): Promise<string[]> {
  const response = await fetch(`${url}/carriers`, { headers: { authorization: `Bearer ${await token(url)}` } });
  return ((await response.json()) as { data: { id: string }[] }).data.map((carrier) => carrier.id);
}

describe('parcel-sandbox --help and --version', () => {
  it('prints usage with every setting: flag, environment variable, default and help; exit 0', async () => {
    const { code, stdout, stderr } = await runToExit(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^Usage: parcel-sandbox \[options\]/);
    for (const setting of settings) {
      const line = stdout.split('\n').find((row) => row.trimStart().startsWith(`--${setting.flag}`));
      expect(line, `--${setting.flag} is in the usage`).toBeDefined();
      expect(line).toContain(setting.env);
      expect(line).toContain(setting.help);
      if (setting.default !== undefined && setting.kind !== 'bool') expect(line).toContain(`(default: ${setting.default})`);
    }
    expect(stdout).toContain('--memory');
    expect(stdout).toContain('MEMORY=true');
    expect(stdout).toMatch(/-h, --help/);
    expect(stdout).toMatch(/-v, --version/);
  });

  it('prints the version; exit 0', async () => {
    for (const flag of ['--version', '-v']) {
      const { code, stdout, stderr } = await runToExit([flag]);
      expect(code).toBe(0);
      expect(stdout).toBe(`${VERSION}\n`);
      expect(stderr).toBe('');
    }
  });
});

describe.concurrent('bad input: exit 2 with one line on stderr', () => {
  const cases: [string, string[], Record<string, string>, RegExp][] = [
    ['a port out of range', ['--port', '99999'], {}, /PORT \(--port\) must be a port number 0-65535, got 99999/],
    ['a seed that is not a number', ['--seed', 'abc'], {}, /SEED \(--seed\) must be an integer, got 'abc'/],
    ['an unknown log level', ['--log-level', 'loud'], {}, /LOG_LEVEL \(--log-level\) must be one of .*, got 'loud'/],
    ['--data with --memory', ['--data', 'x.json', '--memory'], {}, /--data and --memory cannot be used together/],
    ['an unknown option', ['--prot', '8080'], {}, /unknown option --prot; did you mean --port\? see --help/],
    ['a missing value', ['--port'], {}, /--port needs a value/],
    ['an option where a value belongs', ['--seed', '--memory'], {}, /--seed needs a value; write --seed=<value>/],
    ['an empty value', ['--data='], {}, /--data needs a value/],
    ['a value for a switch', ['--reset=yes'], {}, /--reset takes no value/],
    ['a positional argument', ['serve'], {}, /unexpected argument 'serve'/],
    ['a public URL that is not http(s)', ['--public-url', 'ftp://example.com'], {}, /PUBLIC_URL \(--public-url\) must be an http\(s\) URL/],
    ['an invalid environment variable', [], { PORT: 'eighty' }, /PORT \(--port\) must be a port number/],
    ['an invalid boolean variable', [], { MEMORY: 'yes' }, /MEMORY \(--memory\) must be true or false/],
  ];

  /*
   * What the binary does with a refused setting is one thing (src/main.ts: a ConfigError is one line
   * `parcel-sandbox: <message>` on stderr and exit 2), run here for a flag and for a variable; which
   * message each refusal gets is parseCli's, asked in this process. A process for each of the
   * thirteen was ~0.12 s of CPU each.
   */
  it.each(cases.filter(([name]) => name === 'an unknown option' || name === 'an invalid environment variable'))(
    'the binary: %s',
    async (_name, args, env, message) => {
      const { code, stdout, stderr } = await runToExit(args, env);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^parcel-sandbox: [^\n]+\n$/);
      expect(stderr).toMatch(message);
    },
  );

  it.each(cases)('%s', (_name, args, env, message) => {
    const error = refusal(args, env);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.message).not.toContain('\n');
    expect(error!.message).toMatch(message);
  });

  it('checks values even when the environment has a valid one (the flag wins)', () => {
    const error = refusal(['--port', '-1'], { PORT: '8080' });
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.message).not.toContain('\n');
  });
});

describe.concurrent('cannot listen: exit 1 with one line on stderr naming the setting to change', () => {
  /** Holds a free port of 127.0.0.1 (as another program would) while `use` runs. */
  async function holdingPort<T>(use: (port: number) => Promise<T>): Promise<T> {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      return await use((holder.address() as AddressInfo).port);
    } finally {
      holder.close();
    }
  }

  it('a port another program holds, as the API port or the auth port', async () => {
    await holdingPort(async (port) => {
      const api = await runToExit(['--memory', '--port', String(port)]);
      expect(api.code).toBe(1);
      expect(api.stdout).toBe('');
      expect(api.stderr).toBe(
        `parcel-sandbox: cannot listen: port ${port} on 127.0.0.1 is already in use: stop what listens there, or start with --port <another port> (PORT); --port 0 picks a free one\n`,
      );
      const auth = await runToExit(['--memory', '--auth-port', String(port)]);
      expect(auth.code).toBe(1);
      expect(auth.stderr).toMatch(
        /^parcel-sandbox: cannot listen: port \d+ on 127\.0\.0\.1 is already in use: .* start with --auth-port <another port> \(AUTH_PORT\); --auth-port 0 picks a free one\n$/,
      );
    });
  });

  it('a host that is not an address of this machine (TEST-NET-1)', async () => {
    const { code, stderr } = await runToExit(['--memory'], { HOST: '192.0.2.1' });
    expect(code).toBe(1);
    expect(stderr).toBe(
      "parcel-sandbox: cannot listen: HOST (--host) '192.0.2.1' is not an address of this machine: use 127.0.0.1 (this machine only), 0.0.0.0 (every interface) or one of its own addresses\n",
    );
  });
});

const ipv6Loopback = Object.values(networkInterfaces()).some((addresses) => addresses?.some((address) => address.address === '::1'));

describe('an IPv6 host', () => {
  it.skipIf(!ipv6Loopback)('is written in brackets in the banner, so its URL can be used as it is', async () => {
    const server = await start(['--memory', '--host', '::1']);
    try {
      expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe.concurrent('a data path that cannot be used: exit 2 with one line on stderr, no stack trace, no hang', () => {
  const systemPaths: [string, string][] = [
    ['a directory that cannot be made under /proc', '/proc/x/data.json'],
    ['a file that cannot be made in /proc', '/proc/data.json'],
    ['a file that cannot be made in /sys', '/sys/data.json'],
    ['a character device', '/dev/null'],
  ];
  it.skipIf(process.platform !== 'linux').each(systemPaths)('%s (%s)', async (_name, file) => {
    const { code, stdout, stderr } = await runToExit(['--data', file]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^parcel-sandbox: [^\n]+\n$/);
    expect(stderr.startsWith(`parcel-sandbox: cannot use the data file ${file}: `)).toBe(true);
  });

  it('a path whose parent is a file, and a directory as the data file', async () => {
    const dir = await tempDir();
    const parent = join(dir, 'plain-file');
    await writeFile(parent, 'not a directory');
    for (const [file, reason] of [
      [join(parent, 'data.json'), `${parent} is not a directory`],
      [dir, 'it is not a regular file'],
    ] as const) {
      const { code, stdout, stderr } = await runToExit(['--data', file]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(`parcel-sandbox: cannot use the data file ${file}: ${reason}\n`);
    }
    expect(await readFile(parent, 'utf8')).toBe('not a directory');
  });

  it('a read-only directory', async (context) => {
    const dir = await tempDir();
    // Root writes through a mode of 0555, so as root the directory is a read-only mount instead.
    const root = process.getuid?.() === 0;
    if (root && spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', dir]).status !== 0) {
      console.warn('test/cli.e2e.test.ts: "a read-only directory" is SKIPPED: running as root, and a read-only tmpfs cannot be mounted here.');
      return context.skip();
    }
    if (!root) await chmod(dir, 0o555);
    try {
      const file = join(dir, 'data.json');
      const { code, stdout, stderr } = await runToExit(['--data', file]);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^parcel-sandbox: [^\n]+: (EROFS|EACCES): [^\n]+\n$/);
      expect(stderr.startsWith(`parcel-sandbox: cannot use the data file ${file}: `)).toBe(true);
    } finally {
      if (root) spawnSync('umount', [dir]);
    }
  });

  it('an existing data file that cannot be written: a read-only file, or one in a read-only directory', async (context) => {
    const dir = await tempDir();
    const text = JSON.stringify(generateState(1, 0));
    const inFile = join(dir, 'read-only-file.json');
    const sub = join(dir, 'read-only-dir');
    const inDir = join(sub, 'data.json');
    await mkdir(sub);
    await writeFile(inFile, text);
    await writeFile(inDir, text);
    // Root writes through any mode, so as root the file and the directory are bind-mounted read-only instead.
    const root = process.getuid?.() === 0;
    const readOnly = (path: string) =>
      spawnSync('mount', ['--bind', path, path]).status === 0 && spawnSync('mount', ['-o', 'remount,bind,ro', path]).status === 0;
    if (root && !(readOnly(inFile) && readOnly(sub))) {
      spawnSync('umount', [inFile]);
      spawnSync('umount', [sub]);
      console.warn(
        'test/cli.e2e.test.ts: "an existing data file that cannot be written" is SKIPPED: running as root, and a read-only bind mount cannot be made here.',
      );
      return context.skip();
    }
    if (!root) {
      await chmod(inFile, 0o444);
      await chmod(sub, 0o555);
    }
    try {
      for (const file of [inFile, inDir]) {
        const { code, stdout, stderr } = await runToExit(['--data', file]);
        expect(code, stderr).toBe(2);
        expect(stdout).toBe('');
        expect(stderr).toMatch(/^parcel-sandbox: [^\n]+: (EROFS|EACCES): [^\n]+\n$/);
        expect(stderr.startsWith(`parcel-sandbox: cannot use the data file ${file}: `)).toBe(true);
        expect(await readFile(file, 'utf8')).toBe(text);
      }
    } finally {
      if (root) {
        spawnSync('umount', [inFile]);
        spawnSync('umount', [sub]);
      } else await chmod(sub, 0o755);
    }
  });
});

/** The carrier ids of a world seeded with `seed`, sorted. */
const seededCarrierIds = (seed: number) =>
  generateState(seed, 0)
    .tables.carriers!.map((carrier) => carrier.id)
    .sort();

describe('flags win over environment variables', () => {
  // One start for four flags, each against the variable it beats: a start is ~0.8 s of CPU.
  it('--port 0 --memory --public-url --log-level win over PORT, DATA_FILE, PUBLIC_URL and LOG_LEVEL', async () => {
    const dir = await tempDir();
    const file = join(dir, 'sandbox.json');
    const server = await start(['--port', '0', '--memory', '--public-url', 'https://flag.example.com/', '--log-level', 'info'], {
      PORT: '1',
      DATA_FILE: file,
      PUBLIC_URL: 'https://env.example.com',
      LOG_LEVEL: 'silent',
    });
    try {
      expect(server.stderr()).toMatch(/data:\s+memory/);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect(existsSync(file)).toBe(false);
      expect(server.stderr()).toMatch(/public url:\s+https:\/\/flag\.example\.com\n/);
      const response = await fetch(`${server.url}/carriers`, { headers: { authorization: `Bearer ${await token(server.url)}` } });
      const body = (await response.json()) as { data: { links: { self: string } }[] };
      expect(body.data[0]!.links.self.startsWith('https://flag.example.com/carriers/')).toBe(true);
      await outputMatching(server.child, server.stdout, /"msg":/); // request log lines at info
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(existsSync(file)).toBe(false);
  });

  // --data against MEMORY=true is the first start of the --reset test below.
  it('MEMORY=true keeps data in memory', async () => {
    const dir = await tempDir();
    const memory = await start([], { MEMORY: 'true', DATA_FILE: join(dir, 'unused.json') });
    expect(await memory.stop()).toBe(0);
    expect(memory.stderr()).toMatch(/data:\s+memory/);
    expect(existsSync(join(dir, 'unused.json'))).toBe(false);
  });

  // The flag against SEED=1 is the next test's start; this is the variable's own way in.
  it('SEED=7 gives the carrier ids of seed 7', async () => {
    const server = await start(['--memory'], { SEED: '7' });
    try {
      const ids = [...(await carrierIds(server.url))].sort();
      expect(ids).toEqual(seededCarrierIds(7));
      expect(ids).not.toEqual(seededCarrierIds(1));
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('--reset --seed 7, with SEED=1 in the environment, on a data file of seed 1 (made with --data against MEMORY=true) makes it seed 7 data, which a reset of the sandbox keeps', async () => {
    const dir = await tempDir();
    const file = join(dir, 'sandbox.json');
    // The seed 1 data file, written although MEMORY=true: --data beats it.
    const first = await start(['--data', file], { MEMORY: 'true' });
    await first.stop();
    expect(first.stderr()).toContain(file);
    expect((JSON.parse(await readFile(file, 'utf8')) as { seed: number }).seed).toBe(1);
    const server = await start(['--data', file, '--seed', '7', '--reset'], { SEED: '1' });
    try {
      const seeded = seededCarrierIds(7);
      expect([...(await carrierIds(server.url))].sort()).toEqual(seeded);
      expect((await fetch(`${server.url}/_sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
      expect([...(await carrierIds(server.url))].sort()).toEqual(seeded);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect((JSON.parse(await readFile(file, 'utf8')) as { seed: number }).seed).toBe(7);
  });
});

describe('shutdown', () => {
  // The drain gives running requests DRAIN_MS and then says so on stderr: an exit without that line
  // did not wait for it (the keep-alive connections of the client were closed at once).
  const DRAIN_DEADLINE = /requests still running after \d+ ms/;

  it('exits 0 on SIGTERM without waiting out the drain for idle connections, leaving a complete data file, and says so in its last line', async () => {
    const dir = await tempDir();
    const file = join(dir, 'sandbox.json');
    const server = await start(['--data', file], { LOG_LEVEL: 'info' });
    const moves = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${server.url}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: 1 }) }),
      ),
    );
    expect(moves.every((move) => move.status === 200)).toBe(true);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.stderr()).not.toMatch(DRAIN_DEADLINE);
    const data = JSON.parse(await readFile(file, 'utf8')) as { format: string; tables: { settings: { id: string; value: number }[]; carriers: unknown[] } };
    expect(data.format).toBe('parcel-sandbox');
    expect(data.tables.carriers.length).toBeGreaterThan(0);
    expect(data.tables.settings.find((row) => row.id === 'clock_offset_ms')!.value).toBeGreaterThanOrEqual(20000);
    const last = JSON.parse(server.stdout().trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ level: 30, signal: 'SIGTERM', data: file, msg: `parcel-sandbox stopped on SIGTERM; data file written: ${file}` });
  });

  it('stops gracefully on a SIGTERM that came while the server was still loading (as PID 1 of a container it was ignored)', async () => {
    // A module hook holds the load of the server's modules (the bulk of a start): it connects to
    // the test and waits for its word, so that the signal lands in that window.
    const gate = createServer();
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    const dir = await tempDir();
    const hooks = join(dir, 'hooks.mjs');
    await writeFile(
      hooks,
      `import { connect } from 'node:net';
export async function load(url, context, next) {
  if (/\\/run-server[^/]*\\.[jt]s$/.test(url)) {
    await new Promise((resolve) => connect(${(gate.address() as AddressInfo).port}, '127.0.0.1').once('data', resolve).once('close', resolve));
  }
  return next(url, context);
}
`,
    );
    const register = join(dir, 'register.mjs');
    await writeFile(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const file = join(dir, 'sandbox.json');
    const run = cli(['--data', file], { LOG_LEVEL: 'info' }, ['--import', register]);
    try {
      const held = await Promise.race([
        new Promise<Socket>((resolve) => gate.once('connection', resolve)),
        run.exited.then((code) => Promise.reject(new Error(`exited (${code}) before loading the server: ${run.stderr()}`))),
      ]);
      run.child.kill('SIGTERM');
      held.end('go');
      expect(await run.exited, `${run.stderr()}; killed by ${run.child.signalCode}`).toBe(0);
    } finally {
      gate.close();
    }
    const last = JSON.parse(run.stdout().trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ signal: 'SIGTERM', msg: `parcel-sandbox stopped on SIGTERM; data file written: ${file}` });
    expect((JSON.parse(await readFile(file, 'utf8')) as { format: string }).format).toBe('parcel-sandbox');
  });

  it('exits 0 on SIGINT without waiting out the drain', async () => {
    const server = await start(['--memory']);
    await fetch(`${server.url}/health`);
    expect(await server.stop('SIGINT')).toBe(0);
    expect(server.stderr()).not.toMatch(DRAIN_DEADLINE);
  });

  it('answers a request being handled when SIGTERM arrives, refuses new connections, then exits 0', async () => {
    const dir = await tempDir();
    const file = join(dir, 'sandbox.json');
    const server = await start(['--data', file]);
    const body = JSON.stringify({ advance: 5 });
    const request = httpRequest(`${server.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': body.length, expect: '100-continue' },
    });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      });
      request.on('error', reject);
    });
    // The server's 100 Continue says it is handling the request; with half the body it waits for the rest.
    await new Promise<void>((resolve) => request.once('continue', resolve));
    request.write(body.slice(0, 5));
    server.child.kill('SIGTERM');
    // A connection made before the server took the signal is still served; once it took it, none is.
    let servedBefore = 0;
    while (!(await refused(server.url))) servedBefore += 1;
    expect(await refused(server.url), `a new connection was accepted during shutdown (${servedBefore} served before)`).toBe(true);
    expect(server.child.exitCode, 'the server left before answering the request it was handling').toBeNull();
    request.end(body.slice(5));
    const { status, text } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ offset: 5 });
    expect(await server.exited).toBe(0);
    const data = JSON.parse(await readFile(file, 'utf8')) as { tables: { settings: { id: string; value: number }[] } };
    expect(data.tables.settings.find((row) => row.id === 'clock_offset_ms')!.value).toBe(5000);
  });
});
