import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { BASE, firstError, testSandbox, type Json, type TestSandbox } from '../support/app.js';
import { demoOrder, returnBody, returnsWorld, type ReturnsWorld } from './support.js';

let sandbox: TestSandbox;
let w: ReturnsWorld;
let shop: Json;
let order: Json;
let postnl: Json;

beforeEach(async () => {
  sandbox = await testSandbox();
  w = await returnsWorld(sandbox);
  shop = w.shopIn('NL');
  order = (await w.orders(shop.id))[1];
  postnl = await w.method(shop.id, 'Return label (PostNL)');
});

const items = () => [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'changed-mind' } }];
const newReturn = async () =>
  (await sandbox.request('POST', '/returns/v1/returns', { token: w.token, body: returnBody({ shop, order, method: postnl, items: items() }) })).body.data;
const read = async (id: string) => (await sandbox.get(`/returns/v1/returns/${id}?include=status`, w.token)).body;
const statusOf = (doc: Json) => doc.included.find((r: Json) => r.type === 'statuses').attributes.code;
const sign = (message: string) => createHmac('sha256', 'parcel-sandbox-returns').update(message).digest('hex');

/** Follows the checkout URL to the payment page and presses a button there, as a consumer would. */
async function checkout(url: string, outcome: string): Promise<Response> {
  const path = new URL(url).pathname + new URL(url).search;
  const redirect = await sandbox.request('GET', path, { token: w.token });
  expect(redirect.status).toBe(302);
  const page = new URL(redirect.headers.get('location')!).pathname;
  const html = await sandbox.app.request(BASE + page);
  expect(await html.text()).toContain('Pay');
  return sandbox.app.request(BASE + page, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `outcome=${outcome}` });
}

describe('payments', () => {
  it("refuses a currency production's Price does not know, which the return would then be answered with", async () => {
    const created = await newReturn();
    const ask = await sandbox.request('POST', `/returns/v1/returns/${created.id}/request-payment`, {
      token: w.token,
      body: { data: { return_payment: { amount: 100, currency: 'XYZ' } } },
    });
    expect([ask.status, firstError(ask)?.source]).toEqual([400, { pointer: '/data/return_payment/currency' }]);
    expect(statusOf(await read(created.id))).toBe('return-pending');
  });

  it('asks the consumer to pay; paid on the payment page, the return is approved and gets its shipment', async () => {
    const created = await newReturn();
    const ask = await sandbox.request('POST', `/returns/v1/returns/${created.id}/request-payment`, {
      token: w.token,
      body: { data: { return_payment: { amount: 495, currency: 'EUR' } } },
    });
    expect(ask.status).toBe(204);
    let doc = await read(created.id);
    expect(statusOf(doc)).toBe('return-payment-pending');
    const payment = doc.data.attributes.payment;
    expect(payment).toMatchObject({ amount: 495, currency: 'EUR', checkout_url: expect.stringContaining('/payment-checkout-url/') });
    const paid = await checkout(payment.checkout_url, 'paid');
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('Paid.');
    doc = await read(created.id);
    expect(statusOf(doc)).toBe('return-approved');
    expect(doc.data.attributes.payment).toMatchObject({ paid_at: expect.any(Number), external_payment_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(doc.data.relationships.shipment).toBeDefined();
    const again = await sandbox.request('GET', new URL(payment.checkout_url).pathname + new URL(payment.checkout_url).search, { token: w.token });
    expect(again.status).toBe(422);
  });

  it('rejects a tampered checkout signature; a cancelled payment fails the return, and an unpaid one expires', async () => {
    const created = await newReturn();
    await sandbox.request('POST', `/returns/v1/returns/${created.id}/request-payment`, {
      token: w.token,
      body: { data: { return_payment: { amount: 495, currency: 'EUR' } } },
    });
    const url = new URL((await read(created.id)).data.attributes.payment.checkout_url);
    const tampered = await sandbox.request('GET', `${url.pathname}?hmac=${'0'.repeat(64)}`, { token: w.token });
    expect(tampered.status).toBe(403);
    expect(firstError(tampered).source.parameter).toBe('hmac');
    const cancelled = await checkout(url.toString(), 'cancelled');
    expect(cancelled.status).toBe(200);
    let doc = await read(created.id);
    expect(statusOf(doc)).toBe('return-payment-failed');
    expect(doc.data.attributes.payment.failures).toEqual([{ code: 'cancelled', description: expect.any(String), created_at: expect.any(Number) }]);

    await sandbox.request('POST', `/returns/v1/returns/${created.id}/request-payment`, {
      token: w.token,
      body: { data: { return_payment: { amount: 295, currency: 'EUR' } } },
    });
    await sandbox.advance(24 * 3600 + 1);
    w.token = await sandbox.token();
    doc = await read(created.id);
    expect(statusOf(doc)).toBe('return-payment-failed');
    expect(doc.data.attributes.payment.failures[0].code).toBe('expired');
  });
});

describe('recovery shipments', () => {
  it('need a link signed for the return and a method with a recovery service', async () => {
    const created = await newReturn();
    await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token });
    const path = `/returns/v1/returns/${created.id}/request-recovery-shipment`;
    expect((await sandbox.request('POST', `${path}?hmac=${sign('recovery-shipment:someone-else')}`, { token: w.token })).status).toBe(403);
    const noRecovery = await sandbox.request('POST', `${path}?hmac=${sign(`recovery-shipment:${created.id}`)}`, { token: w.token });
    expect(noRecovery.status).toBe(422);
    await sandbox.request('PATCH', `/returns/v1/return-methods/${postnl.id}`, {
      token: w.token,
      body: {
        data: {
          type: 'return-methods',
          id: postnl.id,
          relationships: { recovery_service: postnl.relationships.service, recovery_contract: postnl.relationships.contract },
        },
      },
    });
    const before = (await read(created.id)).data.relationships.shipment.data.id;
    expect((await sandbox.request('POST', `${path}?hmac=${sign(`recovery-shipment:${created.id}`)}`, { token: w.token })).status).toBe(204);
    const after = (await read(created.id)).data;
    expect(after.relationships.shipment.data.id).not.toBe(before);
    expect(after.attributes.shipment_registrations.map((r: Json) => r.invocation)).toEqual(['automatic', 'manual']);
  });
});

describe('hooks on returns', () => {
  const hook = (name: string, action: Json, predicates: Json[] = [], order = 1) =>
    sandbox.request('POST', '/hooks', {
      token: w.token,
      body: {
        data: {
          type: 'hooks',
          attributes: { name, order, active: true, trigger: { resource_type: 'returns', resource_action: 'create', predicates }, action },
          relationships: { owner: { data: { type: 'shops', id: shop.id } } },
        },
      },
    });

  it('approve, reject or pass the deadline of new returns, as their predicates say', async () => {
    order = await demoOrder(sandbox, w.token, shop);
    expect(
      (
        await hook(
          'too late',
          { action_type: 'set-return-deadline-passed' },
          [{ pointer: '/meta/order_created_at', operator: 'older_than', value: '30 days' }],
          1,
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await hook(
          'approve changed minds',
          { action_type: 'approve-return' },
          [{ pointer: '/attributes/items/0/reason/code', operator: '==', value: 'changed-mind' }],
          2,
        )
      ).status,
    ).toBe(201);
    expect((await hook('reject the rest', { action_type: 'reject-return', values: [{ message: 'Please contact us.' }] }, [], 3)).status).toBe(201);
    const approved = await newReturn();
    let doc = await read(approved.id);
    expect(statusOf(doc)).toBe('return-approved');
    expect(doc.data.relationships.shipment).toBeDefined();

    const rejected = await sandbox.request('POST', '/returns/v1/returns', {
      token: w.token,
      body: returnBody({ shop, order, method: postnl, items: [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'wrong-item' } }] }),
    });
    expect(rejected.status, rejected.text).toBe(201);
    doc = await read(rejected.body.data.id);
    expect(statusOf(doc)).toBe('return-rejected');
    expect(doc.data.attributes.rejection_message).toBe('Please contact us.');

    await sandbox.advance(31 * 86400);
    w.token = await sandbox.token();
    const late = await sandbox.request('POST', '/returns/v1/returns', {
      token: w.token,
      body: returnBody({ shop, order, method: postnl, items: [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'wrong-item' } }] }),
    });
    expect(statusOf(await read(late.body.data.id))).toBe('return-deadline-passed');
    const hooks = (await sandbox.get('/hooks', w.token)).body.data;
    const rejectHook = hooks.find((h: Json) => h.attributes.name === 'reject the rest');
    const logs = (await sandbox.get(`/hooks/${rejectHook.id}/logs`, w.token)).body.data;
    // Newest first: the late return was decided already, so the reject hook could not act on it.
    expect(logs[0].attributes.errors[0]).toContain('return-deadline-passed');
    expect(logs[1].attributes.resource_diff).toEqual({ status: { from: 'return-pending', to: 'return-rejected' } });
    expect(logs[1].relationships.resource.data).toEqual({ type: 'returns', id: rejected.body.data.id });
  });

  it('read the return as GET answers it: its outcome flags, reason texts and meta', async () => {
    // Each predicate names what GET /returns/v1/returns/{id} answers for a refund (predicate
    // values are never booleans: "true" matches a true attribute).
    const predicates = [
      { pointer: '/attributes/has_preferred_outcome_refund', operator: '==', value: 'true' },
      { pointer: '/attributes/has_preferred_outcome_exchange', operator: '==', value: 'false' },
      { pointer: '/meta/package_type', operator: '==', value: 'parcel' },
    ];
    expect((await hook('approve refunds', { action_type: 'approve-return' }, predicates)).status).toBe(201);
    const created = await newReturn();
    const doc = await read(created.id);
    expect(doc.data.attributes).toMatchObject({ has_preferred_outcome_refund: true, has_preferred_outcome_exchange: false });
    expect(doc.data.meta.package_type).toBe('parcel');
    expect(statusOf(doc)).toBe('return-approved');
  });

  it('compare a reason text in the return language, as the return answers it', async () => {
    order = await demoOrder(sandbox, w.token, shop);
    const created = await newReturn();
    const description = (await read(created.id)).data.attributes.items[0].reason.description;
    expect(typeof description).toBe('string');
    const predicates = [{ pointer: '/attributes/items/0/reason/description', operator: '==', value: description }];
    expect((await hook('approve by text', { action_type: 'approve-return' }, predicates)).status).toBe(201);
    const second = await newReturn();
    expect(statusOf(await read(second.id))).toBe('return-approved');
  });

  it('sends the return as its creation left it, decided by a hook that ran after the webhook hook', async () => {
    expect(
      (await hook('tell my system', { action_type: 'send-resource', values: [{ url: 'https://example.com/returns', includes: ['status'] }] }, [], 1)).status,
    ).toBe(201);
    expect((await hook('approve', { action_type: 'approve-return' }, [], 2)).status).toBe(201);
    const created = await newReturn();
    expect(statusOf(await read(created.id))).toBe('return-approved');
    const delivery = sandbox.store.all('jobs').find((job) => job.kind === 'deliver-webhook');
    const sent = JSON.parse((delivery!.payload as Json).body as string);
    expect(statusOf(sent)).toBe('return-approved');
    expect(sent.data.relationships.shipment.data).toMatchObject({ type: 'shipments' });
  });

  it('refuses return actions on other triggers and meta pointers outside returns', async () => {
    const wrong = await sandbox.request('POST', '/hooks', {
      token: w.token,
      body: {
        data: {
          type: 'hooks',
          attributes: {
            name: 'x',
            order: 1,
            active: true,
            trigger: { resource_type: 'shipments', resource_action: 'create' },
            action: { action_type: 'approve-return' },
          },
          relationships: { owner: { data: { type: 'shops', id: shop.id } } },
        },
      },
    });
    expect(wrong.status).toBe(422);
    expect(firstError(wrong).source.pointer).toBe('/data/attributes/action/action_type');
    const webhook = await hook('tell my system', {
      action_type: 'send-resource',
      values: [{ url: 'https://example.com/returns', includes: ['status', 'items'] }],
    });
    expect(webhook.status).toBe(422);
    expect(firstError(webhook).source.pointer).toBe('/data/attributes/action/values/0/includes/1');
    expect(
      (await hook('tell my system', { action_type: 'send-resource', values: [{ url: 'https://example.com/returns', includes: ['status', 'shipment'] }] }))
        .status,
    ).toBe(201);
    const payment = await hook('charge', { action_type: 'request-payment', values: [{ price: { amount: 350, currency: 'EUR' } }] });
    expect(payment.status).toBe(201);
    const created = await newReturn();
    expect(statusOf(await read(created.id))).toBe('return-payment-pending');
    // The webhook waits on the sandbox clock with the return's document (and its includes) as its body.
    const delivery = sandbox.store.all('jobs').find((job) => job.kind === 'deliver-webhook');
    expect(JSON.parse((delivery!.payload as Json).body as string)).toMatchObject({
      data: { type: 'returns', id: created.id },
      included: [{ type: 'statuses' }],
    });
  });
});
