/**
 * A refusal reaches the client (issue 25): a body over an endpoint's limit is answered 413 in the
 * errors document, and curl, Node's fetch and a plain HTTP client read that answer instead of a
 * broken pipe, whether they ask first (`Expect: 100-continue`) or keep sending.
 */
import { execFile } from 'node:child_process';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getToken, startServer, type RunningServer } from './support/server.js';

const run = promisify(execFile);
const MB = 1024 * 1024;
const hasCurl = await run('curl', ['--version']).then(
  () => true,
  () => false,
);

interface Refusal {
  errors: { status: string; code: string; detail: string; source?: unknown }[];
}

describe('refusals of large bodies over a real socket', () => {
  let server: RunningServer;
  let file: string;
  const body = Buffer.alloc(20 * MB, '['.charCodeAt(0));
  beforeAll(async () => {
    server = await startServer({ MEMORY: 'true' });
    file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-refusals-')), 'body.json');
    await writeFile(file, body);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.skipIf(!hasCurl)('curl --data-binary with a 20 MB file reads the 413 and its errors document, asking first or not', async () => {
    for (const expect100 of [[], ['-H', 'Expect:']]) {
      const { stdout, stderr } = await run('curl', [
        '-sS',
        '-v',
        ...expect100,
        '-H',
        'content-type: application/json',
        '--data-binary',
        `@${file}`,
        '-w',
        '\n%{http_code}',
        `${server.url}/shipments`,
      ]);
      const [text, status] = stdout.split('\n');
      expect(status, stderr).toBe('413');
      expect((JSON.parse(text!) as Refusal).errors[0]).toMatchObject({
        status: '413',
        code: '10003',
        detail: 'The request body is larger than 256 KiB, the most POST /shipments takes.',
      });
      // Asked first, it is told at once and sends nothing.
      if (expect100.length === 0) expect(stderr).not.toMatch(/HTTP\/1\.1 100/);
    }
  });

  it("Node's fetch with a 20 MB body gets a Response: 413 with a Content-Length, 413 or 400 as the stream is read", async () => {
    const token = await getToken(server.url);
    for (const path of ['/access-token', '/shipments', '/return-portal/checkout/x.y']) {
      const sized = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).catch(
        (error: Error) => error,
      );
      expect(sized instanceof Response ? sized.status : `${sized.message}: ${(sized.cause as Error)?.message}`, path).toBe(413);
      expect(((await (sized as Response).json()) as Refusal).errors[0]!.detail).toMatch(/^The request body is larger than \d+ KiB, the most POST \S+ takes\.$/);
    }
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < body.length; at += 64 * 1024) controller.enqueue(body.subarray(at, at + 64 * 1024));
          controller.close();
        },
      });
    const chunked = await fetch(`${server.url}/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const deep = await fetch(`${server.url}/shipments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: stream(),
      duplex: 'half',
    } as RequestInit);
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as Refusal).errors[0]!.detail).toBe('The request body nests deeper than 64 levels.');
    // The server still answers on a new connection.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('a client that says Connection: close and keeps sending reads the refusal before the server closes', async () => {
    const five = body.subarray(0, 5 * MB);
    const send = (path: string, chunked: boolean) =>
      new Promise<number | string>((resolve) => {
        const headers = { 'content-type': 'application/json', connection: 'close', ...(chunked ? {} : { 'content-length': String(five.length) }) };
        const request = httpRequest(new URL(path, server.url), { method: 'POST', headers, agent: false }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode!));
        });
        request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        if (!chunked) return request.end(five);
        for (let at = 0; at < five.length; at += 64 * 1024) request.write(five.subarray(at, at + 64 * 1024));
        request.end();
      });
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 4 === 0 ? send('/return-portal/checkout/x.y', false) : send('/access-token', true))),
    );
    expect(answers).toEqual(Array.from({ length: 16 }, () => 413));
  });

  it('Expect: 100-continue over the limit is answered 413 with Connection: close and no 100; within it, 100 comes first', async () => {
    const ask = (path: string, length: number) =>
      new Promise<{ continued: boolean; status: number; connection: string | undefined; text: string }>((resolve, reject) => {
        let continued = false;
        const url = new URL(path, server.url);
        const request = httpRequest(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(length), expect: '100-continue' },
        });
        request.on('continue', () => {
          continued = true;
          request.end(JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }).padEnd(length));
        });
        request.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ continued, status: response.statusCode!, connection: response.headers.connection, text }));
        });
        request.on('error', reject);
        request.flushHeaders();
      });
    const refused = await ask('/access-token', 20 * MB);
    expect(refused).toMatchObject({ continued: false, status: 413, connection: 'close' });
    expect((JSON.parse(refused.text) as Refusal).errors[0]!.source).toEqual({ header: 'Content-Length' });
    const nowhere = await ask('/nothing-here', 20 * MB);
    expect(nowhere).toMatchObject({ continued: false, status: 404, connection: 'close' });
    const taken = await ask('/access-token', 200);
    expect(taken).toMatchObject({ continued: true, status: 200 });
  });

  it('Expect: 100-continue without the token an endpoint needs is answered 401 with Connection: close and no 100: the body is never sent', async () => {
    const ask = (headers: Record<string, string>) =>
      new Promise<{ continued: boolean; status: number; connection: string | undefined; text: string }>((resolve, reject) => {
        let continued = false;
        const request = httpRequest(new URL('/shipments', server.url), {
          method: 'POST',
          headers: { 'content-type': 'application/vnd.api+json', 'content-length': String(200 * 1024), expect: '100-continue', ...headers },
        });
        request.on('continue', () => {
          continued = true;
          request.end(Buffer.alloc(200 * 1024, ' '));
        });
        request.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ continued, status: response.statusCode!, connection: response.headers.connection, text }));
        });
        request.on('error', reject);
        request.flushHeaders();
      });
    const anonymous = await ask({});
    expect(anonymous).toMatchObject({ continued: false, status: 401, connection: 'close' });
    expect((JSON.parse(anonymous.text) as Refusal).errors[0]).toMatchObject({ code: '14003', source: { header: 'Authorization' } });
    // With a token (even one that turns out bad) the body is asked for, and the token is judged as always.
    const bearing = await ask({ authorization: 'Bearer not-a-token' });
    expect(bearing).toMatchObject({ continued: true, status: 401 });
    expect((JSON.parse(bearing.text) as Refusal).errors[0]!.code).toBe('14002');
  });
});
