import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startServer } from './support/server.js';

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
      await expect.poll(() => server.output()).toContain('/no-such-path');
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
    const command = `${JSON.stringify(process.execPath)} --import tsx src/main.ts --memory --port 0 --log-level info`;
    const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      await expect.poll(() => /listening on (http:\/\/\S+)/.exec(output)?.[1], { timeout: 15_000 }).toBeDefined();
      const url = /listening on (http:\/\/[^\s\r]+)/.exec(output)![1]!;
      await (await fetch(`${url}/health`)).text();
      await expect.poll(() => output).toContain('GET /health 200');
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
