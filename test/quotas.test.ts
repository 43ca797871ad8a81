import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/cli.js';
import { ConfigError, parseConfig } from '../src/config.js';
import { seededState, testSandbox, type Answer, type Json, type TestSandbox } from './support/app.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { openStore } from '../src/store/store.js';
import { hookBody } from './support/matrix.js';
import { createShipment, recipients, shipmentBody, world, type World } from './support/shipments.js';

/*
 * Stored-row quotas (shipments, hooks, files) and the /_sandbox/quotas control. The request rate
 * limit has its own file (rate-limit.test.ts).
 */

async function setup(config: Parameters<typeof testSandbox>[0] = {}) {
  const sandbox = await testSandbox(config);
  const w = await world(sandbox);
  return { sandbox, w };
}

/** Sets quotas through the control; without `admin` the sandbox has no admin token and no token acts globally. */
async function setQuotas(sandbox: TestSandbox, body: Json, admin?: string): Promise<Answer> {
  const answer = await sandbox.request('PATCH', '/_sandbox/quotas', { body, token: admin, headers: { 'content-type': 'application/json' } });
  if (answer.status !== 200) throw new Error(`quota change failed: ${answer.text}`);
  return answer;
}

/** The tenant's own view of its quotas. */
async function quotasOf(sandbox: TestSandbox, token: string): Promise<Json> {
  const answer = await sandbox.get('/_sandbox/quotas', token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** A domestic PostNL parcel with service and contract, ready to register. */
function ready(w: World, attributes: Json = {}) {
  const service = w.service('postnl-parcel-standard', 'NL');
  return shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.NL, service, contract: w.contractFor(service), attributes });
}

/** Everything a refused create could have left behind. */
function footprint(sandbox: TestSandbox) {
  const tables = ['shipments', 'shipmentStatuses', 'shipmentSurcharges', 'files', 'jobs', 'hooks', 'hookLogs', 'idempotencyKeys'] as const;
  return Object.fromEntries(tables.map((table) => [table, sandbox.store.count(table)]));
}

/** The 429 of a full stored-row quota: production's error shape, the numbers in detail and meta, and no Retry-After. */
function expectQuotaRefusal(answer: Answer, quota: string, limit: number, usage: number) {
  expect(answer.status, answer.text).toBe(429);
  expect(answer.headers.get('content-type')).toContain('application/vnd.api+json');
  const [error, ...more] = answer.body.errors;
  expect(more).toEqual([]);
  expect(error).toMatchObject({ status: '429', code: '10011', title: 'Too many requests.' });
  expect(error.detail).toContain(`${quota} quota`);
  expect(error.detail).toContain(String(limit));
  expect(error.detail).toContain(`${usage} are stored`);
  expect(error.meta).toMatchObject({ quota, limit, usage });
  // Waiting frees nothing: no Retry-After.
  expect(answer.headers.get('retry-after')).toBeNull();
}

describe('the shipments quota', () => {
  it('refuses the shipment one too many with 429 10011 and writes nothing; deleting one frees its room', async () => {
    const { sandbox, w } = await setup();
    const { organization_id, usage } = await quotasOf(sandbox, w.token);
    const limit = usage.shipments + 1;
    await setQuotas(sandbox, { organization_id, shipments: limit });

    const first = await createShipment(sandbox, w.token, ready(w));
    const before = footprint(sandbox);
    const refused = await sandbox.request('POST', '/shipments', { token: w.token, body: ready(w), headers: { 'idempotency-key': 'over-quota' } });
    expectQuotaRefusal(refused, 'shipments', limit, limit);
    expect(footprint(sandbox)).toEqual(before);
    // The rate-limit headers still say where the caller stands.
    expect(refused.headers.get('ratelimit-limit')).toBe('30000');

    // Registering in the request and multi-colli shipments are shipments too.
    expectQuotaRefusal(await sandbox.request('POST', '/registered-shipments', { token: w.token, body: ready(w) }), 'shipments', limit, limit);
    expect(footprint(sandbox)).toEqual(before);

    expect((await sandbox.request('DELETE', `/shipments/${first.id}`, { token: w.token })).status).toBe(204);
    // The refusal is not remembered under its Idempotency-Key: the same request now succeeds.
    const retried = await sandbox.request('POST', '/shipments', { token: w.token, body: ready(w), headers: { 'idempotency-key': 'over-quota' } });
    expect(retried.status, retried.text).toBe(201);
    expect((await quotasOf(sandbox, w.token)).usage.shipments).toBe(limit);
  });

  it('counts every shipment a multi-colli request makes before making any', async () => {
    const { sandbox, w } = await setup();
    const { organization_id, usage } = await quotasOf(sandbox, w.token);
    await setQuotas(sandbox, { organization_id, shipments: usage.shipments + 2 });
    const before = footprint(sandbox);
    const service = w.service('postnl-multi-colli', 'NL');
    const colli = [{ physical_properties: { weight: 1000 } }, { physical_properties: { weight: 2000 } }];
    const body = shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), meta: { colli } });
    delete body.data.attributes.physical_properties;
    const answer = await sandbox.request('POST', '/multi-colli-shipments', { token: w.token, body });
    expectQuotaRefusal(answer, 'shipments', usage.shipments + 2, usage.shipments);
    expect(answer.body.errors[0].meta.requested).toBe(3);
    expect(footprint(sandbox)).toEqual(before);
  });

  it("is one organization's: another tenant keeps creating", async () => {
    const { sandbox, w } = await setup();
    const other = await world(sandbox, 'other-client');
    const { organization_id, usage } = await quotasOf(sandbox, w.token);
    await setQuotas(sandbox, { organization_id, shipments: usage.shipments + 1 });
    await createShipment(sandbox, w.token, ready(w));
    expect((await sandbox.request('POST', '/shipments', { token: w.token, body: ready(w) })).status).toBe(429);
    const theirs = shipmentBody({ shop: other.shopIn('GB'), recipient: recipients.GB });
    expect((await sandbox.request('POST', '/shipments', { token: other.token, body: theirs })).status).toBe(201);
  });
});

describe('the hooks quota', () => {
  it('refuses the hook one too many and frees room when a hook is deleted', async () => {
    const { sandbox, w } = await setup();
    const { organization_id, usage } = await quotasOf(sandbox, w.token);
    await setQuotas(sandbox, { client_id: 'sandbox-client', hooks: usage.hooks + 1 });
    const owner = { type: 'organizations', id: organization_id };
    const created = await sandbox.request('POST', '/hooks', { token: w.token, body: hookBody(owner) });
    expect(created.status, created.text).toBe(201);
    const before = footprint(sandbox);
    expectQuotaRefusal(await sandbox.request('POST', '/hooks', { token: w.token, body: hookBody(owner) }), 'hooks', usage.hooks + 1, usage.hooks + 1);
    expect(footprint(sandbox)).toEqual(before);
    expect((await sandbox.request('DELETE', `/hooks/${created.body.data.id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.request('POST', '/hooks', { token: w.token, body: hookBody(owner) })).status).toBe(201);
  });
});

describe('the files quota', () => {
  it('refuses a registration in the request whose label would not fit, and fails a queued one with the 10011 error', async () => {
    const { sandbox, w } = await setup();
    const { organization_id, usage } = await quotasOf(sandbox, w.token);
    const limit = usage.files + 1;
    await setQuotas(sandbox, { organization_id, files: limit });

    const registered = await sandbox.request('POST', '/registered-shipments', { token: w.token, body: ready(w) });
    expect(registered.status, registered.text).toBe(201);
    expect((await quotasOf(sandbox, w.token)).usage.files).toBe(limit);

    const before = footprint(sandbox);
    expectQuotaRefusal(await sandbox.request('POST', '/registered-shipments', { token: w.token, body: ready(w) }), 'files', limit, limit);
    expect(footprint(sandbox)).toEqual(before);

    // A queued registration runs later, without a request to refuse: the shipment's registration fails.
    const queued = await createShipment(sandbox, w.token, ready(w, { register_at: sandbox.clock.now() }));
    await sandbox.advance(60);
    const status = await sandbox.get(`/shipments/${queued.id}?include=shipment_status.status`, w.token);
    const shipmentStatus = status.body.included.find((r: Json) => r.type === 'shipment-statuses');
    expect(status.body.included.find((r: Json) => r.type === 'statuses').attributes.code).toBe('shipment-registration-failed');
    expect(shipmentStatus.attributes.errors[0]).toMatchObject({ status: '429', code: '10011', title: 'Too many requests.', meta: { quota: 'files' } });
    expect(sandbox.store.find('files', 'shipment_id', queued.id)).toEqual([]);

    // Once there is room (here: a higher quota), the failed shipment registers when sent again.
    await setQuotas(sandbox, { organization_id, files: null });
    const again = await sandbox.request('PATCH', `/shipments/${queued.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: queued.id, attributes: { register_at: sandbox.clock.now() } } },
    });
    expect(again.status, again.text).toBe(200);
    await sandbox.advance(60);
    expect(sandbox.store.find('files', 'shipment_id', queued.id)).toHaveLength(1);
  });

  it('counts labels and customs documents of registered shipments; resetting the tenant frees them', async () => {
    const { sandbox, w } = await setup();
    const before = (await quotasOf(sandbox, w.token)).usage.files;
    const service = w.service('postnl-parcel-international', 'GB');
    const body = shipmentBody({
      shop: w.shopIn('NL'),
      recipient: recipients.GB,
      service,
      contract: w.contractFor(service),
      attributes: {
        description: 'Two books',
        items: [
          { description: 'Book', quantity: 2, item_value: { amount: 1250, currency: 'EUR' }, hs_code: '490199', origin_country_code: 'NL', item_weight: 300 },
        ],
        customs: { content_type: 'merchandise', invoice_number: 'INV-1', non_delivery: 'return', incoterm: 'DAP' },
      },
    });
    const answer = await sandbox.request('POST', '/registered-shipments', { token: w.token, body });
    expect(answer.status, answer.text).toBe(201);
    expect((await quotasOf(sandbox, w.token)).usage.files).toBe(before + 2);
    const reset = await sandbox.request('POST', '/_sandbox/reset', { token: w.token, body: {}, headers: { 'content-type': 'application/json' } });
    expect(reset.status, reset.text).toBe(200);
    expect((await quotasOf(sandbox, w.token)).usage.files).toBe(0);
  });
});

describe('/_sandbox/quotas', () => {
  it("gives a tenant its own limits, overrides and usage; another tenant's name is unknown (404)", async () => {
    const { sandbox, w } = await setup();
    const view = await quotasOf(sandbox, w.token);
    expect(view.limits).toEqual({ shipments: 100000, hooks: 1000, files: 200000, requests_per_minute: 30000 });
    expect(view.overrides).toEqual({});
    expect(view.usage.shipments).toBe(sandbox.store.countBy('shipments', 'organization_id', view.organization_id));
    // The request that asks is counted (the token request and this one).
    expect(view.usage.requests_per_minute).toBeGreaterThanOrEqual(2);
    expect((await sandbox.get('/_sandbox/quotas?client_id=limited-client', w.token)).body.organization_id).toBe(view.organization_id);
    const foreign = await sandbox.get('/_sandbox/quotas?client_id=other-client', w.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].source).toEqual({ parameter: 'client_id' });
    const unknown = await sandbox.get('/_sandbox/quotas?organization_id=nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].source).toEqual({ parameter: 'organization_id' });
  });

  it('lets the admin change the defaults and one tenant; null removes an override; the defaults view lists them', async () => {
    const admin = 'quota-admin';
    const { sandbox, w } = await setup({ config: { adminToken: admin, quotaHooks: 50 } });
    const other = await sandbox.token('other-client');
    const mine = (await quotasOf(sandbox, w.token)).organization_id;

    const defaults = await setQuotas(sandbox, { hooks: 40, requests_per_minute: 5000 }, admin);
    expect(defaults.body).toMatchObject({
      defaults: { hooks: 40, requests_per_minute: 5000, shipments: 100000 },
      configured: { hooks: 50, requests_per_minute: 30000 },
      overrides: { hooks: 40, requests_per_minute: 5000 },
      organizations: {},
    });
    const tenant = await setQuotas(sandbox, { client_id: 'sandbox-client', hooks: 7, shipments: 9 }, admin);
    expect(tenant.body).toMatchObject({
      organization_id: mine,
      limits: { hooks: 7, shipments: 9, requests_per_minute: 5000 },
      overrides: { hooks: 7, shipments: 9 },
    });
    expect((await quotasOf(sandbox, other)).limits).toMatchObject({ hooks: 40, shipments: 100000 });

    const removed = await setQuotas(sandbox, { organization_id: mine, hooks: null }, admin);
    expect(removed.body.overrides).toEqual({ shipments: 9 });
    expect(removed.body.limits.hooks).toBe(40);
    const listed = await sandbox.get('/_sandbox/quotas', admin);
    expect(listed.body.organizations).toEqual({ [mine]: { shipments: 9 } });
    expect((await sandbox.get(`/_sandbox/quotas?organization_id=${mine}`, admin)).body.limits.shipments).toBe(9);
  });

  it('refuses quotas of zero or less with 422 and a pointer to each, and other values the schema forbids with 400', async () => {
    const { sandbox } = await setup();
    const patch = (body: Json) => sandbox.request('PATCH', '/_sandbox/quotas', { body, headers: { 'content-type': 'application/json' } });
    const zero = await patch({ client_id: 'sandbox-client', shipments: 0, hooks: -3 });
    expect(zero.status).toBe(422);
    expect(zero.body.errors.map((e: Json) => [e.code, e.source.pointer])).toEqual([
      ['10008', '/shipments'],
      ['10008', '/hooks'],
    ]);
    const fraction = await patch({ files: 1.5 });
    expect(fraction.status).toBe(400);
    expect(fraction.body.errors[0].source.pointer).toBe('/files');
    const unknownClient = await patch({ client_id: 'nobody', files: 10 });
    expect(unknownClient.status).toBe(404);
    expect(unknownClient.body.errors[0].source.pointer).toBe('/client_id');
    const both = await patch({ client_id: 'sandbox-client', organization_id: 'x', files: 10 });
    expect(both.status).toBe(400);
    // Nothing was changed by the refusals.
    expect((await sandbox.get('/_sandbox/quotas')).body.overrides).toEqual({});
  });

  it("refuses a tenant's token that tries to change quotas (403), even its own", async () => {
    const { sandbox, w } = await setup({ config: { adminToken: 'quota-admin' } });
    const answer = await sandbox.request('PATCH', '/_sandbox/quotas', { token: w.token, body: { client_id: 'sandbox-client', shipments: 1000000 } });
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0]).toMatchObject({ code: '10013', source: { header: 'Authorization' } });
    expect((await quotasOf(sandbox, w.token)).limits.shipments).toBe(100000);
    // Without the admin token nobody may act globally.
    expect((await sandbox.request('PATCH', '/_sandbox/quotas', { body: { shipments: 5 } })).status).toBe(401);
  });

  it('keeps the overrides across a sandbox reset, with the data', async () => {
    const { sandbox, w } = await setup();
    await setQuotas(sandbox, { client_id: 'sandbox-client', hooks: 3 });
    await setQuotas(sandbox, { files: 12345 });
    const reset = await sandbox.request('POST', '/_sandbox/reset', { body: {}, headers: { 'content-type': 'application/json' } });
    expect(reset.status, reset.text).toBe(200);
    const token = await sandbox.token();
    expect((await quotasOf(sandbox, token)).limits).toMatchObject({ hooks: 3, files: 12345 });
    expect(w.token).toBeDefined();
  });

  it('forgets the overrides of a tenant that is removed', async () => {
    const { sandbox } = await setup();
    const json = { 'content-type': 'application/json' };
    const tenant = (await sandbox.request('POST', '/_sandbox/tenants', { body: {}, headers: json })).body;
    await setQuotas(sandbox, { organization_id: tenant.organization_id, hooks: 7 });
    const before = (await sandbox.get('/_sandbox/quotas')).body;
    expect(JSON.stringify(before)).toContain(tenant.organization_id);
    expect((await sandbox.request('DELETE', `/_sandbox/tenants/${tenant.organization_id}`, { headers: json })).status).toBe(200);
    expect(JSON.stringify(sandbox.store.get('settings', 'quotas'))).not.toContain(tenant.organization_id);
  });
});

describe('quota settings', () => {
  it('default to generous limits and take the environment and the command line', () => {
    expect(parseConfig({})).toMatchObject({ quotaShipments: 100000, quotaHooks: 1000, quotaFiles: 200000, rateLimit: 30000 });
    const config = parseConfig({ QUOTA_SHIPMENTS: '50', RATE_LIMIT: '120' }, { quotaHooks: '7', quotaFiles: '9' });
    expect(config).toMatchObject({ quotaShipments: 50, quotaHooks: 7, quotaFiles: 9, rateLimit: 120 });
    const cli = parseCli(['--rate-limit', '30', '--quota-shipments', '10'], {});
    expect(cli.action === 'serve' && cli.config).toMatchObject({ rateLimit: 30, quotaShipments: 10 });
  });

  // A whole number is shown as the number it was read as; anything else as the text it was.
  it.each([
    ['QUOTA_SHIPMENTS', '0', 'QUOTA_SHIPMENTS (--quota-shipments)', '0'],
    ['QUOTA_HOOKS', '-5', 'QUOTA_HOOKS (--quota-hooks)', '-5'],
    ['QUOTA_FILES', '1.5', 'QUOTA_FILES (--quota-files)', "'1.5'"],
    ['RATE_LIMIT', 'lots', 'RATE_LIMIT (--rate-limit)', "'lots'"],
    ['RATE_LIMIT', '99999999999999999999', 'RATE_LIMIT (--rate-limit)', "'99999999999999999999'"],
  ])('refuses %s=%s with a config error naming the setting', (env, value, name, shown) => {
    expect(() => parseConfig({ [env]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [env]: value })).toThrow(`${name} must be a whole number of at least 1, got ${shown}`);
  });

  it('refuses a bad value given on the command line too', () => {
    expect(() => parseCli(['--rate-limit=0'], {})).toThrow(/RATE_LIMIT \(--rate-limit\) must be a whole number of at least 1, got 0/);
  });
});

describe('files of older data files', () => {
  it('are counted for the organization of their shipment once loaded (they were written without organization_id)', async () => {
    const state = seededState();
    const organizationId = state.tables.organizations![0]!.id;
    const shipment = { id: 'legacy-shipment', organization_id: organizationId } as never;
    const file = (id: string) => ({ id, shipment_id: 'legacy-shipment', document_type: 'label', formats: [], created_at: 0 }) as never;
    state.tables.shipments = [shipment];
    state.tables.files = [file('legacy-1'), file('legacy-2')];
    const store = await openStore({ persistence: memoryPersistence(), seed: 1, initial: () => state });
    expect(store.countBy('files', 'organization_id', organizationId)).toBe(2);
    expect(store.get('files', 'legacy-1')!.organization_id).toBe(organizationId);
  });
});
