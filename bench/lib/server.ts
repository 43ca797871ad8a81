// Starts the sandbox (as `npm start` runs it) and the bare Hono baseline, timing each from spawn to its first 200 on /health.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { settings } from '../../src/config.js';
import { BUILD_DIR, ENTRY, NODE_FLAGS, ROOT, TSX_LOADER } from './options.js';
import { onCpu } from './pin.js';
import { children, log } from './processes.js';

export interface Server {
  name: string;
  pid: number;
  url: string;
  startupMs: number;
  /** performance.now() just before the spawn: the process start, as this process sees it. */
  spawnedAt: number;
  /** Bytes the process wrote to stdout (its log) so far. */
  stdoutBytes(): number;
  stop(graceful?: boolean): Promise<number | null>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}

/** GET `url` with a fresh connection; resolves with the status, or 0 when nothing answers. */
function probe(url: string): Promise<number> {
  return new Promise((done) => {
    const request = get(url, { agent: false, timeout: 1000 }, (response) => {
      response.resume();
      done(response.statusCode ?? 0);
    });
    request.on('error', () => done(0));
    request.on('timeout', () => request.destroy());
  });
}

/** Environment without the sandbox's own settings, so nothing from the caller's shell leaks in. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const setting of settings) delete env[setting.env];
  return { ...env, ...extra };
}

/**
 * Spawns a server and waits for the first 200 on `healthPath`; `startupMs` is measured from the
 * spawn call (process start) to that answer, polling every 2 ms on fresh connections.
 */
async function startServer(name: string, argv: string[], port: number, healthPath: string, env: NodeJS.ProcessEnv): Promise<Server> {
  const started = performance.now();
  const [command, commandArgs] = onCpu(0, argv);
  // taskset execs node, so the child's pid is the server's.
  const child = spawn(command, commandArgs, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdoutBytes = 0;
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdoutBytes += chunk.length));
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  let exited: number | null | undefined;
  const exit = new Promise<number | null>((done) =>
    child.on('exit', (code, signal) => {
      exited = code ?? (signal ? -1 : null);
      children.delete(child);
      done(exited);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (exited !== undefined) throw new Error(`${name} exited (${exited}) before answering ${healthPath}:\n${stderr}`);
    if ((await probe(url + healthPath)) === 200) break;
    if (performance.now() - started > 120_000) throw new Error(`${name} did not answer ${healthPath} within 120 s:\n${stderr}`);
    await new Promise((done) => setTimeout(done, 2));
  }
  const startupMs = Math.round(performance.now() - started);
  return {
    name,
    pid: child.pid!,
    url,
    startupMs,
    spawnedAt: started,
    stdoutBytes: () => stdoutBytes,
    async stop(graceful = true) {
      if (exited !== undefined) return exited;
      child.kill(graceful ? 'SIGTERM' : 'SIGKILL');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exit;
      clearTimeout(timer);
      if (graceful && code !== 0) log(`${name} exited with ${code} on SIGTERM:\n${stderr}`);
      return code;
    },
  };
}

function sandboxArgv(file: string, port: number, logLevel: string, nodeFlags: string[] = []): string[] {
  // The bench drives one tenant far past the default rate limit and shipments quota: they are
  // raised out of reach, so every request is still counted but none is refused.
  const limits = ['--rate-limit', '1000000000', '--quota-shipments', '1000000000', '--quota-files', '1000000000'];
  const cli = ['--data', file, '--port', String(port), '--host', '127.0.0.1', '--log-level', logLevel, ...limits];
  const flags = [...NODE_FLAGS, ...nodeFlags];
  if (ENTRY === 'tsx') return [...flags, '--import', TSX_LOADER, join(ROOT, 'src', 'main.ts'), ...cli];
  return [...flags, join(BUILD_DIR, 'server', 'main.js'), ...cli];
}

export async function startSandbox(name: string, file: string, options: { logLevel?: string; nodeFlags?: string[] } = {}): Promise<Server> {
  const port = await freePort();
  return startServer(name, sandboxArgv(file, port, options.logLevel ?? 'warn', options.nodeFlags), port, '/health', cleanEnv());
}

export async function startBaseline(document?: string): Promise<Server> {
  const port = await freePort();
  return startServer('baseline', [join(ROOT, 'bench', 'baseline.mjs'), String(port), ...(document ? [document] : [])], port, '/health', cleanEnv());
}
