/**
 * Production's documented error answers, walked: every 4xx and 5xx that production's contract
 * (reference/production-contract.json) documents for an integrator-facing operation is either
 * provoked here, on the matrices' populated two-tenant world, and must get the same status, or
 * listed in CANNOT with why the sandbox cannot provoke it. Production documents no reasons with
 * its statuses; each provocation is the cause the sandbox's own rules give that status for, the
 * one production's docs name where they name one.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { integratorFacing } from '../scripts/coverage.js';
import { recoveryMessage } from '../src/domain/returns/recovery.js';
import { checkoutMessage } from '../src/domain/returns/payments.js';
import { sign } from '../src/domain/returns/signing.js';
import { firstError, testSandbox, type Answer, type Json, type TestSandbox } from './support/app.js';
import { gatedPersistence } from './support/gated.js';
import { endpoints, populate, validBody, type Populated } from './support/matrix.js';
import { demoOrderBody } from './support/matrix-returns.js';
import { recipients, shipmentBody, world } from './support/shipments.js';

const contract = JSON.parse(readFileSync(new URL('../reference/production-contract.json', import.meta.url), 'utf8')) as {
  operations: Record<string, { responses?: Record<string, unknown> }>;
};

/** `METHOD /path STATUS` for every error answer production documents on an integrator-facing operation. */
const documented = Object.entries(contract.operations)
  .filter(([key]) => integratorFacing(key))
  .flatMap(([key, operation]) =>
    Object.keys(operation.responses ?? {})
      .filter((status) => /^[45]/.test(status))
      .map((status) => `${key} ${status}`),
  );

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * Documented answers where the seed's spec records a conflict with production and wins: the
 * sandbox answers the seed's status (README, "Where the sandbox differs from production").
 */
const SEED_WINS: Record<string, number> = {
  // sandbox-behaviour.md: the same Idempotency-Key while the first request still runs is 409.
  'POST /shipments 423': 409,
};

/** The documented answers the sandbox cannot provoke, and why. */
const CANNOT: Record<string, string> = {
  'POST /returns/v1/returns/{return_id}/request-payment 403':
    'production does not say what it refuses here with 403; the sandbox lets every client with returns.manage ask any open return of its own for a payment',
  'POST /returns/v1/returns/{return_id}/request-payment 500': 'the sandbox answers no 500 to any request: a failure it can foresee is a 4xx',
  'GET /returns/v1/returns/{return_id}/payment-checkout-url/{payment_id}?hmac={hmac} 500':
    'the sandbox answers no 500 to any request: a failure it can foresee is a 4xx',
  'POST /returns/v1/returns/{return_id}/retry-shipment 500': 'the sandbox answers no 500 to any request: a failure it can foresee is a 4xx',
};

let p: Populated;
let gated: { sandbox: TestSandbox; token: string; w: Awaited<ReturnType<typeof world>>; gate: ReturnType<typeof gatedPersistence> };

beforeAll(async () => {
  p = await populate(await testSandbox());
  const gate = gatedPersistence();
  const sandbox = await testSandbox({ persistence: gate.persistence });
  const w = await world(sandbox);
  gated = { sandbox, token: w.token, w, gate };
});

/** Tenant A's request; `null` sends no token (the broker's, on this sandbox without an admin token). */
const send = (method: string, path: string, body?: Json, token: string | null = p.a.token) =>
  p.sandbox.request(method, path, { token: token ?? undefined, body });
const bodyOf = (operationId: string, params: Record<string, string> = {}) =>
  structuredClone(
    validBody(
      p.sandbox.store,
      endpoints().find((e) => e.operationId === operationId)!,
      p.a,
      params,
    )!,
  );
const shopA = () => p.a.world.shops.find((s: Json) => s.id === p.a.shopId);
const emailOf = (orderId: string) => p.sandbox.store.get('demoOrders', orderId)!.recipient_address.email;

/** A demo order of shop A, every item of it returned. */
async function fullyReturnedOrder(): Promise<Json> {
  const order = (await send('POST', '/returns/v1/demo-orders', demoOrderBody(shopA()))).body.data;
  const body = bodyOf('createReturn');
  body.data.attributes.order_reference = order.id;
  body.data.attributes.items = order.attributes.items.map((item: Json) => ({ id: item.id, quantity: item.quantity, reason: { code: 'changed-mind' } }));
  const made = await send('POST', '/returns/v1/returns', body);
  expect(made.status, made.text).toBe(201);
  return order;
}

/** A second request with the same Idempotency-Key while the first is held at the data file's write. */
async function whileRunning(path: string, body: Json): Promise<Answer> {
  const { sandbox, token, gate } = gated;
  gate.hold();
  const first = sandbox.request('POST', path, { token, body, headers: { 'idempotency-key': `running-${path}` } });
  await gate.reached();
  const second = await sandbox.request('POST', path, { token, body, headers: { 'idempotency-key': `running-${path}` } });
  gate.release();
  await first;
  return second;
}

/** How each documented answer is provoked here. */
const PROVOKE: Record<string, () => Promise<Answer>> = {
  'GET /carriers/{carrier_id}/pickup-dropoff-locations/{pudo_id} 404': () =>
    send('GET', `/carriers/${p.sandbox.store.all('carriers')[0]!.id}/pickup-dropoff-locations/NOWHERE-1`),
  'POST /contracts 422': () => {
    const body = bodyOf('createContract');
    body.data.relationships.carrier.data.id = UNKNOWN;
    return send('POST', '/contracts', body);
  },
  'PATCH /contracts/{contract_id} 422': () =>
    send('PATCH', `/contracts/${p.a.contractId}`, { data: { type: 'contracts', id: p.a.contractId, attributes: { status: 'pending' } } }),
  'POST /contracts/v1/templates 400': () => send('POST', '/contracts/v1/templates', { data: { type: 'contract-templates', attributes: {} } }, null),
  'POST /contracts/v1/templates 404': () => {
    const body = bodyOf('createContractTemplate');
    body.data.relationships.carrier.data.id = UNKNOWN;
    return send('POST', '/contracts/v1/templates', body, null);
  },
  'GET /contracts/v1/templates/{contract_template_id} 404': () => send('GET', `/contracts/v1/templates/${UNKNOWN}`),
  'DELETE /contracts/v1/templates/{contract_template_id} 404': () => send('DELETE', `/contracts/v1/templates/${UNKNOWN}`, undefined, null),
  'GET /orders/v1/orders/{reference} 404': () => send('GET', `/orders/v1/orders/999999?shop_id=${p.a.shopId}&email=nobody%40example.com`),
  'GET /orders/v1/orders/{reference} 409': async () => {
    const order = await fullyReturnedOrder();
    return send('GET', `/orders/v1/orders/${order.id}?shop_id=${p.a.shopId}&email=${encodeURIComponent(emailOf(order.id))}`);
  },
  'GET /returns/v1/demo-orders/{demo_order_id} 404': () => send('GET', '/returns/v1/demo-orders/999999'),
  'GET /returns/v1/returns/{return_id} 404': () => send('GET', `/returns/v1/returns/${UNKNOWN}`),
  'POST /returns/v1/returns/{return_id}/approve 404': () => send('POST', `/returns/v1/returns/${UNKNOWN}/approve`),
  'POST /returns/v1/returns/{return_id}/approve 422': () => send('POST', `/returns/v1/returns/${p.a.returns.approvedId}/approve`),
  'GET /returns/v1/returns/{return_id}/files 404': () => send('GET', `/returns/v1/returns/${UNKNOWN}/files`),
  'POST /returns/v1/returns/{return_id}/tag 404': () => send('POST', `/returns/v1/returns/${UNKNOWN}/tag`, { data: { return_tag_ids: [] } }),
  'POST /returns/v1/returns/{return_id}/tag 422': () => send('POST', `/returns/v1/returns/${p.a.returns.approvedId}/tag`, { data: { return_tag_ids: [] } }),
  'POST /returns/v1/returns/{return_id}/reject 404': () => send('POST', `/returns/v1/returns/${UNKNOWN}/reject`, { data: { message: 'No.' } }),
  'POST /returns/v1/returns/{return_id}/reject 422': () => send('POST', `/returns/v1/returns/${p.a.returns.approvedId}/reject`, { data: { message: 'No.' } }),
  'POST /returns/v1/returns/{return_id}/request-payment 422': () =>
    send('POST', `/returns/v1/returns/${p.a.returns.approvedId}/request-payment`, { data: { return_payment: { amount: 100, currency: 'EUR' } } }),
  'POST /returns/v1/returns/{return_id}/request-recovery-shipment 403': () =>
    send('POST', `/returns/v1/returns/${p.a.returns.approvedId}/request-recovery-shipment?hmac=${sign(recoveryMessage(p.a.returns.pendingId))}`),
  'POST /returns/v1/returns/{return_id}/request-recovery-shipment 404': () =>
    send('POST', `/returns/v1/returns/${UNKNOWN}/request-recovery-shipment?hmac=${sign(recoveryMessage(UNKNOWN))}`),
  'POST /returns/v1/returns/{return_id}/request-recovery-shipment 422': () =>
    send('POST', `/returns/v1/returns/${p.a.returns.pendingId}/request-recovery-shipment?hmac=${sign(recoveryMessage(p.a.returns.pendingId))}`),
  'GET /returns/v1/returns/{return_id}/payment-checkout-url/{payment_id}?hmac={hmac} 403': () =>
    send('GET', `/returns/v1/returns/${p.a.returns.payingId}/payment-checkout-url/${p.a.returns.paymentId}?hmac=${sign(checkoutMessage(UNKNOWN, UNKNOWN))}`),
  'GET /returns/v1/returns/{return_id}/payment-checkout-url/{payment_id}?hmac={hmac} 404': () =>
    send('GET', `/returns/v1/returns/${p.a.returns.payingId}/payment-checkout-url/${UNKNOWN}?hmac=${sign(checkoutMessage(p.a.returns.payingId, UNKNOWN))}`),
  'GET /returns/v1/returns/{return_id}/payment-checkout-url/{payment_id}?hmac={hmac} 422': async () => {
    const { payingId, paymentId } = p.a.returns;
    const path = `/returns/v1/returns/${payingId}/payment-checkout-url/${paymentId}?hmac=${sign(checkoutMessage(payingId, paymentId))}`;
    const page = new URL((await send('GET', path)).headers.get('location')!);
    const paid = await p.sandbox.request('POST', page.pathname, { body: { outcome: 'paid' } });
    expect(paid.status, paid.text).toBe(200);
    return send('GET', path);
  },
  'POST /returns/v1/returns/{return_id}/retry-shipment 404': () => send('POST', `/returns/v1/returns/${UNKNOWN}/retry-shipment`),
  'POST /returns/v1/returns/{return_id}/retry-shipment 422': () => send('POST', `/returns/v1/returns/${p.a.returns.approvedId}/retry-shipment`),
  'GET /returns/v1/return-methods/{return_method_id} 404': () => send('GET', `/returns/v1/return-methods/${UNKNOWN}`),
  'GET /returns/v1/reasons/{return_reason_id} 404': () => send('GET', `/returns/v1/reasons/${UNKNOWN}`),
  'GET /returns/v1/tags 404': () => send('GET', `/returns/v1/tags?filter[shop]=${p.b.shopId}`),
  'POST /returns/v1/tags 404': () =>
    send('POST', '/returns/v1/tags', {
      data: { type: 'return-tags', attributes: { name: 'Theirs', color: '#123456' }, relationships: { shop: { data: { type: 'shops', id: p.b.shopId } } } },
    }),
  'GET /returns/v1/tags/{return_tag_id} 404': () => send('GET', `/returns/v1/tags/${UNKNOWN}`),
  'DELETE /returns/v1/tags/{return_tag_id} 404': () => send('DELETE', `/returns/v1/tags/${UNKNOWN}`),
  'PATCH /returns/v1/tags/{return_tag_id} 404': () =>
    send('PATCH', `/returns/v1/tags/${UNKNOWN}`, { data: { type: 'return-tags', id: UNKNOWN, attributes: { color: '#654321' } } }),
  'GET /returns/v1/shops/{shop_id}/orders/{reference}/{email} 404': () => send('GET', `/returns/v1/shops/${p.a.shopId}/orders/999999/nobody%40example.com`),
  'GET /returns/v1/shops/{shop_id}/orders/{reference}/{email} 409': async () => {
    const order = await fullyReturnedOrder();
    return send('GET', `/returns/v1/shops/${p.a.shopId}/orders/${order.id}/${encodeURIComponent(emailOf(order.id))}`);
  },
  'GET /returns/v1/shops/{shop_id}/reasons 404': () => send('GET', `/returns/v1/shops/${UNKNOWN}/reasons`),
  'DELETE /returns/v1/shops/{shop_id}/reasons/{return_reason_id} 404': () => send('DELETE', `/returns/v1/shops/${p.a.apiShopId}/reasons/${UNKNOWN}`),
  'PATCH /returns/v1/shops/{shop_id}/reasons/{return_reason_id} 404': () =>
    send('PATCH', `/returns/v1/shops/${p.a.apiShopId}/reasons/${UNKNOWN}`, { data: { comment: 'optional' } }),
  'GET /returns/v1/questions/{return_question_id} 404': () => send('GET', `/returns/v1/questions/${UNKNOWN}`),
  'DELETE /returns/v1/reports/{report_id} 423': async () => {
    const made = await send('POST', '/returns/v1/reports', { data: { type: 'return-reports', attributes: { name: 'Still being made', filters: {} } } });
    return send('DELETE', `/returns/v1/reports/${made.body.data.id}`);
  },
  'POST /returns/v1/allow-reissue 404': () => send('POST', '/returns/v1/allow-reissue', { data: { shop_id: p.a.shopId, order_reference: '999999' } }),
  'POST /returns/v1/allow-reissue 409': async () => {
    const body = bodyOf('allowReturnReissue');
    const first = await send('POST', '/returns/v1/allow-reissue', body);
    expect(first.status, first.text).toBe(201);
    return send('POST', '/returns/v1/allow-reissue', body);
  },
  'POST /returns/v1/allow-reissue 422': async () => {
    const order = (await send('POST', '/returns/v1/demo-orders', demoOrderBody(shopA()))).body.data;
    return send('POST', '/returns/v1/allow-reissue', { data: { shop_id: p.a.shopId, order_reference: order.id } });
  },
  'POST /shipments 423': () => whileRunning('/shipments', shipmentBody({ shop: gated.w.shopIn('NL') })),
  'POST /registered-shipments 422': () => {
    const body = bodyOf('createRegisteredShipment');
    body.data.relationships.contract.data.id = UNKNOWN;
    return send('POST', '/registered-shipments', body);
  },
  'POST /registered-shipments 423': () => {
    const service = gated.w.service('postnl-parcel-standard', 'NL');
    return whileRunning(
      '/registered-shipments',
      shipmentBody({ shop: gated.w.shopIn('NL'), recipient: recipients.NL, service, contract: gated.w.contractFor(service) }),
    );
  },
  'POST /multi-colli-shipments 422': () => {
    const body = bodyOf('createMultiColliShipment');
    body.data.relationships.contract.data.id = UNKNOWN;
    return send('POST', '/multi-colli-shipments', body);
  },
  'POST /multi-colli-shipments 423': () => {
    const service = gated.w.services.find(
      (s: Json) =>
        s.attributes.package_type === 'multi-colli' && s.attributes.regions_from[0].country_code === 'NL' && s.attributes.regions_to[0].country_code === 'NL',
    );
    const body = shipmentBody({
      shop: gated.w.shopIn('NL'),
      recipient: recipients.NL,
      service,
      contract: gated.w.contractFor(service),
      meta: { colli: [{ physical_properties: { weight: 1000 } }, { physical_properties: { weight: 1500 } }] },
    });
    delete body.data.attributes.physical_properties;
    return whileRunning('/multi-colli-shipments', body);
  },
  'DELETE /shipments/{shipment_id} 423': () => send('DELETE', `/shipments/${p.a.registeredShipmentId}`),
  'DELETE /zones/{zone_id} 403': () => send('DELETE', `/zones/${p.sandbox.store.all('zones').find((zone) => zone.organization_id === undefined)!.id}`),
  'DELETE /zones/{zone_id} 404': () => send('DELETE', `/zones/${UNKNOWN}`),
  'POST /void-shipment 423': () => send('POST', '/void-shipment', { data: { shipment_id: p.a.conceptShipmentId } }),
};

describe("production's documented error answers", () => {
  it('are each provoked here or listed with why not', () => {
    expect(documented.length).toBe(57);
    expect([...Object.keys(PROVOKE), ...Object.keys(CANNOT)].sort()).toEqual([...documented].sort());
  });

  it.each(Object.keys(PROVOKE).map((key) => [key] as const))('%s', async (key) => {
    await p.restore();
    const status = SEED_WINS[key] ?? Number(key.split(' ').at(-1));
    const answer = await PROVOKE[key]!();
    expect(answer.status, answer.text).toBe(status);
    expect(firstError(answer).status).toBe(String(status));
  });
});
