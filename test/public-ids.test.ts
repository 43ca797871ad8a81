/**
 * Ids that reach pages anyone may open without a token (logo URLs, tracking pages) are not
 * derivable from the seed (issue 14, finding 4): logo ids are random, tracking codes follow from a
 * secret of the data file, and the tracking page opens with a capability (test/capabilities.test.ts).
 * Other ids stay deterministic (same seed, same data file, same ids). `--random-ids` (on in
 * shared mode) makes every id random.
 */
import { describe, expect, it } from 'vitest';
import { generateKeys, type Keys } from '../src/auth/keys.js';
import type { Config } from '../src/config.js';
import { deterministicUuid } from '../src/ids.js';
import { BASE, testSandbox, TEST_NOW, type Json } from './support/app.js';
import { tinyPng } from './support/images.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/** What a tenant leaves on public pages: a logo URL and a tracking code, and a private shipment id. */
async function publicTraces(options: { keys?: Keys; config?: Partial<Config> } = {}) {
  const sandbox = await testSandbox({ seed: 3, ...options });
  const w = await world(sandbox);
  const organization = (await sandbox.get('/organizations', w.token)).body.data[0].id;
  const shop = await sandbox.request('POST', '/shops', {
    token: w.token,
    body: {
      data: {
        type: 'shops',
        attributes: {
          name: 'Logo shop',
          sender_address: { street_1: 'Damrak', city: 'Amsterdam', country_code: 'NL' },
          return_address: { street_1: 'Damrak', city: 'Amsterdam', country_code: 'NL' },
        },
        relationships: { organization: { data: { type: 'organizations', id: organization } } },
        meta: { logo: { mime_type: 'image/png', contents: tinyPng().toString('base64') } },
      },
    },
  });
  expect(shop.status, shop.text).toBe(201);
  const service = w.service('postnl-parcel-standard', 'NL');
  const shipment = await createShipment(
    sandbox,
    w.token,
    shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { register_at: TEST_NOW } }),
  );
  const moved = await sandbox.request('POST', '/_sandbox/clock', {
    body: { advance: 10 },
    ...(options.config?.adminToken ? { token: options.config.adminToken } : {}),
  });
  expect(moved.status).toBe(200);
  const registered = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data;
  expect(registered.attributes.tracking_code).toBeDefined();
  return {
    sandbox,
    logoUrl: new URL(shop.body.data.attributes.logo_url as string),
    logoId: (shop.body.data.attributes.logo_url as string).split('/').at(-1)!,
    shopId: shop.body.data.id as string,
    shipmentId: shipment.id as string,
    trackingCode: registered.attributes.tracking_code as string,
    trackingUrl: new URL(registered.attributes.tracking_page_url as string),
  };
}

describe('ids on public pages', () => {
  it('are not derivable from the seed: another data file with the same seed has other logo ids and tracking codes', async () => {
    const [keysA, keysB] = [await generateKeys(), await generateKeys()];
    const a = await publicTraces({ keys: keysA });
    const b = await publicTraces({ keys: keysB });
    // Ids that need a token stay what the seed makes them ...
    expect(b.shopId).toBe(a.shopId);
    expect(b.shipmentId).toBe(a.shipmentId);
    // ... the public ones do not.
    expect(b.logoId).not.toBe(a.logoId);
    expect(b.trackingCode).not.toBe(a.trackingCode);
    // None of the ids the seed gives for the first thousand counters is the logo's.
    const derivable = new Set(Array.from({ length: 1000 }, (_, counter) => deterministicUuid('parcel-sandbox:3', counter)));
    expect(derivable.has(a.shopId)).toBe(true);
    expect(derivable.has(a.logoId)).toBe(false);
    // Both pages work without a token, and the other data file's open nothing.
    expect((await a.sandbox.app.request(BASE + a.logoUrl.pathname)).status).toBe(200);
    expect((await a.sandbox.app.request(BASE + a.trackingUrl.pathname)).status).toBe(200);
    expect((await a.sandbox.app.request(`${BASE}/logos/${b.logoId}`)).status).toBe(404);
    expect((await a.sandbox.app.request(BASE + b.trackingUrl.pathname)).status).toBe(404);
  });

  it('keep tracking codes and private ids for the same data file and requests, and draw logo ids at random', async () => {
    const keys = await generateKeys();
    const [a, b] = [await publicTraces({ keys }), await publicTraces({ keys })];
    expect([b.trackingCode, b.shipmentId]).toEqual([a.trackingCode, a.shipmentId]);
    expect(b.logoId).not.toBe(a.logoId);
  });
});

describe('--random-ids', () => {
  it('makes every id handed out random: the same seed and data file give other ids', async () => {
    const keys = await generateKeys();
    const [a, b] = [await publicTraces({ keys, config: { randomIds: true } }), await publicTraces({ keys, config: { randomIds: true } })];
    for (const key of ['shopId', 'shipmentId', 'logoId', 'trackingCode'] as const) expect(b[key], key).not.toBe(a[key]);
    const derivable = new Set(Array.from({ length: 1000 }, (_, counter) => deterministicUuid('parcel-sandbox:3', counter)));
    expect(derivable.has(a.shopId)).toBe(false);
    expect(a.shopId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('is on in shared mode', async () => {
    const keys = await generateKeys();
    const config = { shared: true, adminToken: 'shared-admin-token' };
    const [a, b] = [await publicTraces({ keys, config }), await publicTraces({ keys, config })];
    expect(b.shipmentId).not.toBe(a.shipmentId);
  });
});

export type { Json };
