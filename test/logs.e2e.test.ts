import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliEntry, getToken, outputMatching, startServer } from './support/server.js';

/*
 * The log format follows LOG_FORMAT, and by default stdout (src/logger.ts): JSON lines when it is a
 * pipe or a file (CI, Docker without -t, a log shipper), with the banner on stderr so stdout holds
 * JSON only; one line per request for people when it is a terminal, with the banner on stdout.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = '/usr/bin/script';
// eslint-disable-next-line no-control-regex -- terminal escapes and control characters are what this looks for
const ANSI = /\x1b\[/;
// eslint-disable-next-line no-control-regex -- the same, to take them out
const ANSI_CODES = /\x1b\[[\d;]*m/g;

/** This run's bundle of the CLI with stdout and stderr kept apart; resolves once it listens. */
async function serve(env: Record<string, string>) {
  const child = spawn(process.execPath, [...cliEntry(), '--memory'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const [, url] = await outputMatching(child, () => stdout + stderr, /listening on (http:\/\/[\d.:]+)/);
  return {
    url: url!,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Resolves once stdout holds `text`. */
    waitFor: (text: string) => outputMatching(child, () => stdout, new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('the server log', () => {
  it('is JSON lines only on stdout when it is not a terminal, the banner on stderr; a failed request says why', async () => {
    const server = await serve({});
    await (await fetch(`${server.url}/health`)).text();
    await (await fetch(`${server.url}/no-such-path`)).text();
    await server.waitFor('/no-such-path');
    expect(await server.stop()).toBe(0);
    const stdout = server.stdout();
    expect(stdout).not.toMatch(ANSI);
    const entries = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries[0]).toMatchObject({
      level: 30,
      msg: `parcel-sandbox listening on ${server.url}`,
      url: server.url,
      data: 'memory',
      docs: `${server.url}/docs`,
    });
    expect(entries).toContainEqual(expect.objectContaining({ level: 30, msg: 'GET /health 200', method: 'GET', path: '/health', status: 200 }));
    expect(entries).toContainEqual(
      expect.objectContaining({
        msg: 'GET /no-such-path 404',
        status: 404,
        error: { code: '10000', title: 'Not Found', detail: 'Nothing is served at /no-such-path. GET /openapi.json lists every endpoint.' },
      }),
    );
    // The last line says it stopped, on which signal, and what became of the data.
    expect(entries.at(-1)).toMatchObject({
      level: 30,
      signal: 'SIGTERM',
      data: 'memory',
      msg: 'parcel-sandbox stopped on SIGTERM; the data was in memory and is gone',
    });
    for (const entry of entries) expect(typeof entry.time).toBe('number');
    expect(server.stderr()).toContain(`parcel-sandbox listening on ${server.url}`);
    expect(server.stderr()).toContain('sandbox-client');
  });

  it('is one line per request with LOG_FORMAT=pretty, piped or not, and the banner on stdout', async () => {
    const server = await serve({ LOG_FORMAT: 'pretty' });
    await (await fetch(`${server.url}/health`)).text();
    await (await fetch(`${server.url}/carriers?page[numbr]=2`)).text();
    await server.waitFor('/carriers 4');
    await server.stop();
    const stdout = server.stdout();
    expect(stdout).not.toMatch(ANSI);
    expect(stdout).toContain(`parcel-sandbox listening on ${server.url}`);
    const lines = stdout.split('\n').filter((line) => /^\d\d:\d\d:\d\d /.test(line));
    expect(lines).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d GET \/health 200 [\d.]+ ms$/),
      expect.stringMatching(
        /^\d\d:\d\d:\d\d GET \/carriers 400 [\d.]+ ms {2}10003 Invalid JSON Schema: Unknown page parameter 'page\[numbr\]'\. .+ \(parameter page\[numbr\]\)$/,
      ),
      expect.stringMatching(/^\d\d:\d\d:\d\d parcel-sandbox stopped on SIGTERM; the data was in memory and is gone$/),
    ]);
    expect(server.stderr()).toBe('');
  });

  // util-linux `script` runs the server on a pseudo-terminal, as a shell in a terminal would.
  it.skipIf(!existsSync(SCRIPT))('is one coloured line per request when stdout is a terminal', async () => {
    const command = [process.execPath, ...cliEntry(), '--memory', '--port', '0', '--log-level', 'info'].map((part) => JSON.stringify(part)).join(' ');
    const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      const [, url] = await outputMatching(child, () => output, /listening on (http:\/\/[^\s\r]+)/);
      await (await fetch(`${url}/health`)).text();
      await outputMatching(child, () => output.replace(ANSI_CODES, ''), /GET \/health 200/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const line = output.split('\n').find((text) => text.replace(ANSI_CODES, '').includes('GET /health 200'))!;
    expect(line).toMatch(ANSI);
    expect(line.replace(ANSI_CODES, '').trim()).toMatch(/^\d\d:\d\d:\d\d GET \/health 200 [\d.]+ ms$/);
  });
});

describe('a client that closes the connection before the answer', () => {
  it('is logged as 499 in the access log and the request log, not as a 500 of the sandbox', async () => {
    const server = await startServer({ DATA_FILE: ':memory:', LOG_LEVEL: 'info' });
    try {
      const token = await getToken(server.url);
      const controller = new AbortController();
      // With Expect: 100-continue the server's "100 Continue" says the request reached the app,
      // which now waits for a body that never comes: the client gives up there.
      await new Promise<void>((resolve) => {
        const request = httpRequest(`${server.url}/shipments`, {
          method: 'POST',
          signal: controller.signal,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json', 'content-length': '200', expect: '100-continue' },
        });
        request.on('continue', () => {
          request.write('{"data":{');
          controller.abort();
        });
        request.on('error', () => resolve());
        request.on('response', () => resolve());
      });
      await server.waitFor('POST /shipments 499');
      const log = (await (await fetch(`${server.url}/_sandbox/requests?path=/shipments`)).json()) as { data: Record<string, any>[] };
      expect(log.data).toHaveLength(1);
      expect(log.data[0]).toMatchObject({ method: 'POST', path: '/shipments', status: 499, client_id: 'sandbox-client' });
      expect(log.data[0]!.response.note).toMatch(/closed the connection before the answer/);
      expect(log.data[0]!.response.body).toBeUndefined();
    } finally {
      await server.stop();
    }
    const output = server.output();
    // stdout's JSON lines; the banner is on stderr, which the helper reads too.
    const entries = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual(expect.objectContaining({ level: 30, msg: 'POST /shipments 499', status: 499, client: 'sandbox-client' }));
    // Not the sandbox's failure: no error line, no stack.
    expect(entries.filter((entry) => (entry.level as number) >= 50)).toEqual([]);
    expect(output).not.toContain('unexpected error');
  });
});
