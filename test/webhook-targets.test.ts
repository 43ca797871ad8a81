/**
 * Where webhooks may go (issue 14, finding 3): only http and https; loopback by default but never
 * private, link-local (cloud metadata) or reserved addresses, checked on the address a name
 * resolves to when the webhook is sent; HOOK_ALLOWED_HOSTS pins ports; shared mode refuses
 * loopback; the hook log keeps only a short, sanitized excerpt of an answer.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RefusedAddress, addressKind, checkTarget, guardedLookup, targetPolicy } from '../src/domain/hooks/target-address.js';
import type { Config } from '../src/config.js';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/** A local receiver that counts what it got and answers with a queued status and body. */
class Receiver {
  received = 0;
  answer = { status: 200, body: 'thanks' };
  private server!: Server;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        this.received += 1;
        response.writeHead(this.answer.status, { 'content-type': 'text/plain' }).end(this.answer.body);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const ADMIN = 'admin-for-webhook-tests';

async function setup(config: Partial<Config> = {}) {
  const sandbox = await testSandbox({ config });
  const w = await world(sandbox);
  const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
  const hook = (url: string, extra: Json = {}) =>
    sandbox.request('POST', '/hooks', {
      token: w.token,
      body: {
        data: {
          type: 'hooks',
          attributes: {
            name: 'Notify',
            order: 100,
            active: true,
            trigger: { resource_type: 'shipments', resource_action: 'create', predicates: [] },
            action: { action_type: 'send-resource', values: [{ url, ...extra }] },
          },
          relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
        },
      },
    });
  /** Creates a shipment (the hooks fire) and runs the due deliveries. */
  const fire = async () => {
    await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const moved = await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 0 }, ...(config.adminToken ? { token: config.adminToken } : {}) });
    expect(moved.status, moved.text).toBe(200);
  };
  const logs = async (hookId: string) => (await sandbox.get(`/hooks/${hookId}/logs`, w.token)).body.data as Json[];
  return { sandbox, w, hook, fire, logs, organization };
}

const refusedAt = (answer: { status: number; body: Json }) => {
  expect(answer.status).toBe(422);
  expect(answer.body.errors[0].source).toEqual({ pointer: '/data/attributes/action/values/0/url' });
  return answer.body.errors[0].detail as string;
};

describe('webhook targets when a hook is saved', () => {
  let s: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    s = await setup();
  });

  it('refuses every scheme but http and https', async () => {
    for (const url of ['gopher://127.0.0.1:6379/_INFO', 'ftp://example.com/in', 'file:///etc/passwd', 'ws://example.com/in', 'data:text/plain,hi']) {
      expect(refusedAt(await s.hook(url)), url).toMatch(/over http or https only/);
    }
  });

  it('refuses private, link-local, metadata and reserved addresses, however they are written', async () => {
    for (const url of [
      'http://10.0.0.1/in',
      'http://172.16.5.4/in',
      'https://192.168.1.10/in',
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/latest/meta-data/',
      'http://0xa9fea9fe/',
      'http://100.100.100.200/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[::ffff:10.0.0.1]/in',
      'http://[fe80::1]/in',
      'http://0.0.0.0:8080/in',
      'http://224.0.0.1/in',
    ]) {
      expect(refusedAt(await s.hook(url)), url).toMatch(/are refused: it is a (private|link-local|reserved) address/);
    }
  });

  it('accepts public addresses and names, and loopback on a local sandbox', async () => {
    for (const url of [
      'https://hooks.example.com/in',
      'http://93.184.216.34/in',
      `http://127.0.0.1:${receiver.port}/in`,
      'http://[::1]:9/in',
      'http://localhost:9/in',
    ]) {
      expect((await s.hook(url)).status, url).toBe(201);
    }
  });

  it("refuses a URL longer than production's 255 characters (400 on the url), and takes one of 255", async () => {
    const base = 'https://hooks.example.com/';
    const long = await s.hook(base + 'a'.repeat(256 - base.length));
    expect(long.status).toBe(400);
    expect(long.body.errors[0].source).toEqual({ pointer: '/data/attributes/action/values/0/url' });
    expect((await s.hook(base + 'a'.repeat(255 - base.length))).status).toBe(201);
  });
});

describe('HOOK_ALLOWED_HOSTS', () => {
  it('pins the port of an entry given with one; entries without a port allow any', async () => {
    const s = await setup({ hookAllowedHosts: 'hooks.example.com:8443,*.example.org' });
    expect((await s.hook('https://hooks.example.com:8443/in')).status).toBe(201);
    expect(refusedAt(await s.hook('https://hooks.example.com/in'))).toBe(
      'Webhooks to hooks.example.com are allowed on port 8443 only, not 443 (HOOK_ALLOWED_HOSTS).',
    );
    expect(refusedAt(await s.hook('http://hooks.example.com:8080/in'))).toMatch(/port 8443 only, not 8080/);
    expect((await s.hook('http://a.example.org:9999/in')).status).toBe(201);
    expect(refusedAt(await s.hook('gopher://hooks.example.com:8443/'))).toMatch(/over http or https only/);
    expect(refusedAt(await s.hook('https://evil.example.net/'))).toMatch(/not allowed here \(HOOK_ALLOWED_HOSTS\)/);
  });

  it('lets a host named exactly be any address (a receiver in the same Docker network); a wildcard does not', async () => {
    const s = await setup({ hookAllowedHosts: '10.0.0.7:9000,*.internal.example' });
    expect((await s.hook('http://10.0.0.7:9000/in')).status).toBe(201);
    expect(refusedAt(await s.hook('http://10.0.0.7:9001/in'))).toMatch(/port 9000 only/);
  });

  it('is checked again when a webhook is sent: a hook saved before the rules changed is refused, logged once, not retried', async () => {
    const s = await setup();
    const saved = await s.hook(`http://127.0.0.1:${receiver.port}/in`, { tries: 3, retry_delay: 1 });
    expect(saved.status).toBe(201);
    // The hook as an older sandbox (or a hand-edited data file) could hold it.
    await s.sandbox.store.transact((tx) => {
      const row = tx.get('hooks', saved.body.data.id)!;
      tx.update('hooks', row.id, {
        action: { action_type: 'send-resource', values: [{ url: 'http://169.254.169.254/latest/meta-data/', tries: 3, retry_delay: 1 }] },
      });
    });
    const before = receiver.received;
    await s.fire();
    await s.sandbox.request('POST', '/_sandbox/clock', { body: { advance: 60 } });
    const logs = await s.logs(saved.body.data.id);
    expect(logs).toHaveLength(1);
    expect(logs[0].attributes.errors[0]).toMatch(/Attempt 1 of 3: POST http:\/\/169\.254\.169\.254\/latest\/meta-data\/ is refused: .*link-local address/);
    expect(receiver.received).toBe(before);
  });
});

describe('webhooks in shared mode', () => {
  it('refuses loopback addresses when the hook is saved', async () => {
    const s = await setup({ shared: true, adminToken: ADMIN });
    expect(refusedAt(await s.hook(`http://127.0.0.1:${receiver.port}/in`))).toMatch(/loopback address, which this shared sandbox does not send to/);
    expect(refusedAt(await s.hook('http://[::1]/in'))).toMatch(/loopback/);
  });

  it('refuses a name that resolves to a loopback address when the webhook is sent: nothing reaches the receiver', async () => {
    const s = await setup({ shared: true, adminToken: ADMIN });
    const saved = await s.hook(`http://localhost:${receiver.port}/in`, { tries: 2, retry_delay: 1 });
    expect(saved.status, saved.text).toBe(201);
    const before = receiver.received;
    await s.fire();
    await s.sandbox.request('POST', '/_sandbox/clock', { token: ADMIN, body: { advance: 10 } });
    const logs = await s.logs(saved.body.data.id);
    expect(logs).toHaveLength(1);
    expect(logs[0].attributes.errors[0]).toContain(`POST http://localhost:${receiver.port}/in is refused: localhost resolves to a loopback address`);
    expect(logs[0].attributes.errors[0]).not.toContain('127.0.0.1');
    expect(receiver.received).toBe(before);
  });

  it('sends to a loopback host the operator named exactly in HOOK_ALLOWED_HOSTS', async () => {
    const s = await setup({ shared: true, adminToken: ADMIN, hookAllowedHosts: `127.0.0.1:${receiver.port}` });
    const saved = await s.hook(`http://127.0.0.1:${receiver.port}/in`);
    expect(saved.status, saved.text).toBe(201);
    const before = receiver.received;
    await s.fire();
    expect(receiver.received).toBe(before + 1);
  });
});

describe('what the hook log keeps of an answer', () => {
  it('the status and a short excerpt without control characters', async () => {
    const s = await setup();
    const saved = await s.hook(`http://127.0.0.1:${receiver.port}/in`, { tries: 1 });
    receiver.answer = { status: 500, body: `\u001b[31mInternal error\u001b[0m\r\nSECRET-TAIL ${'stack frame\n'.repeat(500)}` };
    try {
      await s.fire();
    } finally {
      receiver.answer = { status: 200, body: 'thanks' };
    }
    const [log] = await s.logs(saved.body.data.id);
    expect(log.meta.delivery.status).toBe(500);
    const error = log.attributes.errors[0] as string;
    // The escape characters are gone (what was printable of the sequences stays), lines joined, the rest cut.
    expect(error).toMatch(/answered 500: \[31mInternal error \[0m SECRET-TAIL stack frame stack frame .*…$/);
    // eslint-disable-next-line no-control-regex -- terminal escapes and control characters are what this looks for
    expect(error).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(error.length).toBeLessThan(300);
  });

  it('ends an attempt whose answer drips in after 10 s in all, and the sandbox clock moves on', async () => {
    // A receiver that starts its answer and then sends a header line every second for ever: each line
    // comes well within the 10 s a connection may stay silent, so only a bound on the whole attempt ends it.
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const drips = new Set<NodeJS.Timeout>();
    const dripping = createNetServer((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 500 Internal Server Error\r\n');
        const drip = setInterval(() => socket.write('X-Drip: .\r\n'), 1000);
        drips.add(drip);
        socket.on('close', () => clearInterval(drip));
        socket.on('error', () => clearInterval(drip));
        arrived();
      });
    });
    await new Promise<void>((resolve) => dripping.listen(0, '127.0.0.1', resolve));
    try {
      const s = await setup();
      const saved = await s.hook(`http://127.0.0.1:${(dripping.address() as { port: number }).port}/in`, { tries: 1 });
      await createShipment(s.sandbox, s.w.token, shipmentBody({ shop: s.w.shopIn('NL') }));
      // Only the attempt's deadline is faked: the receiver's drip keeps real time.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const moved = s.sandbox.request('POST', '/_sandbox/clock', { body: { advance: 0 } });
      await reached;
      vi.advanceTimersByTime(10_000);
      vi.useRealTimers();
      expect((await moved).status).toBe(200);
      const [log] = await s.logs(saved.body.data.id);
      expect(log.meta.delivery).toEqual({ url: expect.any(String), attempt: 1, tries: 1 });
      expect(log.attributes.errors[0]).toMatch(/could not be reached \(ETIMEDOUT\)$/);
    } finally {
      vi.useRealTimers();
      for (const drip of drips) clearInterval(drip);
      await new Promise<void>((resolve) => dripping.close(() => resolve()));
    }
  });

  it('names only the error code when a receiver cannot be reached', async () => {
    const s = await setup();
    const saved = await s.hook('http://127.0.0.1:9/in', { tries: 1 });
    await s.fire();
    const [log] = await s.logs(saved.body.data.id);
    expect(log.attributes.errors[0]).toMatch(/could not be reached \(ECONNREFUSED\)$/);
  });
});

describe('the address checks', () => {
  it('know the kinds of addresses', () => {
    const kinds = Object.fromEntries(
      [
        '127.0.0.1',
        '::1',
        '10.1.2.3',
        '172.31.255.255',
        '172.32.0.1',
        '192.168.0.1',
        '169.254.169.254',
        'fe80::1',
        'fd00:ec2::254',
        '::ffff:192.168.0.1',
        '100.64.0.1',
        '0.0.0.0',
        '8.8.8.8',
        '2606:4700::1111',
        '::ffff:8.8.8.8',
        '::169.254.169.254',
        '::a9fe:a9fe',
        '::ffff:0:a9fe:a9fe',
        '64:ff9b:1::a9fe:a9fe',
        '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      ].map((address) => [address, addressKind(address)]),
    );
    expect(kinds).toEqual({
      '127.0.0.1': 'loopback',
      '::1': 'loopback',
      '10.1.2.3': 'private',
      '172.31.255.255': 'private',
      '172.32.0.1': 'public',
      '192.168.0.1': 'private',
      '169.254.169.254': 'link-local',
      'fe80::1': 'link-local',
      'fd00:ec2::254': 'private',
      '::ffff:192.168.0.1': 'private',
      '100.64.0.1': 'private',
      '0.0.0.0': 'reserved',
      '8.8.8.8': 'public',
      '2606:4700::1111': 'public',
      '::ffff:8.8.8.8': 'public',
      // IPv4-compatible, IPv4-translated, local-use NAT64 and Teredo forms carry an IPv4 address inside.
      '::169.254.169.254': 'reserved',
      '::a9fe:a9fe': 'reserved',
      '::ffff:0:a9fe:a9fe': 'reserved',
      '64:ff9b:1::a9fe:a9fe': 'reserved',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2': 'reserved',
    });
  });

  it('check every address a name resolves to, and hand the connection only those', async () => {
    const policy = targetPolicy({ hookAllowedHosts: undefined, shared: false });
    const resolveTo =
      (addresses: string[]) => (_host: string, _options: unknown, callback: (error: null, found: { address: string; family: number }[]) => void) =>
        callback(
          null,
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
    const target = (checkTarget('http://hooks.example.test/in', policy) as { target: any }).target;
    const run = (addresses: string[], all: boolean) =>
      new Promise<{ error: Error | null; result: unknown }>((resolve) =>
        guardedLookup(target, policy, resolveTo(addresses) as never)('hooks.example.test', { all }, (error: Error | null, result: unknown) =>
          resolve({ error, result }),
        ),
      );
    const rebinding = await run(['93.184.216.34', '10.0.0.5'], true);
    expect(rebinding.error).toBeInstanceOf(RefusedAddress);
    expect(rebinding.error!.message).toBe('hooks.example.test resolves to a private address');
    expect((await run(['169.254.169.254'], false)).error!.message).toMatch(/link-local/);
    expect(await run(['93.184.216.34'], false)).toEqual({ error: null, result: '93.184.216.34' });
    expect((await run(['93.184.216.34', '2606:4700::1111'], true)).result).toHaveLength(2);
  });
});

/** Keeps TestSandbox imported for the type of `setup`'s result in editors. */
export type { TestSandbox };
