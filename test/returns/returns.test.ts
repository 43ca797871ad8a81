import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from '../support/app.js';
import { pngLogo } from '../support/matrix.js';
import { returnBody, returnsWorld, type ReturnsWorld } from './support.js';

let sandbox: TestSandbox;
let w: ReturnsWorld;
let shop: Json;
let order: Json;
let postnl: Json;

beforeEach(async () => {
  sandbox = await testSandbox();
  w = await returnsWorld(sandbox);
  shop = w.shopIn('NL');
  order = (await w.orders(shop.id))[0];
  postnl = await w.method(shop.id, 'Return label (PostNL)');
});

const first = () => order.attributes.items[0];
const create = (body: Json, token = w.token) => sandbox.request('POST', '/returns/v1/returns', { token, body });
const oneItem = (extra: Json = {}) => [{ id: first().id, quantity: 1, reason: { code: 'too-small', questions: [{ code: 'worn', answer: false }] }, ...extra }];
const pointers = (answer: Json) => answer.body.errors.map((e: Json) => e.source?.pointer);

describe('creating a return', () => {
  it("stores a pending return with the order items, the reason in the consumer's language and the return address", async () => {
    const answer = await create(returnBody({ shop, order, method: postnl, items: oneItem() }));
    expect(answer.status).toBe(201);
    const data = answer.body.data;
    expect(data.attributes).toMatchObject({
      order_reference: order.id,
      has_preferred_outcome_refund: true,
      has_preferred_outcome_exchange: false,
      locale: 'nl-NL',
      consumer_address: { email: order.attributes.recipient_address.email },
      return_address: { country_code: 'NL', first_name: expect.any(String) },
    });
    expect(data.attributes.items).toEqual([
      expect.objectContaining({
        id: first().id,
        sku: first().sku,
        quantity: 1,
        preferred_outcome: 'refund',
        reason: {
          code: 'too-small',
          description: 'Te klein',
          questions: [{ code: 'worn', answer: false, description: 'Is het artikel gedragen of gebruikt?' }],
        },
      }),
    ]);
    expect(data.meta).toEqual({ order_created_at: order.attributes.created_at, package_type: 'parcel', allows_reissue: false });
    const status = await sandbox.get(`/returns/v1/returns/${data.id}?include=status,return_method`, w.token);
    expect(status.body.included.find((r: Json) => r.type === 'statuses').attributes).toMatchObject({ code: 'return-pending', resource_type: 'returns' });
    const english = await sandbox.request('GET', `/returns/v1/returns/${data.id}`, { token: w.token, headers: { 'accept-language': 'en-GB' } });
    expect(english.body.data.attributes.items[0].reason.description).toBe('Too small');
    const lookup = await sandbox.get(
      `/orders/v1/orders/${order.id}?shop_id=${shop.id}&email=${encodeURIComponent(order.attributes.recipient_address.email)}`,
      w.token,
    );
    expect(lookup.body.data.meta.return_exists).toBe(true);
  });

  it("takes an item sent back as production answers it (sku, name, image_url, price...), keeping the order's own values", async () => {
    const [item] = oneItem({ sku: 'NOT-THE-SKU', name: 'Not the name', description: null, image_url: null, item_price: first().item_price });
    const answer = await create(returnBody({ shop, order, method: postnl, items: [item] }));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.attributes.items[0]).toMatchObject({ id: first().id, sku: first().sku, name: first().name });
  });

  it("takes members production's open objects may hold (the attributes, a reason, its photos and answers) and drops them", async () => {
    const photo = { data: pngLogo().contents, extension: 'png', caption: 'front' };
    const items = [
      { id: first().id, quantity: 1, reason: { code: 'too-small', questions: [{ code: 'worn', answer: false, note: 'x' }], source: 'app' } },
      {
        id: order.attributes.items[1].id,
        quantity: 1,
        reason: { code: 'damaged', attachments: [photo], questions: [{ code: 'original-packaging', answer: true, asked_at: 1 }] },
      },
    ];
    const body = returnBody({ shop, order, method: postnl, items });
    body.data.attributes.channel = 'kiosk';
    const answer = await create(body);
    expect(answer.status, answer.text).toBe(201);
    const [small, broken] = answer.body.data.attributes.items;
    expect(small.reason).toEqual({
      code: 'too-small',
      description: 'Te klein',
      questions: [{ code: 'worn', answer: false, description: 'Is het artikel gedragen of gebruikt?' }],
    });
    expect(broken.reason.questions).toEqual([{ code: 'original-packaging', answer: true, description: expect.any(String) }]);
    expect(broken.reason.attachments).toEqual([{ url: expect.any(String) }]);
    expect(answer.body.data.attributes).not.toHaveProperty('channel');
  });

  it('answers every broken rule at once, with pointers, and stores nothing', async () => {
    const before = sandbox.store.all('returns').length;
    const giftOrder = (await w.orders(shop.id))[3];
    const gift = giftOrder.attributes.items.find((i: Json) => i.non_returnable);
    const answer = await create(
      returnBody({
        shop,
        order: giftOrder,
        method: await w.method(shop.id, 'Return label from Germany (DPD)'),
        items: [
          { id: 'nope', quantity: 1 },
          { id: gift.id, quantity: 1 },
          { id: giftOrder.attributes.items[0].id, quantity: 99, reason: { code: 'damaged' } },
          { id: giftOrder.attributes.items[0].id, quantity: 1, reason: { code: 'unknown' }, preferred_outcome: 'exchange' },
        ],
      }),
    );
    expect(answer.status).toBe(422);
    expect(pointers(answer)).toEqual(
      expect.arrayContaining([
        '/data/relationships/return_method/data/id',
        '/data/attributes/items/0/id',
        '/data/attributes/items/1/id',
        '/data/attributes/items/2/quantity',
        '/data/attributes/items/2/reason/attachments',
        '/data/attributes/items/2/reason/questions',
        '/data/attributes/items/3/reason/code',
        '/data/attributes/items/3/preferred_outcome',
      ]),
    );
    expect(sandbox.store.all('returns').length).toBe(before);
  });

  it("refuses an unknown order, a wrong e-mail address, another shop's method and another tenant's shop", async () => {
    const wrongEmail = await create(
      returnBody({ shop, order, method: postnl, items: oneItem(), consumer: { ...order.attributes.recipient_address, email: 'x@example.com' } }),
    );
    expect(pointers(wrongEmail)).toEqual(['/data/attributes/order_reference']);
    const unknown = await create(returnBody({ shop, order: { ...order, id: '999999' }, method: postnl, items: oneItem() }));
    expect(pointers(unknown)).toEqual(['/data/attributes/order_reference']);
    const otherShopMethod = (await w.methods(w.shopIn('DE').id))[0];
    expect(pointers(await create(returnBody({ shop, order, method: otherShopMethod, items: oneItem() })))).toEqual([
      '/data/relationships/return_method/data/id',
    ]);
    const untagged = await create(returnBody({ shop, order, method: postnl, items: oneItem(), tags: ['00000000-0000-4000-8000-000000000000'] }));
    expect(pointers(untagged)).toEqual(['/data/relationships/tags/data/id']);
    const other = await returnsWorld(sandbox, 'other-client');
    const theirs = await create(returnBody({ shop, order, method: postnl, items: oneItem() }), other.token);
    expect(theirs.status).toBe(422);
    expect(firstError(theirs).source.pointer).toBe('/data/relationships/shop/data/id');
  });

  it('counts what earlier returns claim, until a reissue is allowed', async () => {
    const all = [{ id: first().id, quantity: first().quantity, reason: { code: 'changed-mind' } }];
    expect((await create(returnBody({ shop, order, method: postnl, items: all }))).status).toBe(201);
    const again = await create(returnBody({ shop, order, method: postnl, items: all }));
    expect(pointers(again)).toEqual(['/data/attributes/items/0/quantity']);
    const reissue = await sandbox.request('POST', '/returns/v1/allow-reissue', {
      token: w.token,
      body: { data: { shop_id: shop.id, order_reference: order.id } },
    });
    expect(reissue.status).toBe(201);
    const reissued = await create(returnBody({ shop, order, method: postnl, items: all }));
    expect(reissued.status).toBe(201);
    const list = await sandbox.get(`/returns/v1/returns?filter[search]=${order.id}`, w.token);
    expect(list.body.data.map((r: Json) => r.id)).toHaveLength(2);
    const statuses = await sandbox.get(`/returns/v1/returns?filter[status]=return-reissued`, w.token);
    expect(statuses.body.data).toHaveLength(1);
  });
});

describe('deciding on a return', () => {
  it('approves: the return shipment is registered on the sandbox clock with a real label', async () => {
    const created = (await create(returnBody({ shop, order, method: postnl, items: oneItem() }))).body.data;
    expect((await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token })).status).toBe(204);
    let read = (await sandbox.get(`/returns/v1/returns/${created.id}?include=shipment`, w.token)).body;
    expect(read.data.attributes.shipment_registrations).toEqual([{ invocation: 'automatic', status: 'pending', created_at: expect.any(Number) }]);
    const shipment = read.included.find((r: Json) => r.type === 'shipments');
    expect(shipment.attributes).toMatchObject({
      customer_reference: order.id,
      sender_address: { email: order.attributes.recipient_address.email },
      recipient_address: { country_code: 'NL' },
    });
    expect((await sandbox.get(`/returns/v1/returns/${created.id}/files`, w.token)).body.data).toEqual([]);
    await sandbox.advance(5);
    read = (await sandbox.get(`/returns/v1/returns/${created.id}`, w.token)).body;
    expect(read.data.attributes.shipment_registrations[0].status).toBe('success');
    const files = (await sandbox.get(`/returns/v1/returns/${created.id}/files?filter[document_type]=label`, w.token)).body.data;
    expect(files).toHaveLength(1);
    const pdf = await sandbox.app.request(new URL(files[0].links.self).pathname, {
      headers: { authorization: `Bearer ${w.token}`, accept: 'application/pdf' },
    });
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const listed = (await sandbox.get('/returns/v1/returns?filter[status]=return-approved', w.token)).body.data[0];
    expect(listed.meta).toMatchObject({ shipment_status_code: 'shipment-registered', shipment_tracking_code: expect.any(String) });
    const again = await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token });
    expect(again.status).toBe(422);
  });

  it('approves a self-shipment return without a shipment', async () => {
    const self = await w.method(shop.id, 'Send it yourself');
    const created = (await create(returnBody({ shop, order, method: self, items: oneItem() }))).body.data;
    expect((await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token })).status).toBe(204);
    const read = (await sandbox.get(`/returns/v1/returns/${created.id}?include=status`, w.token)).body;
    expect(read.included[0].attributes.code).toBe('return-approved');
    expect(read.data.relationships.shipment).toBeUndefined();
    expect(read.data.attributes.shipment_registrations).toBeUndefined();
    expect((await sandbox.get(`/returns/v1/returns/${created.id}/files`, w.token)).body.data).toEqual([]);
  });

  it('keeps the method a return was made with after the method is deleted: included, and approved with it', async () => {
    const created = (await create(returnBody({ shop, order, method: postnl, items: oneItem() }))).body.data;
    expect((await sandbox.request('DELETE', `/returns/v1/return-methods/${postnl.id}`, { token: w.token })).status).toBe(204);
    const read = (await sandbox.get(`/returns/v1/returns/${created.id}?include=return_method`, w.token)).body;
    expect(read.data.relationships.return_method.data.id).toBe(postnl.id);
    // No related link that would answer 404: the method is read through the include only.
    expect(read.data.relationships.return_method.links).toBeUndefined();
    expect(read.included.map((r: Json) => [r.type, r.id, r.attributes.title])).toEqual([['return-methods', postnl.id, postnl.attributes.title]]);
    const listed = (await sandbox.get('/returns/v1/returns?include=return_method', w.token)).body;
    expect(listed.included.map((r: Json) => r.id)).toContain(postnl.id);
    // Consumers can no longer choose it: it is gone from the shop's methods.
    expect((await sandbox.get(`/returns/v1/return-methods/${postnl.id}`, w.token)).status).toBe(404);
    expect((await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token })).status).toBe(204);
  });

  it('approves a shipment method turned self-shipment without a label: the service and contract it kept ship nothing', async () => {
    const turned = await sandbox.request('PATCH', `/returns/v1/return-methods/${postnl.id}`, {
      token: w.token,
      body: {
        data: {
          type: 'return-methods',
          id: postnl.id,
          attributes: { return_type: 'self-shipment' },
          relationships: { recovery_service: postnl.relationships.service, recovery_contract: postnl.relationships.contract },
        },
      },
    });
    expect(turned.status, turned.text).toBe(200);
    const created = (await create(returnBody({ shop, order, method: postnl, items: oneItem() }))).body.data;
    expect((await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token })).status).toBe(204);
    const read = (await sandbox.get(`/returns/v1/returns/${created.id}`, w.token)).body.data;
    expect(read.relationships.shipment).toBeUndefined();
    expect(read.attributes.shipment_registrations).toBeUndefined();
    const shipments = (await sandbox.get(`/shipments?filter[search]=${encodeURIComponent(`Return of order ${order.id}`)}&page[size]=100`, w.token)).body.data;
    expect(shipments).toEqual([]);
    // No label was made, so there is none to lose: a recovery link has nothing to replace.
    const hmac = createHmac('sha256', 'parcel-sandbox-returns').update(`recovery-shipment:${created.id}`).digest('hex');
    const recovery = await sandbox.request('POST', `/returns/v1/returns/${created.id}/request-recovery-shipment?hmac=${hmac}`, { token: w.token });
    expect(recovery.status).toBe(422);
    expect(firstError(recovery).detail).toContain('self-shipment');
    expect((await sandbox.get(`/returns/v1/returns/${created.id}`, w.token)).body.data.relationships.shipment).toBeUndefined();
  });

  it('rejects with a message; a rejected return cannot be approved and frees its items', async () => {
    const created = (await create(returnBody({ shop, order, method: postnl, items: oneItem() }))).body.data;
    const reject = await sandbox.request('POST', `/returns/v1/returns/${created.id}/reject`, {
      token: w.token,
      body: { data: { message: 'Worn items cannot be returned.' } },
      headers: { 'content-type': 'application/json' },
    });
    expect(reject.status).toBe(204);
    const read = (await sandbox.get(`/returns/v1/returns/${created.id}`, w.token)).body.data;
    expect(read.attributes.rejection_message).toBe('Worn items cannot be returned.');
    const approve = await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token });
    expect(approve.status).toBe(422);
    expect(firstError(approve).detail).toContain('return-rejected');
    expect((await create(returnBody({ shop, order, method: postnl, items: [{ id: first().id, quantity: first().quantity }] }))).status).toBe(201);
  });

  /** A return (not yet approved) whose shipment the carrier will refuse: it carries the shop's `sandbox:registration-failed` tag. */
  const failingReturn = async (): Promise<Json> => {
    const trigger = await sandbox.request('POST', '/returns/v1/tags', {
      token: w.token,
      body: {
        data: {
          type: 'return-tags',
          attributes: { name: 'sandbox:registration-failed', color: '#000' },
          relationships: { shop: { data: { type: 'shops', id: shop.id } } },
        },
      },
    });
    return (await create(returnBody({ shop, order, method: postnl, items: oneItem(), tags: [trigger.body.data.id] }))).body.data;
  };

  it("retries a return shipment the carrier refused, with the return's tags of now", async () => {
    const created = await failingReturn();
    expect((await sandbox.request('POST', `/returns/v1/returns/${created.id}/retry-shipment`, { token: w.token })).status).toBe(422);
    await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token });
    await sandbox.advance(5);
    let read = (await sandbox.get(`/returns/v1/returns/${created.id}`, w.token)).body.data;
    expect(read.attributes.shipment_registrations).toEqual([
      { invocation: 'automatic', status: 'failed', error: expect.stringContaining('sandbox:registration-failed'), created_at: expect.any(Number) },
    ]);
    // Not the return's shipment, whatever its status: the return would name a shipment that is gone, with nothing to retry.
    const shipmentId = read.relationships.shipment.data.id;
    const deleted = await sandbox.request('DELETE', `/shipments/${shipmentId}`, { token: w.token });
    expect(deleted.status).toBe(423);
    expect(firstError(deleted)).toMatchObject({ code: '10005', detail: expect.stringContaining(created.id) });
    expect((await sandbox.get(`/shipments/${shipmentId}`, w.token)).status).toBe(200);
    expect((await sandbox.get(`/returns/v1/returns/${created.id}`, w.token)).body.data.attributes.shipment_registrations[0].status).toBe('failed');
    expect((await sandbox.request('POST', `/returns/v1/returns/${created.id}/tag`, { token: w.token })).status).toBe(204);
    expect((await sandbox.request('POST', `/returns/v1/returns/${created.id}/retry-shipment`, { token: w.token })).status).toBe(204);
    await sandbox.advance(5);
    read = (await sandbox.get(`/returns/v1/returns/${created.id}`, w.token)).body.data;
    expect(read.attributes.shipment_registrations.map((r: Json) => [r.invocation, r.status])).toEqual([
      ['automatic', 'failed'],
      ['manual', 'success'],
    ]);
  });

  it('tells each attempt its own outcome when a retry follows the failure in the same second', async () => {
    const created = await failingReturn();
    await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token });
    // The clock stands still between moves: the failure and the retry share their second, as a client's quick retry does.
    await sandbox.advance(2);
    const attempts = async () =>
      (await sandbox.get(`/returns/v1/returns/${created.id}`, w.token)).body.data.attributes.shipment_registrations.map((r: Json) => [r.invocation, r.status]);
    expect(await attempts()).toEqual([['automatic', 'failed']]);
    expect((await sandbox.request('POST', `/returns/v1/returns/${created.id}/tag`, { token: w.token })).status).toBe(204);
    expect((await sandbox.request('POST', `/returns/v1/returns/${created.id}/retry-shipment`, { token: w.token })).status).toBe(204);
    expect(await attempts()).toEqual([
      ['automatic', 'failed'],
      ['manual', 'pending'],
    ]);
    await sandbox.advance(2);
    expect(await attempts()).toEqual([
      ['automatic', 'failed'],
      ['manual', 'success'],
    ]);
  });

  it('counts a failed return shipment fixed with PATCH /shipments/{id} as a manual attempt of its return', async () => {
    const created = await failingReturn();
    await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token });
    await sandbox.advance(2);
    const read = async () => (await sandbox.get(`/returns/v1/returns/${created.id}`, w.token)).body.data;
    const shipmentId = (await read()).relationships.shipment.data.id;
    // Fixed on the shipment itself, as the trigger's own fix says: the tag taken off with PATCH.
    const patched = await sandbox.request('PATCH', `/shipments/${shipmentId}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: shipmentId, attributes: { tags: [] } } },
    });
    expect(patched.status).toBe(200);
    const sentAt = sandbox.clock.now();
    const attempts = async () => (await read()).attributes.shipment_registrations.map((r: Json) => [r.invocation, r.status, r.created_at]);
    expect((await attempts()).map(([invocation, status]: Json[]) => [invocation, status])).toEqual([
      ['automatic', 'failed'],
      ['manual', 'pending'],
    ]);
    await sandbox.advance(2);
    const shipment = await sandbox.get(`/shipments/${shipmentId}?include=shipment_status.status`, w.token);
    expect(shipment.body.included.find((r: Json) => r.type === 'statuses').attributes.code).toBe('shipment-registered');
    expect((await attempts()).slice(1)).toEqual([['manual', 'success', sentAt]]);
    // Registered, there is nothing to retry, and the return's registrations say so.
    expect((await sandbox.request('POST', `/returns/v1/returns/${created.id}/retry-shipment`, { token: w.token })).status).toBe(422);
  });

  it('sends a failed return shipment again only while its return is approved: a reissued return stays replaced', async () => {
    const created = await failingReturn();
    await sandbox.request('POST', `/returns/v1/returns/${created.id}/approve`, { token: w.token });
    await sandbox.advance(5);
    const reissue = await sandbox.request('POST', '/returns/v1/allow-reissue', {
      token: w.token,
      body: { data: { shop_id: shop.id, order_reference: order.id } },
    });
    expect(reissue.status).toBe(201);
    expect((await create(returnBody({ shop, order, method: postnl, items: oneItem() }))).status).toBe(201);
    const untag = await sandbox.request('POST', `/returns/v1/returns/${created.id}/tag`, { token: w.token });
    expect(untag.status).toBe(422);
    expect(firstError(untag).detail).toContain('return-reissued');
    const retry = await sandbox.request('POST', `/returns/v1/returns/${created.id}/retry-shipment`, { token: w.token });
    expect(retry.status).toBe(422);
    expect(firstError(retry).detail).toContain('return-reissued');
    await sandbox.advance(5);
    const read = (await sandbox.get(`/returns/v1/returns/${created.id}`, w.token)).body.data;
    expect(read.attributes.shipment_registrations.map((r: Json) => [r.invocation, r.status])).toEqual([['automatic', 'failed']]);
  });

  it('keeps other tenants out: their returns answer 404', async () => {
    const created = (await create(returnBody({ shop, order, method: postnl, items: oneItem() }))).body.data;
    const other = await sandbox.token('other-client');
    for (const [method, path] of [
      ['GET', `/returns/v1/returns/${created.id}`],
      ['POST', `/returns/v1/returns/${created.id}/approve`],
      ['GET', `/returns/v1/returns/${created.id}/files`],
    ]) {
      const answer = await sandbox.request(method!, path!, { token: other });
      expect(answer.status, path).toBe(404);
    }
    expect((await sandbox.get('/returns/v1/returns', other)).body.data).toEqual([]);
  });
});
