import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, DEFAULT_SANDBOX_URL, type JsonApiDocument, type JsonApiResource, type Sandbox } from '../src/index.js';
import { FIXTURE_EPOCH } from '../src/fixtures/people.js';
import { recipients } from './support/shipments.js';

const START = FIXTURE_EPOCH + 10 * 86400;
const opened: Sandbox[] = [];

async function sandboxFor(options: Parameters<typeof createSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ now: START, ...options });
  opened.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.close()));
});

async function json(response: Response): Promise<JsonApiDocument<any>> {
  return (await response.json()) as JsonApiDocument<any>;
}

const auth = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function ids(sandbox: Sandbox, path: string): Promise<string[]> {
  const token = await sandbox.token();
  return ((await json(await sandbox.request(`${path}?page[size]=100`, auth(token)))).data as JsonApiResource[]).map((resource) => resource.id);
}

/** Creates a PostNL shipment in the Netherlands to register at `registerAt`; returns its id. */
async function createShipment(sandbox: Sandbox, token: string, registerAt: number | null): Promise<string> {
  const shops = (await json(await sandbox.request('/shops', auth(token)))).data as JsonApiResource[];
  const shop = shops.find((s) => s.attributes.sender_address.country_code === 'NL')!;
  const body = {
    data: {
      type: 'shipments',
      attributes: {
        recipient_address: recipients.NL,
        sender_address: shop.attributes.sender_address,
        return_address: shop.attributes.return_address,
        physical_properties: { weight: 1000 },
        register_at: registerAt,
      },
      relationships: { shop: { data: { type: 'shops', id: shop.id } } },
    },
    meta: { service_code: 'postnl-parcel-standard' },
  };
  const response = await sandbox.request('/shipments', { method: 'POST', body: JSON.stringify(body), ...auth(token) });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await json(response)).data as JsonApiResource).id;
}

async function statusCode(sandbox: Sandbox, token: string, id: string): Promise<string> {
  const document = await json(await sandbox.request(`/shipments/${id}?include=shipment_status.status`, auth(token)));
  return document.included!.find((resource) => resource.type === 'statuses')!.attributes.code;
}

describe('createSandbox', () => {
  it('hands out tokens and answers requests without a port', async () => {
    const sandbox = await sandboxFor();
    const token = await sandbox.token();
    const answer = await sandbox.request('/carriers', auth(token));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/vnd.api+json');
    const document = await json(answer);
    expect(document.data.length).toBeGreaterThan(0);
    expect(document.data[0].links.self.startsWith(`${DEFAULT_SANDBOX_URL}/carriers/`)).toBe(true);
    expect((await sandbox.request('/shops')).status).toBe(401);
  });

  it('is a drop-in fetch: a Request, an absolute URL or a path, also when called unbound', async () => {
    const sandbox = await sandboxFor({ config: { publicUrl: 'https://sandbox.example.com' } });
    expect(sandbox.url).toBe('https://sandbox.example.com');
    const { fetch } = sandbox;
    expect((await fetch(new Request('https://sandbox.example.com/health'))).status).toBe(200);
    expect((await fetch('https://anything.example/health')).status).toBe(200);
    expect((await fetch('/health', { method: 'GET' })).status).toBe(200);
  });

  it('with a public URL that has a path, serves what is under it, as the proxy it stands for would: links from answers can be followed', async () => {
    const sandbox = await sandboxFor({ config: { publicUrl: 'https://example.com/sandbox' } });
    // An API client based on sandbox.url, signing in with a Request that has a body.
    const signIn = new Request(`${sandbox.url}/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret', scope: '*' }),
    });
    const granted = await sandbox.fetch(signIn);
    expect(granted.status).toBe(200);
    const token = ((await granted.json()) as { access_token: string }).access_token;
    const carriers = await json(await sandbox.fetch(`${sandbox.url}/carriers`, auth(token)));
    const self = (carriers.data as JsonApiResource[])[0]!.links!.self!;
    expect(self.startsWith('https://example.com/sandbox/carriers/')).toBe(true);
    // Before, the path was handed to the app as it was: 404 for every URL under the public one.
    const carrier = await sandbox.fetch(self, auth(token));
    expect(carrier.status).toBe(200);
    expect(((await json(carrier)).data as JsonApiResource).links!.self).toBe(self);
    // A path is still the app's own path.
    expect((await sandbox.request('/carriers', auth(token))).status).toBe(200);
  });

  it('limits a token to the scopes asked for and refuses unknown clients', async () => {
    const sandbox = await sandboxFor();
    const limited = await sandbox.token('limited-client');
    expect((await sandbox.request('/shops', { method: 'POST', body: '{}', ...auth(limited) })).status).toBe(403);
    const narrow = await sandbox.token('sandbox-client', 'shipments.manage');
    const claims = JSON.parse(Buffer.from(narrow.split('.')[1]!, 'base64url').toString()) as { scope: string; iat: number };
    expect(claims).toMatchObject({ scope: 'shipments.manage', iat: START });
    await expect(sandbox.token('nobody')).rejects.toThrow(/no seeded client 'nobody'/);
    await expect(sandbox.token('limited-client', 'shops.manage')).rejects.toThrow(/refused with 400/);
  });

  it('refuses an option it does not take, naming it, rather than ignoring a typo', async () => {
    const refused = (options: unknown) => createSandbox(options as Parameters<typeof createSandbox>[0]);
    await expect(refused({ bogus: 1 })).rejects.toThrow(new TypeError("createSandbox: 'bogus' is not an option; the options are seed, now, config, logger"));
    await expect(refused({ sede: 7 })).rejects.toThrow("createSandbox: 'sede' is not an option; did you mean seed? the options are seed, now, config, logger");
    await expect(refused({ registrationDelay: 0 })).rejects.toThrow(
      "createSandbox: 'registrationDelay' is not an option; registrationDelay is a setting: pass it in config, createSandbox({ config: { registrationDelay: ... } })",
    );
    await expect(refused(null)).rejects.toThrow(TypeError);
    await expect(refused([])).rejects.toThrow('createSandbox: options must be an object (seed, now, config, logger), got an array');
    // Every option it documents is still taken, an undefined one too.
    const sandbox = await sandboxFor({ seed: undefined, config: { registrationDelay: 0 }, logger: console });
    expect(sandbox.seed).toBe(1);
  });

  it('has a clock that stands still until advanced, and advanceClock runs due registrations', async () => {
    // The machine's clock is faked from before the sandbox exists, so that a sandbox clock that
    // followed it would be seen to move when it jumps ahead (instead of waiting for real time to pass).
    vi.useFakeTimers({ toFake: ['Date'] });
    const sandbox = await sandboxFor();
    expect(sandbox.now()).toBe(START);
    const token = await sandbox.token();
    const id = await createShipment(sandbox, token, START + 10);
    vi.setSystemTime(Date.now() + 3600_000);
    expect(sandbox.now()).toBe(START);
    expect(await statusCode(sandbox, token, id)).toBe('shipment-concept');
    expect(await sandbox.advanceClock(11)).toBe(START + 11);
    expect(await statusCode(sandbox, token, id)).toBe('shipment-concept');
    await sandbox.advanceClock(1);
    expect(sandbox.now()).toBe(START + 12);
    expect(await statusCode(sandbox, token, id)).toBe('shipment-registered');
    await expect(sandbox.advanceClock(-1)).rejects.toThrow(RangeError);
  });

  it("refuses a start past the clocks' end (9999), such as Date.now() in milliseconds, and a logger without its methods", async () => {
    const refused = (options: unknown) => createSandbox(options as Parameters<typeof createSandbox>[0]);
    // Before, both made a sandbox: one whose clock showed the year 58,000, and one whose first
    // logged error threw a TypeError out of the error handler.
    const milliseconds = START * 1000;
    await expect(refused({ now: milliseconds })).rejects.toThrow(
      new RangeError(
        `createSandbox: 'now' must be Unix seconds up to 253402300799 (9999-12-31T23:59:59Z), got ${milliseconds} (milliseconds? Date.now() / 1000 is seconds)`,
      ),
    );
    await expect(refused({ now: new Date('+010000-01-01T00:00:00Z') })).rejects.toThrow(/'now' must be Unix seconds up to 253402300799/);
    await expect(refused({ logger: 5 })).rejects.toThrow(
      new TypeError(
        "createSandbox: 'logger' must have the methods error, warn, info, debug (a pino logger or console fits); it lacks error, warn, info, debug",
      ),
    );
    await expect(refused({ logger: { error() {}, warn() {}, info() {} } })).rejects.toThrow(/it lacks debug$/);
    await expect(refused({ config: [] })).rejects.toThrow("createSandbox: 'config' must be an object of settings, got an array");
    // A refused setting is named as what it is in a test runner's report (before: "Error: ...").
    const setting = await refused({ config: { registrationDelay: -5 } }).catch((error: unknown) => error);
    expect(String(setting)).toBe('ConfigError: createSandbox: config.registrationDelay must not be negative, got -5');
    // The last second the clocks can show is a start they take.
    const latest = await sandboxFor({ now: 253402300799 });
    expect(latest.now()).toBe(253402300799);
  });

  it("refuses a token passed to advanceClock in place of its options, which would move every tenant's clock", async () => {
    const sandbox = await sandboxFor();
    const made = (await (
      await sandbox.request('/_sandbox/tenants', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    ).json()) as {
      client_id: string;
      client_secret: string;
      organization_id: string;
    };
    const granted = await sandbox.request('/access-token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: made.client_id, client_secret: made.client_secret, scope: '*' }),
    });
    const token = ((await granted.json()) as { access_token: string }).access_token;
    const advance = sandbox.advanceClock as (seconds: unknown, options?: unknown) => Promise<number>;
    // Before, the string was passed over and the global clock moved an hour.
    await expect(advance(3600, token)).rejects.toThrow(
      new TypeError("parcel-sandbox: advanceClock(seconds, { token }) takes a tenant's access token in an object; got a string: pass it as { token }"),
    );
    await expect(advance(3600, { tokne: token })).rejects.toThrow("parcel-sandbox: 'tokne' is not an option of advanceClock");
    await expect(advance('3600')).rejects.toThrow(new RangeError("parcel-sandbox: advanceClock takes whole seconds, 0 or more; got '3600'"));
    expect(sandbox.now()).toBe(START);
    expect(await sandbox.advanceClock(3600, { token })).toBe(START + 3600);
    expect(sandbox.now(made.organization_id)).toBe(START + 3600);
    expect(sandbox.now()).toBe(START);
  });

  it("reads a large body while the test fakes the machine's timers", async () => {
    const sandbox = await sandboxFor();
    const token = await sandbox.token();
    // Every timer faked, as vi.useFakeTimers() does by default; before, a body over 256 KiB waited
    // for a faked setImmediate that never ran, and the request never answered.
    vi.useFakeTimers();
    const body = JSON.stringify({ data: { type: 'shops', attributes: { name: 'x'.repeat(300 * 1024) } } });
    const answer = await sandbox.request('/shops', { method: 'POST', body, ...auth(token) });
    // Read whole (POST /shops takes a logo, so up to a few MiB) and checked like any body.
    expect(answer.status).toBe(400);
    expect((await json(answer)).errors![0]).toMatchObject({
      detail: "'name' must be at most 255 characters long.",
      source: { pointer: '/data/attributes/name' },
    });
  });

  it('starts the clock at the real time by default, or at a Date', async () => {
    const before = Math.floor(Date.now() / 1000);
    const sandbox = await sandboxFor({ now: undefined });
    expect(sandbox.now()).toBeGreaterThanOrEqual(before);
    expect(sandbox.now()).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const dated = await sandboxFor({ now: new Date('2030-01-02T03:04:05Z') });
    expect(dated.now()).toBe(Date.UTC(2030, 0, 2, 3, 4, 5) / 1000);
  });

  it('takes settings such as the registration delay', async () => {
    const sandbox = await sandboxFor({ config: { registrationDelay: 0 } });
    const token = await sandbox.token();
    const id = await createShipment(sandbox, token, START);
    await sandbox.advanceClock(0);
    expect(await statusCode(sandbox, token, id)).toBe('shipment-registered');
  });

  it('sends the admin token to the control endpoints when one is configured', async () => {
    const sandbox = await sandboxFor({ config: { adminToken: 'let-me-in' } });
    expect((await sandbox.request('/_sandbox/clock')).status).toBe(401);
    expect(await sandbox.advanceClock(5)).toBe(START + 5);
    await sandbox.reset();
    expect(sandbox.now()).toBe(START);
  });

  it('controls its clock and data when the config names more hosts for the controls', async () => {
    const sandbox = await sandboxFor({ config: { allowedHosts: 'sandbox' } });
    // Before, the hosts given took the place of the default URL's: 421 for the sandbox's own calls.
    expect(await sandbox.advanceClock(5)).toBe(START + 5);
    await sandbox.reset();
    expect(sandbox.now()).toBe(START);
    expect((await sandbox.fetch('http://sandbox/_sandbox/clock')).status).toBe(200);
    expect((await sandbox.fetch('http://elsewhere.example/_sandbox/clock')).status).toBe(421);
    await expect(createSandbox({ config: { allowedHosts: 'bad host' } })).rejects.toThrow(/^createSandbox: config\.allowedHosts .*'bad host'/);
  });

  it('reset restores the seeded data and the start time; tokens stay valid', async () => {
    const sandbox = await sandboxFor();
    const token = await sandbox.token();
    const id = await createShipment(sandbox, token, null);
    await sandbox.advanceClock(3600);
    await sandbox.reset();
    expect(sandbox.now()).toBe(START);
    expect((await sandbox.request(`/shipments/${id}`, auth(token))).status).toBe(404);
    const list = await json(await sandbox.request('/shipments', auth(token)));
    expect(list.meta!.total_records).toBe(0);
  });

  it('keeps sandboxes apart: data, clocks and signing keys', async () => {
    const [a, b] = await Promise.all([sandboxFor(), sandboxFor()]);
    const tokenA = await a.token();
    const id = await createShipment(a, tokenA, null);
    await a.advanceClock(600);
    expect(b.now()).toBe(START);
    const tokenB = await b.token();
    expect((await b.request(`/shipments/${id}`, auth(tokenB))).status).toBe(404);
    expect((await json(await b.request('/shipments', auth(tokenB)))).meta!.total_records).toBe(0);
    expect((await b.request('/shops', auth(tokenA))).status).toBe(401);
  });

  it('gives the same ids for the same seed, and other ids for another seed', async () => {
    const [one, again, seven] = await Promise.all([sandboxFor({ seed: 1 }), sandboxFor({ seed: 1 }), sandboxFor({ seed: 7 })]);
    expect(await ids(one, '/carriers')).toEqual(await ids(again, '/carriers'));
    expect(await ids(one, '/shops')).toEqual(await ids(again, '/shops'));
    expect(await ids(seven, '/carriers')).not.toEqual(await ids(one, '/carriers'));
    const created = await Promise.all([one, again].map(async (sandbox) => createShipment(sandbox, await sandbox.token(), null)));
    expect(created[0]).toBe(created[1]);
  });

  it('ends a webhook delivery that is out when closed: its connection and its deadline go at once, so the test runner can exit', async () => {
    // The receiver takes the delivery and never answers; `arrived` resolves with its request.
    let arrive!: (request: IncomingMessage) => void;
    const arrived = new Promise<IncomingMessage>((resolve) => (arrive = resolve));
    const receiver = createServer((request) => arrive(request));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      // Faked from before the delivery starts, so its 10 s deadline is a timer the test can count
      // (and one that never fires by itself).
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const sandbox = await sandboxFor();
      const token = await sandbox.token();
      const organization = (await json(await sandbox.request('/organizations', auth(token)))).data[0] as JsonApiResource;
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const hook = {
        data: {
          type: 'hooks',
          attributes: {
            name: 'Notify',
            order: 1,
            active: true,
            trigger: { resource_type: 'shipments', resource_action: 'create' },
            action: { action_type: 'send-resource', values: [{ url }] },
          },
          relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
        },
      };
      expect((await sandbox.request('/hooks', { method: 'POST', body: JSON.stringify(hook), ...auth(token) })).status).toBe(201);
      await createShipment(sandbox, token, null);
      // Moving the clock sends the delivery and waits for it: the sandbox closes under it.
      const advancing = sandbox.advanceClock(0).catch((error: unknown) => error);
      const request = await arrived;
      const cut = new Promise<void>((resolve) => request.socket.once('close', () => resolve()));
      await sandbox.close();
      // Before, the delivery went on for its 10 s: its deadline stayed set and its connection open.
      expect(vi.getTimerCount()).toBe(0);
      await cut;
      expect(String(await advancing)).toMatch(/503/);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('refuses requests once closed', async () => {
    const sandbox = await createSandbox({ now: START });
    await sandbox.close();
    await sandbox.close();
    await expect(sandbox.request('/health')).rejects.toThrow(/closed/);
  });
});
