import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliEntry, getToken, outputMatching, startServer } from './support/server.js';

/*
 * The log format follows stdout (src/logger.ts): JSON lines when it is a pipe or a file (CI, Docker
 * without -t, a log shipper), pino-pretty's coloured lines when it is a terminal. The banner is
 * plain text either way.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = '/usr/bin/script';
// eslint-disable-next-line no-control-regex -- terminal escapes and control characters are what this looks for
const ANSI = /\x1b\[/;

describe('the server log', () => {
  it('is one JSON object per line when stdout is not a terminal', async () => {
    const server = await startServer({ DATA_FILE: ':memory:', LOG_LEVEL: 'info' });
    try {
      await (await fetch(`${server.url}/health`)).text();
      await (await fetch(`${server.url}/no-such-path`)).text();
      await server.waitFor('/no-such-path');
    } finally {
      await server.stop();
    }
    const output = server.output();
    expect(output).not.toMatch(ANSI);
    const lines = output.slice(output.indexOf('\n{')).trim().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual(expect.objectContaining({ level: 30, msg: 'GET /health 200', method: 'GET', path: '/health', status: 200 }));
    expect(entries).toContainEqual(expect.objectContaining({ msg: 'GET /no-such-path 404', status: 404 }));
    for (const entry of entries) expect(typeof entry.time).toBe('number');
  });

  // util-linux `script` runs the server on a pseudo-terminal, as a shell in a terminal would.
  it.skipIf(!existsSync(SCRIPT))('is human-readable (pino-pretty) when stdout is a terminal', async () => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(cliEntry()[0])} --memory --port 0 --log-level info`;
    const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      const [, url] = await outputMatching(child, () => output, /listening on (http:\/\/[^\s\r]+)/);
      await (await fetch(`${url}/health`)).text();
      await outputMatching(child, () => output, /GET \/health 200/);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const line = output.split('\n').find((text) => text.includes('GET /health 200'))!;
    expect(line).toMatch(ANSI);
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO/);
    expect(line.trim().startsWith('{')).toBe(false);
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
    const entries = output
      .slice(output.indexOf('\n{'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual(expect.objectContaining({ level: 30, msg: 'POST /shipments 499', status: 499, client: 'sandbox-client' }));
    // Not the sandbox's failure: no error line, no stack.
    expect(entries.filter((entry) => (entry.level as number) >= 50)).toEqual([]);
    expect(output).not.toContain('unexpected error');
  });
});
