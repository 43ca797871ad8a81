import { beforeEach, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from '../support/app.js';
import { returnBody, returnsWorld, type ReturnsWorld } from './support.js';

let sandbox: TestSandbox;
let w: ReturnsWorld;

beforeEach(async () => {
  sandbox = await testSandbox();
  w = await returnsWorld(sandbox);
});

const post = (path: string, body: Json, token = w.token) => sandbox.request('POST', path, { token, body });

describe('return methods', () => {
  it('are seeded per shop country, with the carrier, service and label price in meta', async () => {
    const shop = w.shopIn('NL');
    const methods = await w.methods(shop.id);
    expect(methods.map((m: Json) => m.attributes.return_type)).toEqual(['shipment', 'shipment', 'store-drop-off', 'self-shipment']);
    const postnl = methods[0];
    expect(postnl.meta.carrier.code).toBe('postnl');
    expect(postnl.meta.service.code).toBe('postnl-parcel-standard');
    expect(postnl.meta.price).toEqual({ amount: 695, currency: 'EUR' });
    const included = await sandbox.get(`/returns/v1/return-methods/${postnl.id}?include=service,contract,shop`, w.token);
    expect(included.body.included.map((r: Json) => r.type).sort()).toEqual(['contracts', 'services', 'shops']);
  });

  it("show the flags of the method's service in meta, as the service answers them", async () => {
    const postnl = (await w.methods(w.shopIn('NL').id))[0];
    const serviceId = postnl.relationships.service.data.id;
    // A pack can give a service these flags; the seeded services have neither.
    await sandbox.store.transact((tx) => tx.update('services', serviceId, { is_label_in_the_box: true, is_shipping_and_return: true }));
    const service = (await sandbox.read(`/services/${serviceId}`)).body.data.attributes;
    expect([service.is_label_in_the_box, service.is_shipping_and_return]).toEqual([true, true]);
    const method = (await sandbox.get(`/returns/v1/return-methods/${postnl.id}`, w.token)).body.data;
    expect(method.meta.service).toMatchObject({ is_label_in_the_box: true, is_shipping_and_return: true });
  });

  it('checks what carries a shipment method', async () => {
    const shop = w.shopIn('NL');
    const services = (await sandbox.read('/services?page[size]=100')).body.data;
    const gbService = services.find((s: Json) => s.attributes.code === 'royal-mail-tracked-48');
    const postnl = (await w.methods(shop.id))[0];
    const missing = await post('/returns/v1/return-methods', {
      data: { type: 'return-methods', attributes: { return_type: 'shipment' }, relationships: { shop: { data: { type: 'shops', id: shop.id } } } },
    });
    expect(missing.status).toBe(422);
    const wrong = await post('/returns/v1/return-methods', {
      data: {
        type: 'return-methods',
        attributes: { return_type: 'shipment', title: 'From the UK' },
        relationships: {
          shop: { data: { type: 'shops', id: shop.id } },
          service: { data: { type: 'services', id: gbService.id } },
          contract: postnl.relationships.contract,
        },
      },
    });
    expect(wrong.status).toBe(422);
    const pointers = wrong.body.errors.map((e: Json) => e.source.pointer);
    expect(pointers).toContain('/data/relationships/contract/data/id');
    expect(pointers).toContain('/data/relationships/service/data/id');

    const ok = await post('/returns/v1/return-methods', {
      data: {
        type: 'return-methods',
        attributes: { return_type: 'shipment', title: 'Heavy items', default_weight: { amount: 5, unit: 'kg' }, country_codes: ['NL'] },
        relationships: { shop: { data: { type: 'shops', id: shop.id } }, service: postnl.relationships.service, contract: postnl.relationships.contract },
      },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.meta.price).toEqual({ amount: 795, currency: 'EUR' });
    const id = ok.body.data.id;
    const renamed = await sandbox.request('PATCH', `/returns/v1/return-methods/${id}`, {
      token: w.token,
      body: { data: { type: 'return-methods', id, attributes: { title: 'Bulky' } } },
    });
    expect(renamed.body.data.attributes.title).toBe('Bulky');
    expect((await sandbox.request('DELETE', `/returns/v1/return-methods/${id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.get(`/returns/v1/return-methods/${id}`, w.token)).status).toBe(404);
  });

  it('refuse a service that delivers to a pick-up point, whose return shipment could never be made', async () => {
    const shop = w.shopIn('NL');
    const [postnl] = await w.methods(shop.id);
    const services = (await sandbox.read('/services?filter[delivery_method]=pick-up&filter[address_to][country_code]=NL')).body.data;
    const pickupPoint = { data: { type: 'services', id: services[0].id } };
    expect(services[0].attributes.code).toBe('postnl-parcel-pickup-point');
    const refusedAt = (answer: Json) => [answer.status, (answer.body.errors ?? []).map((e: Json) => [e.source.pointer, e.detail])];
    const expected = (member: string) => [
      422,
      [[`/data/relationships/${member}/data/id`, expect.stringContaining("Service 'postnl-parcel-pickup-point' delivers to a pick-up point")]],
    ];

    const relationships = { shop: { data: { type: 'shops', id: shop.id } }, contract: postnl.relationships.contract };
    const made = await post('/returns/v1/return-methods', {
      data: {
        type: 'return-methods',
        attributes: { return_type: 'shipment', title: 'To a parcel shop' },
        relationships: { ...relationships, service: pickupPoint },
      },
    });
    expect(refusedAt(made)).toEqual(expected('service'));
    const recovery = await post('/returns/v1/return-methods', {
      data: {
        type: 'return-methods',
        attributes: { return_type: 'shipment', title: 'Recovered at a parcel shop' },
        relationships: {
          ...relationships,
          service: postnl.relationships.service,
          recovery_service: pickupPoint,
          recovery_contract: postnl.relationships.contract,
        },
      },
    });
    expect(refusedAt(recovery)).toEqual(expected('recovery_service'));
    const changed = await sandbox.request('PATCH', `/returns/v1/return-methods/${postnl.id}`, {
      token: w.token,
      body: { data: { type: 'return-methods', id: postnl.id, relationships: { service: pickupPoint } } },
    });
    expect(refusedAt(changed)).toEqual(expected('service'));
  });

  it('blames a PATCH that breaks a rule with a kept member on the member it sent, saying what to send too', async () => {
    const [postnl, , , selfShipment] = await w.methods(w.shopIn('NL').id);
    const services = (await sandbox.read('/services?page[size]=100')).body.data;
    const gbService = services.find((s: Json) => s.attributes.code === 'royal-mail-tracked-48');
    const patch = (method: Json, member: Json) =>
      sandbox.request('PATCH', `/returns/v1/return-methods/${method.id}`, {
        token: w.token,
        body: { data: { type: 'return-methods', id: method.id, ...member } },
      });
    const blamed = (answer: Json) => answer.body.errors.map((e: Json) => [e.source.pointer, e.detail]);

    // Another carrier's service beside the PostNL contract the method keeps.
    const service = await patch(postnl, { relationships: { service: { data: { type: 'services', id: gbService.id } } } });
    expect(service.status).toBe(422);
    expect(new Set(blamed(service).map(([pointer]: string[]) => pointer))).toEqual(new Set(['/data/relationships/service/data/id']));
    expect(blamed(service)).toContainEqual([
      '/data/relationships/service/data/id',
      'The service and the contract belong to different carriers. Send contract too, or another service.',
    ]);

    // A self-shipment method made a shipment one without the service and contract it lacks.
    const type = await patch(selfShipment, { attributes: { return_type: 'shipment' } });
    expect(type.status).toBe(422);
    expect(blamed(type)).toEqual([['/data/attributes/return_type', expect.stringContaining('Send service and contract with return_type.')]]);

    // A return address abroad that the kept PostNL service does not deliver to.
    const address = {
      street_1: 'Baker Street',
      street_number: 221,
      postal_code: 'NW1 6XE',
      city: 'London',
      country_code: 'GB',
      first_name: 'Sam',
      last_name: 'Hill',
    };
    const moved = await patch(postnl, { attributes: { address } });
    expect(moved.status).toBe(422);
    expect(blamed(moved)).toEqual([['/data/attributes/address', expect.stringMatching(/does not deliver to GB.*Send service too, or another address\./)]]);
  });

  it('refuse service options their return shipments could not carry: two of one category, one twice, one that needs values', async () => {
    const shop = w.shopIn('NL');
    const postnl = await w.method(shop.id, 'Return label (PostNL)');
    const options = (await sandbox.read('/service-options')).body.data;
    const option = (code: string) => ({ type: 'service-options', id: options.find((o: Json) => o.attributes.code === code).id });
    const method = (chosen: Json[]) =>
      post('/returns/v1/return-methods', {
        data: {
          type: 'return-methods',
          attributes: { return_type: 'shipment', title: 'With options' },
          relationships: {
            shop: { data: { type: 'shops', id: shop.id } },
            service: postnl.relationships.service,
            contract: postnl.relationships.contract,
            service_options: { data: chosen },
          },
        },
      });
    const refused = (answer: Json) => answer.body.errors.map((e: Json) => [e.source.pointer, e.detail]);
    // A shipment takes one option per category: a method with two would make no return shipment.
    const twoProofs = await method([option('proof-of-delivery:signature'), option('proof-of-delivery:age-check-18')]);
    expect(twoProofs.status, twoProofs.text).toBe(422);
    expect(refused(twoProofs)).toEqual([['/data/relationships/service_options/data/1', expect.stringContaining("'proof-of-delivery'")]]);
    const twice = await method([option('proof-of-delivery:signature'), option('proof-of-delivery:signature')]);
    expect(twice.status, twice.text).toBe(422);
    expect(refused(twice)).toEqual([['/data/relationships/service_options/data/1', expect.stringContaining('twice')]]);
    // A method gives no values, and the insured option needs its amount.
    const insured = await method([option('proof-of-delivery:insured')]);
    expect(insured.status, insured.text).toBe(422);
    expect(refused(insured)).toEqual([['/data/relationships/service_options/data/0', expect.stringContaining('amount')]]);
    // Options that fit are taken, and the returns made with them are shipped with them.
    const fits = await method([option('proof-of-delivery:signature'), option('delivery-window:evening')]);
    expect(fits.status, fits.text).toBe(201);
    const [order] = await w.orders(shop.id);
    const item = order.attributes.items.find((i: Json) => !i.non_returnable);
    const created = await post('/returns/v1/returns', returnBody({ shop, order, method: fits.body.data, items: [{ id: item.id, quantity: 1 }] }));
    expect(created.status, created.text).toBe(201);
    const approved = await post(`/returns/v1/returns/${created.body.data.id}/approve`, {});
    expect(approved.status, approved.text).toBe(204);
    const shipmentId = (await sandbox.get(`/returns/v1/returns/${created.body.data.id}`, w.token)).body.data.relationships.shipment.data.id;
    const shipment = (await sandbox.get(`/shipments/${shipmentId}`, w.token)).body.data;
    expect(shipment.relationships.service_options.data).toEqual(fits.body.data.relationships.service_options.data);
  });

  it('ignore a changed created_at in a PATCH, as production reads it only', async () => {
    const method = (await w.methods(w.shopIn('NL').id))[3];
    const changed = await sandbox.request('PATCH', `/returns/v1/return-methods/${method.id}`, {
      token: w.token,
      body: { data: { type: 'return-methods', id: method.id, attributes: { created_at: 1, title: 'Ship it yourself' } } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.attributes).toMatchObject({ created_at: method.attributes.created_at, title: 'Ship it yourself' });
    const read = (await sandbox.get(`/returns/v1/return-methods/${method.id}`, w.token)).body.data;
    expect(read.attributes.created_at).toBe(method.attributes.created_at);
  });

  it('price the label as its return shipment is charged, with the carrier surcharges of the organization', async () => {
    const shop = w.shopIn('NL');
    const postnl = await w.method(shop.id, 'Return label (PostNL)');
    const before = postnl.meta.price;
    const carrier = (await sandbox.read('/carriers')).body.data.find((c: Json) => c.attributes.code === postnl.meta.carrier.code);
    const surcharge = await post('/carrier-surcharges', {
      data: {
        type: 'carrier-surcharges',
        attributes: { name: 'Peak season', fee: { amount: 150, currency: before.currency } },
        relationships: { carrier: { data: { type: 'carriers', id: carrier.id } } },
      },
    });
    expect(surcharge.status, surcharge.text).toBe(201);
    const priced = { amount: before.amount + 150, currency: before.currency };
    expect((await sandbox.get(`/returns/v1/return-methods/${postnl.id}`, w.token)).body.data.meta.price).toEqual(priced);
    const [order] = await w.orders(shop.id);
    const resolved = await post('/returns/v1/return-methods/resolve', {
      data: { order_reference: order.id, shop_id: shop.id, consumer_address: { country_code: 'NL', email: order.attributes.recipient_address.email } },
    });
    expect(resolved.body.data.find((m: Json) => m.id === postnl.id).meta.price).toEqual(priced);
    // What the shop pays for the label once a return is approved.
    const item = order.attributes.items.find((i: Json) => !i.non_returnable);
    const created = await post('/returns/v1/returns', returnBody({ shop, order, method: postnl, items: [{ id: item.id, quantity: 1 }] }));
    expect(created.status, created.text).toBe(201);
    expect((await post(`/returns/v1/returns/${created.body.data.id}/approve`, {})).status).toBe(204);
    const shipmentId = (await sandbox.get(`/returns/v1/returns/${created.body.data.id}`, w.token)).body.data.relationships.shipment.data.id;
    expect((await sandbox.get(`/shipments/${shipmentId}`, w.token)).body.data.attributes.price).toEqual(priced);
  });

  it('price a label across a border as its cross-border return shipment is charged', async () => {
    // A British shop's method for consumers in the Netherlands, on a rate the carrier prices by
    // route (dynamic): every return it carries crosses a border.
    const gb = await returnsWorld(sandbox, 'other-client');
    const shop = gb.shopIn('GB');
    const services = (await sandbox.get('/services?page[size]=100', gb.token)).body.data;
    const toGb = services.find((s: Json) => s.attributes.code === 'dhl-express-worldwide' && s.attributes.regions_to[0]?.country_code === 'GB');
    const rate = (await sandbox.get(`/service-rates?filter[service]=${toGb.id}`, gb.token)).body.data.find((r: Json) => r.attributes.is_dynamic);
    const method = await post(
      '/returns/v1/return-methods',
      {
        data: {
          type: 'return-methods',
          attributes: { return_type: 'shipment', title: 'From the Netherlands', country_codes: ['NL'] },
          relationships: {
            shop: { data: { type: 'shops', id: shop.id } },
            service: { data: { type: 'services', id: toGb.id } },
            contract: { data: { type: 'contracts', id: rate.relationships.contract.data.id } },
          },
        },
      },
      gb.token,
    );
    expect(method.status, method.text).toBe(201);
    const consumer = {
      first_name: 'Sam',
      last_name: 'Jansen',
      street_1: 'Main Street',
      street_number: 1,
      postal_code: '1011 AB',
      city: 'Amsterdam',
      country_code: 'NL',
      email: 'sam@example.com',
    };
    const item = {
      sku: 'LAMP-1',
      name: 'Lamp',
      description: 'Desk lamp',
      quantity: 2,
      item_price: { amount: 3999, currency: 'GBP' },
      item_weight: { amount: 1000, unit: 'g' },
    };
    const order = (
      await post(
        '/returns/v1/demo-orders',
        {
          data: {
            type: 'demo-orders',
            attributes: { recipient_address: consumer, items: [item] },
            relationships: { shop: { data: { type: 'shops', id: shop.id } } },
          },
        },
        gb.token,
      )
    ).body.data;
    const resolved = await post(
      '/returns/v1/return-methods/resolve',
      { data: { order_reference: order.id, shop_id: shop.id, consumer_address: { country_code: 'NL', email: consumer.email } } },
      gb.token,
    );
    const quoted = resolved.body.data.find((m: Json) => m.id === method.body.data.id).meta.price;
    const created = await post(
      '/returns/v1/returns',
      returnBody({ shop, order, method: method.body.data, items: [{ id: `${order.id}-1`, quantity: 1 }] }),
      gb.token,
    );
    expect(created.status, created.text).toBe(201);
    expect((await post(`/returns/v1/returns/${created.body.data.id}/approve`, {}, gb.token)).status).toBe(204);
    const shipmentId = (await sandbox.get(`/returns/v1/returns/${created.body.data.id}`, gb.token)).body.data.relationships.shipment.data.id;
    const charged = (await sandbox.get(`/shipments/${shipmentId}`, gb.token)).body.data.attributes.price;
    expect(quoted).toEqual(charged);
    // The method alone says the same: every country it is offered in is across the border.
    expect((await sandbox.get(`/returns/v1/return-methods/${method.body.data.id}`, gb.token)).body.data.meta.price).toEqual(charged);
  });

  it('resolves the methods a consumer can use for an order and address', async () => {
    const shop = w.shopIn('NL');
    const [order] = await w.orders(shop.id);
    const email = order.attributes.recipient_address.email;
    const resolve = (consumer: Json, reference = order.id) =>
      post('/returns/v1/return-methods/resolve', { data: { order_reference: reference, shop_id: shop.id, consumer_address: consumer, weight: 3000 } });
    const dutch = await resolve({ country_code: 'NL', email });
    expect(dutch.status).toBe(200);
    expect(dutch.body.data.map((m: Json) => m.attributes.title)).toEqual(['Return label (PostNL)', 'Bring it to our store', 'Send it yourself']);
    expect(dutch.body.data[0].meta.price).toEqual({ amount: 795, currency: 'EUR' });
    const german = await resolve({ country_code: 'DE', postal_code: order.attributes.recipient_address.postal_code });
    expect(german.body.data.map((m: Json) => m.attributes.title)).toEqual(['Return label from Germany (DPD)', 'Send it yourself']);
    const belgian = await resolve({ country_code: 'BE', email });
    expect(belgian.body.data.map((m: Json) => m.attributes.title)).toEqual(['Send it yourself']);
    // A shipment method turned self-shipment keeps its service and contract, which no longer limit it.
    const postnl = dutch.body.data[0];
    const turned = await sandbox.request('PATCH', `/returns/v1/return-methods/${postnl.id}`, {
      token: w.token,
      body: { data: { type: 'return-methods', id: postnl.id, attributes: { return_type: 'self-shipment', country_codes: ['BE'] } } },
    });
    expect(turned.status, turned.text).toBe(200);
    const resolved = (await resolve({ country_code: 'BE', email })).body.data;
    expect(resolved.map((m: Json) => m.id)).toContain(postnl.id);
    // Nor is it priced as a label: the consumer sends it, on no label of the shop's.
    expect(resolved.find((m: Json) => m.id === postnl.id).meta).toBeUndefined();
    expect(turned.body.data.meta).toBeUndefined();
    const wrongEmail = await resolve({ country_code: 'NL', email: 'someone@example.com' });
    expect(wrongEmail.status).toBe(422);
    expect(firstError(wrongEmail).source.pointer).toBe('/data/order_reference');
  });
});

describe('orders', () => {
  it('are seeded as demo orders, looked up by reference and e-mail address or postal code', async () => {
    const shop = w.shopIn('NL');
    const orders = await w.orders(shop.id);
    expect(orders).toHaveLength(4);
    const order = orders[0];
    expect(order.id).toMatch(/^\d+$/);
    const { email, postal_code } = order.attributes.recipient_address;
    const found = await sandbox.get(`/orders/v1/orders/${order.id}?shop_id=${shop.id}&email=${encodeURIComponent(email.toUpperCase())}`, w.token);
    expect(found.status).toBe(200);
    expect(found.body.data).toMatchObject({ type: 'orders', id: order.id, meta: { return_exists: false, package_type: 'parcel' } });
    expect(found.body.data.attributes.items).toEqual(order.attributes.items);
    // Its self link is a look-up that works as it stands.
    const followed = await sandbox.get(found.body.data.links.self.replace(/^https?:\/\/[^/]+/, ''), w.token);
    expect(followed.status, found.body.data.links.self).toBe(200);
    expect(followed.body.data).toEqual(found.body.data);
    const byPostal = await sandbox.get(
      `/orders/v1/orders/${order.id}?shop_id=${shop.id}&postal_code=${encodeURIComponent(` ${postal_code.toLowerCase()} `)}`,
      w.token,
    );
    expect(byPostal.status).toBe(200);
    const legacy = await sandbox.get(`/returns/v1/shops/${shop.id}/orders/${order.id}/${encodeURIComponent(email)}`, w.token);
    expect(legacy.status).toBe(200);
    for (const path of [
      `/orders/v1/orders/${order.id}?shop_id=${shop.id}&email=wrong@example.com`,
      `/orders/v1/orders/999999?shop_id=${shop.id}&email=${encodeURIComponent(email)}`,
      `/orders/v1/orders/${order.id}?shop_id=${w.shopIn('DE').id}&email=${encodeURIComponent(email)}`,
    ]) {
      const answer = await sandbox.get(path, w.token);
      expect(answer.status, path).toBe(404);
    }
    const neither = await sandbox.get(`/orders/v1/orders/${order.id}?shop_id=${shop.id}`, w.token);
    expect(neither.status).toBe(400);
    expect(firstError(neither).source.parameter).toBe('email');
    expect(
      (await sandbox.get(`/orders/v1/orders/${order.id}?shop_id=${shop.id}&email=${encodeURIComponent(email)}`, await sandbox.token('other-client'))).status,
    ).toBe(404);
  });

  it('creates demo orders with whole-number ids that are their references', async () => {
    const shop = w.shopIn('DE');
    const created = await post('/returns/v1/demo-orders', {
      data: {
        type: 'demo-orders',
        attributes: {
          recipient_address: {
            first_name: 'Mia',
            last_name: 'Wolf',
            street_1: 'Hauptstraße',
            street_number: 3,
            postal_code: '10115',
            city: 'Berlin',
            country_code: 'DE',
            email: 'mia@example.com',
          },
          // An item's id sent back (as answered) is ignored: the order numbers its items.
          items: [{ id: 'sent-back-1', sku: 'X-1', name: 'Lamp', description: 'Desk lamp', quantity: 2, item_price: { amount: 3999, currency: 'EUR' } }],
        },
        relationships: { shop: { data: { type: 'shops', id: shop.id } } },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(Number(id)).toBeGreaterThan(100000);
    expect(created.body.data.attributes.items[0]).toMatchObject({ id: `${id}-1`, non_returnable: false });
    expect((await sandbox.get(`/returns/v1/demo-orders/${id}?include=shop`, w.token)).body.included[0].id).toBe(shop.id);
    expect((await sandbox.get(`/orders/v1/orders/${id}?shop_id=${shop.id}&email=mia@example.com`, w.token)).status).toBe(200);
  });
});
