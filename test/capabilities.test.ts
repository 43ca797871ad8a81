/**
 * What opens a public page (the payment page, a shop's return portal, a tracking page, a logo)
 * without an access token is a capability: random (a logo id, a payment id) or a row id signed
 * with a secret of the data file's key file, never something the seed, a counter or a key written
 * in the code gives away (issue 25). Ids that need a token stay what the seed makes them.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeys, type Keys } from '../src/auth/keys.js';
import { deterministicUuid } from '../src/ids.js';
import { keyFileFor, loadOrCreateKeys } from '../src/keys-file.js';
import { filePersistence } from '../src/store/persistence.js';
import type { Persistence } from '../src/store/persistence.js';
import { BASE, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { tinyPng } from './support/images.js';
import { world } from './support/shipments.js';
import { publicPages } from './support/public-pages.js';

const SEED = 3;

/** What one tenant of a sandbox leaves on public pages, and the ids that need a token. */
interface Traces {
  sandbox: TestSandbox;
  token: string;
  shopId: string;
  shipmentId: string;
  returnId: string;
  paymentId: string;
  trackingCode: string;
  /** Paths of the public pages, as the API hands them out. */
  portal: string;
  tracking: string;
  logo: string;
  /** The payment page the signed checkout URL leads to. */
  payment: string;
}

const pathOf = (url: string) => new URL(url).pathname;

/** Builds a sandbox of seed 3 and leaves a logo, a registered shipment and an open payment in it. */
async function traces(options: { keys?: Keys; persistence?: Persistence } = {}): Promise<Traces> {
  const sandbox = await testSandbox({ seed: SEED, ...options });
  const w = await world(sandbox);
  const shop = w.shopIn('NL');
  const logo = await sandbox.request('PATCH', `/shops/${shop.id}`, {
    token: w.token,
    body: {
      data: {
        type: 'shops',
        id: shop.id,
        attributes: {},
        relationships: { organization: { data: shop.relationships.organization.data } },
        meta: { logo: { mime_type: 'image/png', contents: tinyPng().toString('base64') } },
      },
    },
  });
  expect(logo.status, logo.text).toBe(200);
  const made = await publicPages(sandbox, w, shop);
  return {
    sandbox,
    token: made.returnsToken,
    shopId: shop.id,
    shipmentId: made.registered.id,
    returnId: made.returnId,
    // The payment is named in its checkout URL: /returns/v1/returns/{return_id}/payment-checkout-url/{payment_id}.
    paymentId: made.checkout.pathname.split('/').at(-1)!,
    trackingCode: made.registered.attributes.tracking_code,
    portal: made.portal,
    tracking: made.tracking,
    logo: pathOf(made.shop.attributes.logo_url),
    payment: made.payment,
  };
}

const open = (sandbox: TestSandbox, path: string, init?: RequestInit) => sandbox.app.request(BASE + path, init);
const pages = (t: Traces) => [t.portal, t.tracking, t.logo, t.payment];
/** Presses a button of the payment page, as the consumer's browser would. */
const press = (sandbox: TestSandbox, path: string, outcome: string) =>
  open(sandbox, path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `outcome=${outcome}` });
const paymentState = async (t: Traces) => (await t.sandbox.get(`/returns/v1/returns/${t.returnId}?include=status`, t.token)).body;

describe('public pages open with capabilities of this sandbox only', () => {
  it('gives two sandboxes of the same seed the same ids behind a token, and other capabilities', async () => {
    const a = await traces({ keys: await generateKeys() });
    const b = await traces({ keys: await generateKeys() });
    // The authenticated API stays what the seed makes it ...
    expect([b.shopId, b.shipmentId, b.returnId]).toEqual([a.shopId, a.shipmentId, a.returnId]);
    // ... the public pages do not, and each opens only in its own sandbox.
    for (const [mine, theirs] of pages(a).map((path, index) => [path, pages(b)[index]!] as const)) {
      expect(theirs).not.toBe(mine);
      expect((await open(a.sandbox, mine)).status, mine).toBe(200);
      expect((await open(a.sandbox, theirs)).status, theirs).toBe(404);
    }
  });

  it('draws logo and payment ids at random: the same seed and key file give other ones', async () => {
    const keys = await generateKeys();
    const [a, b] = [await traces({ keys }), await traces({ keys })];
    expect(b.shopId).toBe(a.shopId);
    expect(b.logo).not.toBe(a.logo);
    expect(b.paymentId).not.toBe(a.paymentId);
    const fromSeed = new Set(Array.from({ length: 2000 }, (_, counter) => deterministicUuid(`parcel-sandbox:${SEED}`, counter)));
    expect(fromSeed.has(a.returnId)).toBe(true);
    expect(fromSeed.has(a.paymentId)).toBe(false);
  });

  it('refuses what the seed, the shop id, the tracking code or the key in the code would give, as if nothing were there (404)', async () => {
    const t = await traces({ keys: await generateKeys() });
    const publicKeySigned = `${t.paymentId}.${createHmac('sha256', 'parcel-sandbox-returns').update(`payment-page:${t.paymentId}`).digest('hex')}`;
    const guesses = [`/return-portal/${t.shopId}`, `/tracking/${encodeURIComponent(t.trackingCode)}`, `/return-portal/checkout/${publicKeySigned}`];
    for (const guess of guesses) {
      const answer = await open(t.sandbox, guess);
      expect(answer.status, guess).toBe(404);
      expect(((await answer.json()) as Json).errors[0].code, guess).toBe('10002');
    }
    const settled = await press(t.sandbox, `/return-portal/checkout/${publicKeySigned}`, 'paid');
    expect(settled.status).toBe(404);
    const doc = await paymentState(t);
    expect(doc.data.attributes.payment.paid_at).toBeUndefined();
    expect(doc.included.find((row: Json) => row.type === 'statuses').attributes.code).toBe('return-payment-pending');
  });

  it("does not let someone who knows the seed find another tenant's payment page and settle it", async () => {
    const t = await traces({ keys: await generateKeys() });
    const counter = t.sandbox.store.get('settings', 'id_counter')!.value as number;
    const publicKey = (id: string) => createHmac('sha256', 'parcel-sandbox-returns').update(`payment-page:${id}`).digest('hex');
    let opened = 0;
    // Every id the seed hands out up to now, signed the way the code's key would sign it, without a token.
    for (let n = 0; n < counter; n += 1) {
      const id = deterministicUuid(`parcel-sandbox:${SEED}`, n);
      if ((await press(t.sandbox, `/return-portal/checkout/${id}.${publicKey(id)}`, 'failed')).status !== 404) opened += 1;
    }
    expect(counter).toBeGreaterThan(0);
    expect(opened).toBe(0);
    expect((await paymentState(t)).data.attributes.payment.failures).toBeUndefined();
  });

  it('refuses a changed signature with the answer a missing page gets, and settles nothing', async () => {
    const t = await traces({ keys: await generateKeys() });
    const tamper = (path: string) => path.slice(0, -1) + (path.endsWith('A') ? 'B' : 'A');
    for (const path of [t.portal, t.tracking, t.payment]) {
      const changed = await open(t.sandbox, tamper(path));
      expect(changed.status, path).toBe(404);
      // A signature of no row at all reads the same: the answer does not tell that the row exists.
      const nothing = await open(t.sandbox, path.replace(/[0-9a-f-]{36}\./, '00000000-0000-4000-8000-000000000000.'));
      expect(nothing.status, path).toBe(404);
      expect(await changed.json()).toEqual(await nothing.json());
      // Appending to the signature is a change too.
      expect((await open(t.sandbox, `${path}A`)).status, path).toBe(404);
    }
    expect((await press(t.sandbox, tamper(t.payment), 'failed')).status).toBe(404);
    expect((await paymentState(t)).data.attributes.payment.failures).toBeUndefined();
    // A capability is for one page: the shop's portal token does not open a tracking page.
    expect((await open(t.sandbox, t.portal.replace('/return-portal/', '/tracking/'))).status).toBe(404);
    // The real one still works.
    expect((await press(t.sandbox, t.payment, 'paid')).status).toBe(200);
    expect((await paymentState(t)).data.attributes.payment.paid_at).toEqual(expect.any(Number));
  });
});

describe('capabilities across a restart', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keep opening their pages when the same data file and key file are opened again', async () => {
    dir = await mkdtemp(join(tmpdir(), 'parcel-capabilities-'));
    const file = join(dir, 'sandbox.json');
    const before = await traces({ persistence: filePersistence(file), keys: await loadOrCreateKeys(keyFileFor(file)) });
    await before.sandbox.store.close();
    const after = await testSandbox({ seed: SEED, persistence: filePersistence(file), keys: await loadOrCreateKeys(keyFileFor(file)) });
    const token = await after.token();
    for (const path of pages(before)) expect((await open(after, path)).status, path).toBe(200);
    // The API hands out the same URLs as before the restart.
    const shop = (await after.get(`/shops/${before.shopId}`, token)).body.data.attributes;
    expect([pathOf(shop.return_portal_url), pathOf(shop.logo_url)]).toEqual([before.portal, before.logo]);
    const shipment = (await after.get(`/shipments/${before.shipmentId}`, token)).body.data.attributes;
    expect(pathOf(shipment.tracking_page_url)).toBe(before.tracking);
    expect((await press(after, before.payment, 'paid')).status).toBe(200);
    await after.store.close();
  });
});
