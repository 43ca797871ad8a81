import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './support/server.js';

/*
 * The Host check against a real server: the node server builds the request URL from the Host
 * header, which a DNS-rebinding page sets to the attacker's name. fetch will not set Host, so
 * these requests go through node:http.
 */

interface Reply {
  status: number;
  body: string;
}

function send(server: RunningServer, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('the Host of control requests, against a running server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DATA_FILE: ':memory:', ALLOWED_HOSTS: 'sandbox' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a rebinding page with 421 and answers loopback, IP and ALLOWED_HOSTS names', async () => {
    const port = new URL(server.url).port;
    const rebind = `rebind.attacker.example:${port}`;
    const json = { 'content-type': 'application/json' };
    const moved = await send(server, 'POST', '/_sandbox/clock', { ...json, host: rebind, origin: `http://${rebind}` }, '{"advance":86400}');
    expect(moved.status).toBe(421);
    expect(JSON.parse(moved.body).errors[0]).toMatchObject({ status: '421', code: '10013', source: { header: 'Host' } });
    const before = JSON.parse((await send(server, 'GET', '/_sandbox/clock', { host: `127.0.0.1:${port}` })).body);
    expect((await send(server, 'GET', '/_sandbox/requests', { host: rebind })).status).toBe(421);

    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `sandbox:${port}`, `[::1]:${port}`, `192.168.1.20:${port}`]) {
      expect((await send(server, 'GET', '/_sandbox/clock', { host })).status, host).toBe(200);
    }
    // The clock did not move for the rebinding page, and the API answers it.
    expect(JSON.parse((await send(server, 'GET', '/_sandbox/clock', { host: `localhost:${port}` })).body).now - before.now).toBeLessThan(86400);
    // The API answers it as it answers anyone: here, that the catalogue needs a token (not 421).
    expect(JSON.parse((await send(server, 'GET', '/carriers', { host: rebind })).body).errors[0]).toMatchObject({ status: '401', code: '14003' });
  });
});
