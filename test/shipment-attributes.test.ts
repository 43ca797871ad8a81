import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody, world, type World } from './support/shipments.js';

let sandbox: TestSandbox;
let w: World;
beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
});

const patch = (id: string, data: Json, token = w.token) =>
  sandbox.request('PATCH', `/shipments/${id}`, { token, body: { data: { type: 'shipments', id, ...data } } });

describe("shipment attributes production's request schema allows", () => {
  it('stores and echoes drop-off location, deprecated tax numbers and is_consolidation; null removes them', async () => {
    const dropOff = { code: 'DE-4711', address: { street_1: 'Hauptstraße', street_number: 3, city: 'Köln', country_code: 'DE' } };
    const created = await createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: w.shopIn('NL'),
        attributes: { drop_off_location: dropOff, sender_tax_number: 'NL123456789B01', recipient_tax_number: 'NL987654321B01', is_consolidation: false },
      }),
    );
    expect(created.attributes).toMatchObject({
      drop_off_location: dropOff,
      sender_tax_number: 'NL123456789B01',
      recipient_tax_number: 'NL987654321B01',
      is_consolidation: false,
    });
    const cleared = await patch(created.id, { attributes: { drop_off_location: null, sender_tax_number: null, is_consolidation: true } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.attributes).not.toHaveProperty('drop_off_location');
    expect(cleared.body.data.attributes).not.toHaveProperty('sender_tax_number');
    expect(cleared.body.data.attributes).toMatchObject({ recipient_tax_number: 'NL987654321B01', is_consolidation: true });
  });

  it('takes a pick-up or drop-off location code as long as a location of production can have (255 characters)', async () => {
    // Production bounds neither member's code; the code it copies from, a location's, is at most 255.
    const code = `NL-${'7'.repeat(252)}`;
    const created = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), attributes: { pickup_location: { code }, drop_off_location: { code } } }),
    );
    expect(created.attributes).toMatchObject({ pickup_location: { code }, drop_off_location: { code } });
    const moved = await patch(created.id, { attributes: { pickup_location: { code: code.replace('NL', 'BE') } } });
    expect([moved.status, moved.body.data?.attributes.pickup_location]).toEqual([200, { code: code.replace('NL', 'BE') }]);
  });

  it("refuses a currency production's Currency does not list (three capitals are not enough), naming the member", async () => {
    const body = shipmentBody({
      shop: w.shopIn('NL'),
      attributes: { items: [{ description: 'Mug', quantity: 1, item_value: { amount: 500, currency: 'XYZ' } }] },
    });
    const refused = await sandbox.request('POST', '/shipments', { token: w.token, body });
    expect(refused.status, refused.text).toBe(400);
    expect(firstError(refused)).toMatchObject({ source: { pointer: '/data/attributes/items/0/item_value/currency' } });
    expect(firstError(refused).detail).toContain('XYZ');
  });

  it("takes the e-mail addresses production's Email takes, such as with & or / before the @, and refuses what it refuses", async () => {
    const withEmail = (email: string) => shipmentBody({ shop: w.shopIn('NL'), recipient: { ...recipients.NL, email } });
    for (const email of ['sales&support@example.com', 'dept/orders@example.com', "o'neill+{tag}@example.co.uk"]) {
      const created = await createShipment(sandbox, w.token, withEmail(email));
      expect(created.attributes.recipient_address.email).toBe(email);
    }
    for (const email of ['orders@localhost', 'orders@shop-.example.com', 'orders..desk@example.com']) {
      const refused = await sandbox.request('POST', '/shipments', { token: w.token, body: withEmail(email) });
      expect(refused.status, email).toBe(400);
      expect(firstError(refused).source).toEqual({ pointer: '/data/attributes/recipient_address/email' });
    }
  });

  it('takes null for the attributes production lets be null, as if they were left out', async () => {
    const nulls = {
      description: null,
      customer_reference: null,
      channel: null,
      total_value: null,
      items: null,
      customs: null,
      tags: null,
      pickup_location: null,
      register_at: null,
    };
    const created = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), attributes: nulls }));
    for (const name of Object.keys(nulls)) expect(created.attributes).not.toHaveProperty(name);
  });

  it('answers tags as strings, whether they were sent as strings or numbers', async () => {
    const created = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), attributes: { tags: ['gift', 7, 1.5] } }));
    expect(created.attributes.tags).toEqual(['gift', '7', '1.5']);
    expect((await patch(created.id, { attributes: { tags: [42] } })).body.data.attributes.tags).toEqual(['42']);
    const found = await sandbox.get('/shipments?filter[tags]=42', w.token);
    expect(found.body.data.map((s: Json) => s.id)).toEqual([created.id]);
  });

  it('answers sync_active false: the sandbox never syncs with a carrier', async () => {
    const created = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    expect(created.attributes.sync_active).toBe(false);
  });

  it('takes back the whole resource as read, read-only attributes and relationships included, and ignores them', async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const created = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { tags: ['a'] } }),
    );
    const { links: _links, ...resource } = created;
    resource.attributes = {
      ...resource.attributes,
      sync_active: true,
      collo_number: 2,
      verified: { price: { amount: 1, currency: 'EUR' } },
      final_mile_carrier: { name: 'X', tracking_url: 'https://x.example' },
    };
    resource.relationships = { ...resource.relationships, manifest: { data: { type: 'manifests', id: '00000000-0000-4000-8000-000000000001' } } };
    const answer = await patch(created.id, resource);
    expect(answer.status, answer.text).toBe(200);
    const { updated_at: _u, ...before } = created.attributes;
    expect(answer.body.data.attributes).toMatchObject(before);
    expect(answer.body.data.relationships).toEqual(created.relationships);
  });
});

describe('consolidation_shipment', () => {
  it('links a shipment to a consolidation shipment of the caller, which include embeds', async () => {
    const hub = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), attributes: { is_consolidation: true } }));
    const link = { consolidation_shipment: { data: { type: 'shipments', id: hub.id } } };
    const child = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), relationships: link }));
    expect(child.relationships.consolidation_shipment).toEqual({
      data: { type: 'shipments', id: hub.id },
      links: { related: `http://sandbox.test/shipments/${hub.id}` },
    });
    const read = await sandbox.get(`/shipments/${child.id}?include=consolidation_shipment`, w.token);
    expect(read.body.included.map((r: Json) => r.id)).toEqual([hub.id]);
    const itself = await patch(hub.id, { relationships: { consolidation_shipment: { data: { type: 'shipments', id: hub.id } } } });
    expect(firstError(itself)).toMatchObject({ code: '10008', source: { pointer: '/data/relationships/consolidation_shipment/data/id' } });
    const unlinked = await patch(child.id, { relationships: { consolidation_shipment: { data: null } } });
    expect(unlinked.body.data.relationships).not.toHaveProperty('consolidation_shipment');
  });

  it('is one level deep, as POST /consolidate-shipments: no chain (and so no cycle) through the relationship', async () => {
    const via = (id: string) => ({ consolidation_shipment: { data: { type: 'shipments', id } } });
    const hub = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const child = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), relationships: via(hub.id) }));
    // Into a shipment that is itself consolidated: refused on create and on change.
    const created = await sandbox.request('POST', '/shipments', { token: w.token, body: shipmentBody({ shop: w.shopIn('NL'), relationships: via(child.id) }) });
    expect(created.status).toBe(422);
    expect(firstError(created)).toMatchObject({ code: '10008', source: { pointer: '/data/relationships/consolidation_shipment/data/id' } });
    expect(firstError(created).detail).toContain('one level deep');
    const other = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    expect((await patch(other.id, { relationships: via(child.id) })).status).toBe(422);
    // A shipment others are consolidated into is not consolidated itself: the cycle hub -> child -> hub cannot close.
    const cycle = await patch(hub.id, { relationships: via(other.id) });
    expect(cycle.status).toBe(422);
    expect(firstError(cycle).detail).toBe('Other shipments are consolidated into this shipment; consolidation is one level deep.');
    expect((await sandbox.get(`/shipments/${hub.id}`, w.token)).body.data.relationships).not.toHaveProperty('consolidation_shipment');
    // The child may move to another consolidation shipment.
    expect((await patch(child.id, { relationships: via(other.id) })).status).toBe(200);
  });

  it("refuses another tenant's shipment (422), and forgets a consolidation shipment that is deleted", async () => {
    const theirs = await world(sandbox, 'other-client');
    const foreign = await createShipment(sandbox, theirs.token, shipmentBody({ shop: theirs.shopIn('GB'), recipient: recipients.GB }));
    const refused = await sandbox.request('POST', '/shipments', {
      token: w.token,
      body: shipmentBody({ shop: w.shopIn('NL'), relationships: { consolidation_shipment: { data: { type: 'shipments', id: foreign.id } } } }),
    });
    expect(refused.status).toBe(422);
    expect(firstError(refused)).toMatchObject({ code: '10008', source: { pointer: '/data/relationships/consolidation_shipment/data/id' } });
    const hub = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), attributes: { is_consolidation: true } }));
    const child = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), relationships: { consolidation_shipment: { data: { type: 'shipments', id: hub.id } } } }),
    );
    expect((await sandbox.request('DELETE', `/shipments/${hub.id}`, { token: w.token })).status).toBe(204);
    const after = await sandbox.get(`/shipments/${child.id}`, w.token);
    expect(after.body.data.relationships).not.toHaveProperty('consolidation_shipment');
    expect((await patch(child.id, { attributes: { description: 'still editable' } })).status).toBe(200);
  });
});

describe("shipment items, customs and physical properties as production's schemas have them", () => {
  const item = {
    sku: 'KB-1',
    description: 'Mechanical keyboard',
    quantity: 1,
    item_value: { amount: 8900, currency: 'EUR' },
    hs_code: '847160',
    origin_country_code: 'DE',
  };
  const customs = { content_type: 'merchandise', invoice_number: 'INV-7', non_delivery: 'return', incoterm: 'DAP' };
  /** DE -> NL with dpd-classic, as in the README's walkthrough, carrying `attributes`. */
  const deToNl = (attributes: Json) =>
    shipmentBody({
      shop: w.shopIn('DE'),
      recipient: recipients.NL,
      attributes: { description: 'A keyboard', customs, ...attributes },
      meta: { service_code: 'dpd-classic' },
    });
  const post = (body: Json) => sandbox.request('POST', '/shipments', { token: w.token, body });

  it('stores and echoes item_weight_unit and vat_percentage; null leaves them out', async () => {
    const created = await createShipment(sandbox, w.token, deToNl({ items: [{ ...item, item_weight: 2, item_weight_unit: 'kg', vat_percentage: 21 }] }));
    const read = await sandbox.get(`/shipments/${created.id}`, w.token);
    expect(read.body.data.attributes.items).toEqual([{ ...item, item_weight: 2, item_weight_unit: 'kg', vat_percentage: 21 }]);
    const changed = await patch(created.id, { attributes: { items: [{ ...item, item_weight: 5, item_weight_unit: 'lb', vat_percentage: 0 }] } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.items[0]).toMatchObject({ item_weight: 5, item_weight_unit: 'lb', vat_percentage: 0 });
    const cleared = await patch(created.id, { attributes: { items: [{ ...item, item_weight: 300, item_weight_unit: null, vat_percentage: null }] } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.data.attributes.items).toEqual([{ ...item, item_weight: 300 }]);
  });

  it('takes null for every item member production lets be null, as if it were left out', async () => {
    const nulls = { sku: null, image_url: null, item_weight: null, hs_code: null, vat_percentage: null };
    const abroad = await createShipment(sandbox, w.token, deToNl({ items: [{ ...item, ...nulls }] }));
    expect(abroad.attributes.items).toEqual([{ description: item.description, quantity: 1, item_value: item.item_value, origin_country_code: 'DE' }]);
    const home = { description: 'Cable', quantity: 2, item_value: null, origin_country_code: null, ...nulls };
    const domestic = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), attributes: { items: [home] } }));
    expect(domestic.attributes.items).toEqual([{ description: 'Cable', quantity: 2 }]);
  });

  it('takes null for the optional customs members, as if they were left out', async () => {
    const nulls = { invoice_number: null, shipping_value: null, license_number: null, certificate_number: null };
    const created = await createShipment(sandbox, w.token, deToNl({ items: [item], customs: { ...customs, content_type: 'gifts', ...nulls } }));
    expect(created.attributes.customs).toEqual({ content_type: 'gifts', non_delivery: 'return', incoterm: 'DAP' });
  });

  it('takes null for the physical properties production lets be null (all but the weight), as if they were left out', async () => {
    const nulls = { length: null, width: null, height: null, volume: null, volumetric_weight: null };
    const created = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), attributes: { physical_properties: { weight: 1500, ...nulls } } }),
    );
    expect(created.attributes.physical_properties).toEqual({ weight: 1500 });
    const sized = await patch(created.id, { attributes: { physical_properties: { weight: 1500, length: 300, width: 200, height: 100 } } });
    expect(sized.body.data.attributes.physical_properties).toMatchObject({ length: 300, width: 200, height: 100 });
    const cleared = await patch(created.id, { attributes: { physical_properties: { weight: 1200, ...nulls } } });
    expect(cleared.body.data.attributes.physical_properties).toEqual({ weight: 1200 });
    // The weight stays required and not null.
    const weightless = await patch(created.id, { attributes: { physical_properties: { weight: null } } });
    expect([weightless.status, firstError(weightless).source]).toEqual([400, { pointer: '/data/attributes/physical_properties/weight' }]);
  });

  it('refuses an item_weight_unit outside mg, g, kg, oz and lb, and a vat_percentage outside 0-100, each with its pointer', async () => {
    const stone = await post(deToNl({ items: [item, { ...item, item_weight: 2, item_weight_unit: 'stone' }] }));
    expect(stone.status).toBe(400);
    expect(firstError(stone)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/items/1/item_weight_unit' } });
    for (const vat of [101, -1, 20.5, '21']) {
      const answer = await post(deToNl({ items: [{ ...item, vat_percentage: vat }] }));
      expect(answer.status, String(vat)).toBe(400);
      expect(firstError(answer).source).toEqual({ pointer: '/data/attributes/items/0/vat_percentage' });
    }
  });

  it("holds item members to production's bounds: any image_url string and description, an hs_code of digits and dots, an item_weight of at least 1", async () => {
    const loose = { ...item, image_url: 'cdn/keyboard.png', description: '' };
    const created = await createShipment(sandbox, w.token, deToNl({ items: [loose] }));
    expect(created.attributes.items[0]).toMatchObject({ image_url: 'cdn/keyboard.png', description: '' });
    for (const [member, value] of [
      ['hs_code', '8471 60'],
      ['hs_code', 'x'.repeat(3)],
      ['item_weight', 0],
    ] as const) {
      const answer = await post(deToNl({ items: [{ ...item, [member]: value }] }));
      expect(answer.status, `${member} ${value}`).toBe(400);
      expect(firstError(answer).source).toEqual({ pointer: `/data/attributes/items/0/${member}` });
    }
    expect((await post(deToNl({ items: [{ ...item, hs_code: '8471.60.00' }] }))).status).toBe(201);
  });

  it("holds the volume to production's least, 0.01 litres, on a new shipment and on a change", async () => {
    const sized = (volume: number) => shipmentBody({ shop: w.shopIn('NL'), attributes: { physical_properties: { weight: 100, volume } } });
    const smallest = await createShipment(sandbox, w.token, sized(0.01));
    expect(smallest.attributes.physical_properties).toEqual({ weight: 100, volume: 0.01 });
    const tiny = await post(sized(0.008));
    expect(tiny.status, tiny.text).toBe(400);
    expect(firstError(tiny)).toMatchObject({ code: '10003', source: { pointer: '/data/attributes/physical_properties/volume' } });
    const shrunk = await patch(smallest.id, { attributes: { physical_properties: { weight: 100, volume: 0.001 } } });
    expect([shrunk.status, firstError(shrunk).source]).toEqual([400, { pointer: '/data/attributes/physical_properties/volume' }]);
  });

  const unknown = (answer: Json, pointer: string) => {
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ status: '400', detail: "'foo' is not a known member here.", source: { pointer } })]);
  };

  it('refuses an unknown member of an item, of customs and of physical_properties, as it refuses an unknown attribute', async () => {
    // Production closes these too: pickup and drop-off locations and prices (they were dropped silently).
    unknown(await post(deToNl({ items: [item], pickup_location: { code: 'NL-1234', foo: 1 } })), '/data/attributes/pickup_location/foo');
    unknown(await post(deToNl({ items: [item], drop_off_location: { code: 'NL-1234', foo: 1 } })), '/data/attributes/drop_off_location/foo');
    unknown(await post(deToNl({ items: [item], total_value: { amount: 100, currency: 'EUR', foo: 1 } })), '/data/attributes/total_value/foo');
    unknown(await post(deToNl({ items: [{ ...item, item_value: { ...item.item_value, foo: 1 } }] })), '/data/attributes/items/0/item_value/foo');
    const tin = { type: 'eori', country_code: 'DE', number: 'DE123456789', foo: 1 };
    unknown(await post(deToNl({ items: [item], sender_tax_identification_numbers: [tin] })), '/data/attributes/sender_tax_identification_numbers/0/foo');
    unknown(await post(deToNl({ items: [item, { ...item, foo: 1 }] })), '/data/attributes/items/1/foo');
    unknown(await post(deToNl({ items: [item], customs: { ...customs, foo: 'x' } })), '/data/attributes/customs/foo');
    unknown(await post(deToNl({ items: [item], physical_properties: { weight: 1500, foo: null } })), '/data/attributes/physical_properties/foo');
    const created = await createShipment(sandbox, w.token, deToNl({ items: [item] }));
    unknown(await patch(created.id, { attributes: { items: [{ ...item, foo: true }] } }), '/data/attributes/items/0/foo');
    unknown(await patch(created.id, { attributes: { customs: { ...customs, foo: 'x' } } }), '/data/attributes/customs/foo');
    unknown(await patch(created.id, { attributes: { physical_properties: { weight: 900, foo: 1 } } }), '/data/attributes/physical_properties/foo');
  });

  it('takes back the read-only members production answers in items, customs and physical_properties, and ignores them', async () => {
    const price = { amount: 100, currency: 'EUR' };
    const created = await createShipment(
      sandbox,
      w.token,
      deToNl({
        items: [{ ...item, tax: price, duty: null }],
        customs: { ...customs, total_tax: price, total_duty: price, payment: { checkout_url: 'https://pay.example', price } },
        physical_properties: { weight: 1500, volumetric_weight: 7 },
      }),
    );
    expect(created.attributes.items).toEqual([item]);
    expect(created.attributes.customs).toEqual(customs);
    expect(created.attributes.physical_properties).not.toHaveProperty('volumetric_weight', 7);
  });

  it("keeps addresses open, as production's are: an unknown member of recipient_address is accepted and not stored", async () => {
    const created = await createShipment(sandbox, w.token, deToNl({ items: [item], recipient_address: { ...recipients.NL, foo: 'x' } }));
    expect(created.attributes.recipient_address).toEqual(recipients.NL);
  });
});

describe('shop', () => {
  it('keeps a shipment in its shop on PATCH: the shop sent back is ignored, a null shop (production has none) is a 400', async () => {
    const shipment = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const sentBack = await patch(shipment.id, { relationships: { shop: shipment.relationships.shop } });
    expect(sentBack.status).toBe(200);
    const nulled = await patch(shipment.id, { relationships: { shop: { data: null } } });
    expect(nulled.status).toBe(400);
    expect(firstError(nulled).source.pointer).toBe('/data/relationships/shop/data');
    expect((await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data.relationships.shop.data.id).toBe(shipment.relationships.shop.data.id);
  });
});
