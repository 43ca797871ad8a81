import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { connect, createServer } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePersistence } from '../src/store/persistence.js';
import { cliEntry, dutchShipmentBody, getToken, runToExit, startServer, type RunningServer } from './support/server.js';

const tempDir = () => mkdtemp(join(tmpdir(), 'parcel-sandbox-e2e-'));

/** Sends raw bytes to `url`'s server and reads everything until it closes the connection: status, lower-cased head and body. */
function rawExchange(url: string, text: string, end = true): Promise<{ status: number; statusLine: string; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => (end ? socket.end(text) : socket.write(text)));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const statusLine = head.split('\r\n')[0]!;
      resolve({ status: Number(statusLine.split(' ')[1]), statusLine, headers: head.toLowerCase(), body });
    });
  });
}

describe('a running sandbox', () => {
  let server: RunningServer;
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir();
    // Deprecations end the process here: an API the Node of the Docker image deprecates is a
    // warning in every container's log today and a failure on a later Node.
    server = await startServer({ DATA_FILE: join(dir, 'sandbox.json') }, [], ['--throw-deprecation', ...cliEntry()]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('prints the URL, the data file and the default credentials on start', () => {
    expect(server.output()).toContain(join(dir, 'sandbox.json'));
    expect(server.output()).toMatch(/sandbox-client\s+sandbox-secret/);
    expect(server.output()).toMatch(/limited-client\s+limited-secret\s+shipments\.manage/);
  });

  it('serves a token and the catalogue over a real socket', async () => {
    const token = await getToken(server.url);
    const carriers = await fetch(`${server.url}/carriers`, { headers: { authorization: `Bearer ${token}` } });
    expect(carriers.status).toBe(200);
    expect(carriers.headers.get('content-type')).toBe('application/vnd.api+json');
    const body = (await carriers.json()) as { data: { links: { self: string } }[] };
    expect(body.data[0]!.links.self.startsWith(server.url)).toBe(true);
  });

  it('ignores a body sent with a GET request', async () => {
    const authorization = `Bearer ${await getToken(server.url)}`;
    const { status } = await new Promise<{ status: number }>((resolve, reject) => {
      const request = httpRequest(
        `${server.url}/carriers`,
        { method: 'GET', headers: { authorization, 'content-type': 'application/json', 'content-length': 2 } },
        (response) => {
          response.resume();
          resolve({ status: response.statusCode ?? 0 });
        },
      );
      request.on('error', reject);
      request.end('[]');
    });
    expect(status).toBe(200);
  });

  it("answers what Node's HTTP parser or the Hono adapter refuses with an errors document, not a bare status line", async () => {
    const raw = (text: string) => rawExchange(server.url, text);
    const refusals = await Promise.all([
      raw(`GET /shipments?filter[search]=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`),
      raw('POST /shipments HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n'),
      raw('POST /shipments HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}'),
      raw('this is not http\r\n\r\n'),
      // Node's own check, and the adapter's when it cannot make a URL of the request.
      raw('GET /health HTTP/1.1\r\n\r\n'),
      raw('GET /health HTTP/1.1\r\nHost: a/b\r\n\r\n'),
      raw('GET /shipments\\x HTTP/1.1\r\nHost: localhost\r\n\r\n'),
    ]);
    const summary = refusals.map(({ status, headers, body }) => {
      expect(headers).toContain('content-type: application/vnd.api+json');
      expect(headers).toMatch(/\r\ndate: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} gmt(\r\n|$)/);
      expect(headers).toContain('access-control-allow-origin: *');
      const [error] = (JSON.parse(body) as { errors: { status: string; code: string; detail: string; source?: unknown }[] }).errors;
      expect(error!.status).toBe(String(status));
      expect(error!.detail.length).toBeGreaterThan(20);
      return [status, error!.source ?? null];
    });
    expect(summary).toEqual([
      [431, null],
      [400, { header: 'Content-Length' }],
      [400, { header: 'Transfer-Encoding' }],
      [400, null],
      [400, { header: 'Host' }],
      [400, { header: 'Host' }],
      [400, null],
    ]);
    // The server goes on answering.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('answers CONNECT, as a client using the sandbox as its proxy sends it, with a 501 saying it is no proxy, not a closed connection', async () => {
    // Written, not ended: a proxy client waits for the tunnel's answer with its side still open.
    const { statusLine, headers, body } = await rawExchange(server.url, 'CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n', false);
    expect(statusLine).toBe('HTTP/1.1 501 Not Implemented');
    expect(headers).toContain('content-type: application/vnd.api+json');
    const [error] = (JSON.parse(body) as { errors: { status: string; detail: string }[] }).errors;
    expect(error!.status).toBe('501');
    expect(error!.detail).toContain('not a proxy');
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it('refuses an Expect header it does not meet with a 417 errors document naming it, not a bare status line', async () => {
    const { statusLine, headers, body } = await rawExchange(server.url, 'GET /health HTTP/1.1\r\nHost: localhost\r\nExpect: 200-ok\r\n\r\n');
    expect(statusLine).toBe('HTTP/1.1 417 Expectation Failed');
    expect(headers).toContain('content-type: application/vnd.api+json');
    const [error] = (JSON.parse(body) as { errors: { status: string; code: string; source: unknown }[] }).errors;
    expect(error).toMatchObject({ status: '417', code: '10004', source: { header: 'Expect' } });
  });

  it('refuses two Host headers or an empty one (RFC 9112), and links an HTTP/1.0 request without Host to the port it reached', async () => {
    const { port } = new URL(server.url);
    const raw = (text: string) => rawExchange(server.url, text);
    for (const request of [
      'GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
      'GET / HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n',
      'GET / HTTP/1.0\r\nHost: \r\n\r\n',
    ]) {
      const answer = await raw(request);
      expect(answer.status, request).toBe(400);
      expect((JSON.parse(answer.body) as { errors: { source: unknown }[] }).errors[0]!.source, request).toEqual({ header: 'Host' });
    }
    const old = await raw('GET / HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
    const links = (JSON.parse(old.body) as { links: { specification: string } }).links;
    expect(new URL(links.specification).port).toBe(port);
  });

  it('scrubs from each logged request the credentials it carried, when credentials take turns', async () => {
    // Node hands the sandbox raw header lists; the request log keeps those, sharing the string of
    // an Authorization value between requests that carry the same one (src/http/request-log.ts).
    // Opaque credentials, not tokens: the log scrubs anything shaped like a token anyway, but a
    // request's own credentials only because they came in its Authorization header.
    const keys = ['first-opaque-key-4f1c9a', 'second-opaque-key-7b2e0d'];
    const turns = [0, 0, 1, 0, 1, 1, 0];
    for (const [turn, key] of turns.entries()) {
      const answer = await fetch(`${server.url}/carriers?turn=${turn}&echo=${keys[key]}`, { headers: { authorization: `Bearer ${keys[key]}` } });
      expect(answer.status).toBe(401);
    }
    const log = (await (await fetch(`${server.url}/_sandbox/requests?path=/carriers?turn=&limit=${turns.length}`)).json()) as {
      data: { path: string; request: { headers: Record<string, string> } }[];
    };
    const entries = [...log.data].reverse();
    expect(entries.map((entry) => entry.path)).toEqual(turns.map((_, turn) => `/carriers?turn=${turn}&echo=[REDACTED]`));
    for (const entry of entries) {
      expect(entry.request.headers.authorization).toBe('Bearer [REDACTED]');
      for (const key of keys) expect(JSON.stringify(entry)).not.toContain(key);
    }
  });

  it('answers a CORS preflight for the headers a browser client sends', async () => {
    const response = await fetch(`${server.url}/shops`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://docs.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['authorization', 'content-type', 'accept', 'idempotency-key']) expect(allowed).toContain(header);
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
    // Also on a refusal (no token here), so a browser can read the 401.
    const actual = await fetch(`${server.url}/carriers`, { headers: { origin: 'https://docs.example.com' } });
    expect(actual.status).toBe(401);
    expect(actual.headers.get('access-control-allow-origin')).toBe('*');
    expect(actual.headers.get('access-control-expose-headers')).toContain('Idempotency-Replay');
  });

  it('links a webhook payload to the port it listens on, the one --port 0 picked', async () => {
    const bodies: string[] = [];
    const receiver = createHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        bodies.push(body);
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const headers = { authorization: `Bearer ${await getToken(server.url)}`, 'content-type': 'application/vnd.api+json' };
      const organization = ((await (await fetch(`${server.url}/organizations`, { headers })).json()) as { data: { id: string }[] }).data[0]!;
      const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/`;
      const hook = await fetch(`${server.url}/hooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          data: {
            type: 'hooks',
            attributes: {
              name: 'Notify',
              order: 100,
              active: true,
              trigger: { resource_type: 'shipments', resource_action: 'create' },
              action: { action_type: 'send-resource', values: [{ url }] },
            },
            relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
          },
        }),
      });
      expect(hook.status).toBe(201);
      const created = await fetch(`${server.url}/shipments`, { method: 'POST', headers, body: await dutchShipmentBody(server.url, headers) });
      const shipment = ((await created.json()) as { data: { id: string } }).data;
      // Moving the tenant's clock by nothing runs what is due and waits for its deliveries.
      await fetch(`${server.url}/_sandbox/clock`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"advance": 0}' });
      await fetch(`${server.url}/hooks/${((await hook.json()) as { data: { id: string } }).data.id}`, { method: 'DELETE', headers });
      expect(bodies).toHaveLength(1);
      expect(JSON.parse(bodies[0]!).data.links.self).toBe(`${server.url}/shipments/${shipment.id}`);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('has a write on disk by the time it answers', async () => {
    const move = await fetch(`${server.url}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance: 42 }),
    });
    expect(move.status).toBe(200);
    // The snapshot plus its journal, read as the next start would read them.
    const data = (await filePersistence(join(dir, 'sandbox.json')).load())!;
    const offset = data.tables.settings!.find((row) => row.id === 'clock_offset_ms')!;
    expect(offset.value).toBeGreaterThanOrEqual(42000);
  });
});

describe('a separate auth port', () => {
  it('serves tokens on the auth port and the API on the main port', async () => {
    const server = await startServer({ DATA_FILE: ':memory:', AUTH_PORT: '0' });
    try {
      const authUrl = /token:\s+POST (http:\/\/\S+)\/access-token/.exec(server.output())![1]!;
      expect(authUrl).not.toBe(server.url);
      const token = await getToken(authUrl);
      const regions = await fetch(`${server.url}/regions`, { headers: { authorization: `Bearer ${token}` } });
      expect(regions.status).toBe(200);
      const notHere = await fetch(`${authUrl}/regions`, { headers: { authorization: `Bearer ${token}` } });
      expect(notHere.status).toBe(404);
      expect((await fetch(`${authUrl}/.well-known/jwks.json`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('restarting with the data file', () => {
  it('keeps the data, the clock and the signing key, so tokens survive the restart', async () => {
    const dir = await tempDir();
    const env = { DATA_FILE: join(dir, 'sandbox.json') };
    const first = await startServer(env);
    const token = await getToken(first.url);
    const organization = await (await fetch(`${first.url}/organizations`, { headers: { authorization: `Bearer ${token}` } })).json();
    await fetch(`${first.url}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: 3600 }) });
    expect(await first.stop()).toBe(0);

    const second = await startServer(env);
    try {
      const again = await fetch(`${second.url}/organizations`, { headers: { authorization: `Bearer ${token}` } });
      expect(again.status).toBe(200);
      const body = (await again.json()) as { data: { id: string }[] };
      expect(body.data[0]!.id).toBe((organization as { data: { id: string }[] }).data[0]!.id);
      const clock = (await (await fetch(`${second.url}/_sandbox/clock`)).json()) as { offset: number };
      expect(clock.offset).toBeGreaterThanOrEqual(3600);
    } finally {
      await second.stop();
    }
  });
});

describe('start-up failures', () => {
  it('refuses a corrupt data file, naming it, and does not overwrite it', async () => {
    const dir = await tempDir();
    const file = join(dir, 'sandbox.json');
    await writeFile(file, 'not json at all');
    const { code, output } = await runToExit({ DATA_FILE: file });
    expect(code).toBe(1);
    expect(output).toContain(file);
    expect(output).not.toMatch(/\n\s+at /);
    expect(await readFile(file, 'utf8')).toBe('not json at all');
  });

  it('exits with 2 and one line for an invalid setting', async () => {
    const { code, output } = await runToExit({ PORT: 'eighty' });
    expect(code).toBe(2);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toContain('PORT');
  });

  it('exits with 1 and a clear message when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, output } = await runToExit({ PORT: String(port), DATA_FILE: ':memory:' });
      expect(code).toBe(1);
      expect(output).toContain(`port ${port}`);
    } finally {
      blocker.close();
    }
  });
});

describe('concurrent requests over a real socket', () => {
  it('create exactly one shipment from 50 concurrent POSTs with one Idempotency-Key', async () => {
    const dir = await tempDir();
    const server = await startServer({ DATA_FILE: join(dir, 'sandbox.json') });
    try {
      const token = await getToken(server.url);
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' };
      const body = await dutchShipmentBody(server.url, auth);
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => fetch(`${server.url}/shipments`, { method: 'POST', headers: { ...auth, 'idempotency-key': 'burst-1' }, body })),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
      const ids = new Set<string>();
      for (const answer of answers) if (answer.status === 201) ids.add(((await answer.json()) as { data: { id: string } }).data.id);
      expect(ids.size).toBe(1);
      const list = (await (await fetch(`${server.url}/shipments`, { headers: auth })).json()) as { meta: { total_records: number } };
      expect(list.meta.total_records).toBe(1);
    } finally {
      await server.stop();
    }
  });
});
