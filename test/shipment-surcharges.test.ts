import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody, world, type World } from './support/shipments.js';

let sandbox: TestSandbox;
let w: World;
let service: Json;
let contract: Json;
let coverage: Json;
beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
  // DPD Classic within Germany on the broker's contract: its rate has a fuel surcharge, an
  // oversize surcharge above 1750 mm and paid options, and the contract offers paid coverage.
  service = w.services.find(
    (s: Json) =>
      s.attributes.code === 'dpd-classic' &&
      s.attributes.regions_from.some((r: Json) => r.country_code === 'DE') &&
      s.attributes.regions_to.some((r: Json) => r.country_code === 'DE'),
  );
  contract = w.contracts.find((c: Json) => c.attributes.name === 'DPD (broker)');
  const coverages = (await sandbox.get(`/contracts/${contract.id}?include=liability_coverages`, w.token)).body.included;
  coverage = coverages.find((c: Json) => c.attributes.price.amount > 0);
});

const parcel = { weight: 2000, length: 1800, width: 300, height: 300 };
const optionRefs = (...codes: string[]) => ({ data: codes.map((code) => ({ type: 'service-options', id: w.option(code).id })) });

/** A German DPD shipment with every kind of surcharge: fuel, oversize, two paid options and coverage. */
const fullBody = () =>
  shipmentBody({
    shop: w.shopIn('DE'),
    recipient: recipients.DE,
    service,
    contract,
    attributes: { physical_properties: parcel },
    relationships: {
      service_options: optionRefs('proof-of-delivery:age-check-18', 'delivery-window:saturday'),
      liability_coverage: { data: { type: 'liability-coverages', id: coverage.id } },
    },
  });

const surchargesOf = async (shipmentId: string, token = w.token) =>
  (await sandbox.get(`/shipments/${shipmentId}/surcharges?page[size]=100`, token)).body.data as Json[];
const feeSum = (rows: Json[]) => rows.reduce((sum, row) => sum + row.fee.amount, 0);

describe('shipment surcharges', () => {
  it('are the parts of the price on top of the base rate: base rate plus fees is the price', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const rate = (await sandbox.get(`/service-rates?filter[service]=${service.id}&filter[contract]=${contract.id}&filter[weight]=${parcel.weight}`, w.token))
      .body.data[0];
    const offered = (code: string) => rate.relationships.service_options.data.find((o: Json) => o.id === w.option(code).id).meta.price.amount;
    const rows = await surchargesOf(created.id);
    const fees = Object.fromEntries(rows.map((row) => [row.attributes.name, row.attributes.fee]));
    const eur = (amount: number) => ({ amount, currency: 'EUR' });
    expect(fees).toEqual({
      'Fuel surcharge': eur(rate.attributes.fuel_surcharge.amount),
      'Oversize surcharge': eur(rate.attributes.oversize_surcharge.amount),
      [w.option('proof-of-delivery:age-check-18').attributes.name]: eur(offered('proof-of-delivery:age-check-18')),
      [w.option('delivery-window:saturday').attributes.name]: eur(offered('delivery-window:saturday')),
      [coverage.attributes.name]: eur(coverage.attributes.price.amount),
    });
    expect(rate.attributes.price.amount + feeSum(rows.map((row) => row.attributes))).toBe(created.attributes.price.amount);
    for (const row of rows) {
      expect(row.relationships.shipment.data).toEqual({ type: 'shipments', id: created.id });
      expect(row.attributes).toMatchObject({ created_at: created.attributes.created_at, updated_at: created.attributes.created_at });
    }
    expect(rows.find((row) => row.attributes.name === 'Oversize surcharge').attributes.description).toContain('1800 mm');
  });

  it("are the shipment's shipment_surcharges relationship and can be included", async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const rows = await surchargesOf(created.id);
    expect(created.relationships.shipment_surcharges.data).toEqual(rows.map((row) => ({ type: 'shipment-surcharges', id: row.id })));
    const read = await sandbox.get(`/shipments/${created.id}?include=shipment_surcharges`, w.token);
    expect(read.body.included.map((r: Json) => r.id)).toEqual(rows.map((row) => row.id));
    const one = await sandbox.get(`/shipments/${created.id}/surcharges/${rows[0].id}?include=shipment`, w.token);
    expect(one.body.data).toEqual(rows[0]);
    expect(one.body.included.map((r: Json) => r.id)).toEqual([created.id]);
    const top = await sandbox.get(`/shipment-surcharges/${rows[0].id}`, w.token);
    expect(top.body.data).toEqual(rows[0]);
    expect(top.body.data.links.self).toBe(`http://sandbox.test/shipment-surcharges/${rows[0].id}`);
  });

  it('are computed again when the price is: kept rows keep their id, gone ones are removed', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const before = await surchargesOf(created.id);
    await sandbox.advance(60);
    const patch = (data: Json) =>
      sandbox.request('PATCH', `/shipments/${created.id}`, { token: w.token, body: { data: { type: 'shipments', id: created.id, ...data } } });
    const smaller = await patch({
      attributes: { physical_properties: { weight: 2000, length: 400 } },
      relationships: { service_options: { data: [] }, liability_coverage: { data: null } },
    });
    expect(smaller.status).toBe(200);
    const after = await surchargesOf(created.id);
    expect(after.map((row) => row.attributes.name)).toEqual(['Fuel surcharge']);
    expect(after[0].id).toBe(before.find((row) => row.attributes.name === 'Fuel surcharge').id);
    expect(after[0].attributes.updated_at).toBe(before[0].attributes.updated_at);
    const rate = (await sandbox.get(`/service-rates?filter[service]=${service.id}&filter[contract]=${contract.id}&filter[weight]=2000`, w.token)).body.data[0];
    expect(rate.attributes.price.amount + after[0].attributes.fee.amount).toBe(smaller.body.data.attributes.price.amount);
    for (const gone of before.filter((row) => row.id !== after[0].id)) expect((await sandbox.get(`/shipment-surcharges/${gone.id}`, w.token)).status).toBe(404);
    // Without a service there is no price, so nothing is charged on top of it.
    const unpriced = await patch({ relationships: { service: { data: null }, contract: { data: null } } });
    expect(unpriced.body.data.attributes).not.toHaveProperty('price');
    expect(unpriced.body.data.relationships.shipment_surcharges.data).toEqual([]);
    expect(await surchargesOf(created.id)).toEqual([]);
  });

  it('follow a price that a hook changed on create', async () => {
    const s = await testSandbox();
    const token = await s.token();
    const organization = w.shopIn('DE').relationships.organization.data.id;
    const hook = await s.request('POST', '/hooks', {
      token,
      body: {
        data: {
          type: 'hooks',
          attributes: {
            name: 'Measure the long parcels',
            order: 100,
            active: true,
            trigger: { resource_type: 'shipments', resource_action: 'create', predicates: [] },
            action: { action_type: 'update-resource', values: [{ pointer: '/attributes/physical_properties/length', value: '1800' }] },
          },
          relationships: { owner: { data: { type: 'organizations', id: organization } } },
        },
      },
    });
    expect(hook.status, hook.text).toBe(201);
    const body = fullBody();
    body.data.attributes.physical_properties = { weight: 2000 };
    delete body.data.relationships.service_options;
    delete body.data.relationships.liability_coverage;
    const created = await createShipment(s, token, body);
    expect(created.attributes.physical_properties.length).toBe(1800);
    const rows = (await s.get(`/shipments/${created.id}/surcharges`, token)).body.data;
    expect(rows.map((row: Json) => row.attributes.name)).toEqual(['Fuel surcharge', 'Oversize surcharge']);
    const rate = (await s.get(`/service-rates?filter[service]=${service.id}&filter[contract]=${contract.id}&filter[weight]=2000`, token)).body.data[0];
    expect(rate.attributes.price.amount + feeSum(rows.map((row: Json) => row.attributes))).toBe(created.attributes.price.amount);
  });

  it('go with their shipment when it is deleted', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const rows = await surchargesOf(created.id);
    expect((await sandbox.request('DELETE', `/shipments/${created.id}`, { token: w.token })).status).toBe(204);
    for (const row of rows) expect((await sandbox.get(`/shipment-surcharges/${row.id}`, w.token)).status).toBe(404);
  });
});

describe('reading shipment surcharges', () => {
  it("lists the caller's surcharges only; another tenant's shipment or surcharge is 404", async () => {
    const s = await testSandbox();
    const mine = await world(s);
    const theirs = await world(s, 'other-client');
    const body = fullBody();
    body.data.relationships.shop.data.id = mine.shopIn('DE').id;
    const created = await createShipment(s, mine.token, body);
    const own = (await s.get(`/shipments/${created.id}/surcharges`, mine.token)).body.data;
    const all = await s.get('/shipment-surcharges?include=shipment', mine.token);
    expect(all.body.data.map((row: Json) => row.id)).toEqual(own.map((row: Json) => row.id));
    expect(all.body.meta).toEqual({ total_pages: 1, total_records: own.length });
    expect(all.body.included.map((r: Json) => r.id)).toEqual([created.id]);
    expect((await s.get('/shipment-surcharges', theirs.token)).body.data).toEqual([]);
    for (const path of [`/shipments/${created.id}/surcharges`, `/shipments/${created.id}/surcharges/${own[0].id}`, `/shipment-surcharges/${own[0].id}`]) {
      const answer = await s.get(path, theirs.token);
      expect(answer.status, path).toBe(404);
      expect(firstError(answer).code).toBe('10002');
    }
  });

  it('answers 404 for a surcharge under another shipment, and needs shipments.manage', async () => {
    const a = await createShipment(sandbox, w.token, fullBody());
    const b = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const charge = (await surchargesOf(a.id))[0];
    expect((await sandbox.get(`/shipments/${b.id}/surcharges/${charge.id}`, w.token)).status).toBe(404);
    const shopsOnly = await sandbox.token('sandbox-client', 'shops.manage');
    for (const path of ['/shipment-surcharges', `/shipment-surcharges/${charge.id}`, `/shipments/${a.id}/surcharges`]) {
      expect(firstError(await sandbox.get(path, shopsOnly)).code, path).toBe('14004');
    }
  });

  it('paginates and offers only the shipment include', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const page = await sandbox.get(`/shipments/${created.id}/surcharges?page[size]=2&page[number]=2`, w.token);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.meta).toEqual({ total_pages: 3, total_records: 5 });
    const bad = await sandbox.get(`/shipments/${created.id}/surcharges?include=service`, w.token);
    expect(bad.status).toBe(400);
    expect(firstError(bad).source).toEqual({ parameter: 'include' });
  });
});

describe('surcharges added by hand (POST, PATCH, DELETE /shipment-surcharges)', () => {
  const manual = (shipmentId: string, attributes: Json = {}) => ({
    data: {
      type: 'shipment-surcharges',
      attributes: { name: 'Remote area', description: 'The island is far.', fee: { amount: 750, currency: 'EUR' }, ...attributes },
      relationships: { shipment: { data: { type: 'shipments', id: shipmentId } } },
    },
  });
  const priceOf = async (id: string) => (await sandbox.get(`/shipments/${id}`, w.token)).body.data.attributes.price;

  it('adds one to a shipment: the price follows, and a later recomputation keeps it', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const base = created.attributes.price.amount;
    const added = await sandbox.request('POST', '/shipment-surcharges?include=shipment', { token: w.token, body: manual(created.id) });
    expect(added.status, added.text).toBe(201);
    expect(added.headers.get('location')).toBe(added.body.data.links.self);
    expect(added.body.data.attributes).toMatchObject({ name: 'Remote area', description: 'The island is far.', fee: { amount: 750, currency: 'EUR' } });
    expect(added.body.data.relationships.shipment.data).toEqual({ type: 'shipments', id: created.id });
    expect(added.body.included[0].attributes.price).toEqual({ amount: base + 750, currency: 'EUR' });
    expect(await priceOf(created.id)).toEqual({ amount: base + 750, currency: 'EUR' });
    const rows = await surchargesOf(created.id);
    expect(rows.map((row) => row.id)).toContain(added.body.data.id);

    // Changing the shipment computes its surcharges again; the one added by hand stays, and counts.
    const patched = await sandbox.request('PATCH', `/shipments/${created.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: created.id, relationships: { liability_coverage: { data: null } } } },
    });
    expect(patched.status, patched.text).toBe(200);
    const after = await surchargesOf(created.id);
    expect(after.map((row) => row.id)).toContain(added.body.data.id);
    expect(patched.body.data.attributes.price.amount).toBe(base - coverage.attributes.price.amount + 750);
  });

  it('keeps an empty description sent on create, as an update does', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const added = await sandbox.request('POST', '/shipment-surcharges', { token: w.token, body: manual(created.id, { description: '' }) });
    expect(added.status, added.text).toBe(201);
    expect(added.body.data.attributes.description).toBe('');
    expect((await sandbox.get(`/shipment-surcharges/${added.body.data.id}`, w.token)).body.data.attributes.description).toBe('');
  });

  it('changes and removes one, the price following each time', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const base = created.attributes.price.amount;
    const id = (await sandbox.request('POST', '/shipment-surcharges', { token: w.token, body: manual(created.id) })).body.data.id;
    await sandbox.advance(60);
    const changed = await sandbox.request('PATCH', `/shipment-surcharges/${id}`, {
      token: w.token,
      body: {
        data: {
          type: 'shipment-surcharges',
          id,
          attributes: { fee: { amount: 1000, currency: 'EUR' }, created_at: 1 },
          relationships: { shipment: { data: { type: 'shipments', id: created.id } } },
        },
      },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes).toMatchObject({ name: 'Remote area', fee: { amount: 1000, currency: 'EUR' } });
    expect(changed.body.data.attributes.updated_at).toBe(changed.body.data.attributes.created_at + 60);
    expect(await priceOf(created.id)).toEqual({ amount: base + 1000, currency: 'EUR' });
    // Sent back as read a minute later, it changes nothing: neither it nor its shipment is touched.
    const shipmentBefore = (await sandbox.get(`/shipments/${created.id}`, w.token)).body.data.attributes;
    await sandbox.advance(60);
    const same = await sandbox.request('PATCH', `/shipment-surcharges/${id}`, {
      token: w.token,
      body: { data: { type: 'shipment-surcharges', id, attributes: changed.body.data.attributes } },
    });
    expect(same.body.data.attributes).toEqual(changed.body.data.attributes);
    expect((await sandbox.get(`/shipments/${created.id}`, w.token)).body.data.attributes.updated_at).toBe(shipmentBefore.updated_at);
    const removed = await sandbox.request('DELETE', `/shipment-surcharges/${id}`, { token: w.token });
    expect(removed.status).toBe(204);
    expect(await priceOf(created.id)).toEqual({ amount: base, currency: 'EUR' });
    expect((await sandbox.get(`/shipment-surcharges/${id}`, w.token)).status).toBe(404);
  });

  it('refuses what cannot be: a computed surcharge, another currency, a shipment without a price, another shipment; nothing changes', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const computed = (await surchargesOf(created.id))[0];
    const before = sandbox.store.snapshot();
    const body = (id: string, attributes: Json = {}, shipmentId = created.id) => ({
      data: { type: 'shipment-surcharges', id, attributes, relationships: { shipment: { data: { type: 'shipments', id: shipmentId } } } },
    });
    const patchComputed = await sandbox.request('PATCH', `/shipment-surcharges/${computed.id}`, {
      token: w.token,
      body: body(computed.id, { name: 'Cheaper' }),
    });
    expect(firstError(patchComputed)).toMatchObject({ status: '403', code: '10013' });
    expect(firstError(await sandbox.request('DELETE', `/shipment-surcharges/${computed.id}`, { token: w.token }))).toMatchObject({
      status: '403',
      code: '10013',
    });
    const pounds = await sandbox.request('POST', '/shipment-surcharges', { token: w.token, body: manual(created.id, { fee: { amount: 5, currency: 'GBP' } }) });
    expect(firstError(pounds)).toMatchObject({ status: '422', source: { pointer: '/data/attributes/fee/currency' } });
    const unpriced = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    expect(unpriced.attributes.price).toBeUndefined();
    const noPrice = await sandbox.request('POST', '/shipment-surcharges', { token: w.token, body: manual(unpriced.id) });
    expect(firstError(noPrice)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/shipment/data/id' } });
    const missing = await sandbox.request('POST', '/shipment-surcharges', { token: w.token, body: manual('00000000-0000-4000-8000-000000000000') });
    expect(firstError(missing)).toMatchObject({ status: '404', code: '10002', source: { pointer: '/data/relationships/shipment/data/id' } });
    const closed = await sandbox.request('POST', '/shipment-surcharges', { token: w.token, body: manual(created.id, { colour: 'red' }) });
    expect(firstError(closed)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/colour' } });
    const own = (await sandbox.request('POST', '/shipment-surcharges', { token: w.token, body: manual(created.id) })).body.data.id;
    const moved = await sandbox.request('PATCH', `/shipment-surcharges/${own}`, { token: w.token, body: body(own, {}, unpriced.id) });
    expect(firstError(moved)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/shipment/data/id' } });
    await sandbox.request('DELETE', `/shipment-surcharges/${own}`, { token: w.token });
    // Everything refused left the data as it was, save the shipment made without a price.
    expect(sandbox.store.all('shipmentSurcharges')).toEqual(before.tables.shipmentSurcharges);
  });

  it('takes a fee within 2147483647 cents either way, so that the price stays exact whatever is added and taken away', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const base = created.attributes.price.amount;
    for (const amount of [2_147_483_648, -2_147_483_648, Number.MAX_SAFE_INTEGER]) {
      const refused = await sandbox.request('POST', '/shipment-surcharges', { token: w.token, body: manual(created.id, { fee: { amount, currency: 'EUR' } }) });
      expect(firstError(refused)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/fee/amount' } });
    }
    const ids: string[] = [];
    for (const amount of [2_147_483_647, 250, -250, -2_147_483_647]) {
      const added = await sandbox.request('POST', '/shipment-surcharges', { token: w.token, body: manual(created.id, { fee: { amount, currency: 'EUR' } }) });
      expect(added.status, added.text).toBe(201);
      ids.push(added.body.data.id);
    }
    expect(await priceOf(created.id)).toEqual({ amount: base, currency: 'EUR' });
    const tooLarge = await sandbox.request('PATCH', `/shipment-surcharges/${ids[0]}`, {
      token: w.token,
      body: {
        data: {
          type: 'shipment-surcharges',
          id: ids[0],
          attributes: { fee: { amount: 2 ** 40, currency: 'EUR' } },
          relationships: { shipment: { data: { type: 'shipments', id: created.id } } },
        },
      },
    });
    expect(firstError(tooLarge)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/fee/amount' } });
    for (const id of ids.slice(1)) expect((await sandbox.request('DELETE', `/shipment-surcharges/${id}`, { token: w.token })).status).toBe(204);
    expect(await priceOf(created.id)).toEqual({ amount: base + 2_147_483_647, currency: 'EUR' });
  });

  it('refuses a fee that would take the price below zero', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const base = created.attributes.price.amount;
    const below = await sandbox.request('POST', '/shipment-surcharges', {
      token: w.token,
      body: manual(created.id, { fee: { amount: -base - 1, currency: 'EUR' } }),
    });
    expect(firstError(below)).toMatchObject({ status: '422', code: '10008', source: { pointer: '/data/attributes/fee/amount' } });
    const all = await sandbox.request('POST', '/shipment-surcharges', {
      token: w.token,
      body: manual(created.id, { fee: { amount: -base, currency: 'EUR' } }),
    });
    expect(all.status, all.text).toBe(201);
    expect(await priceOf(created.id)).toEqual({ amount: 0, currency: 'EUR' });
    const id = all.body.data.id;
    const further = await sandbox.request('PATCH', `/shipment-surcharges/${id}`, {
      token: w.token,
      body: {
        data: {
          type: 'shipment-surcharges',
          id,
          attributes: { fee: { amount: -base - 1, currency: 'EUR' } },
          relationships: { shipment: { data: { type: 'shipments', id: created.id } } },
        },
      },
    });
    expect(firstError(further)).toMatchObject({ status: '422', source: { pointer: '/data/attributes/fee/amount' } });
    expect(await priceOf(created.id)).toEqual({ amount: 0, currency: 'EUR' });
    // A fee the discount leans on cannot go first; the discount can, and then the fee.
    const fee = await sandbox.request('POST', '/shipment-surcharges', { token: w.token, body: manual(created.id, { fee: { amount: 100, currency: 'EUR' } }) });
    const deeper = await sandbox.request('PATCH', `/shipment-surcharges/${id}`, {
      token: w.token,
      body: {
        data: {
          type: 'shipment-surcharges',
          id,
          attributes: { fee: { amount: -base - 100, currency: 'EUR' } },
          relationships: { shipment: { data: { type: 'shipments', id: created.id } } },
        },
      },
    });
    expect(deeper.status, deeper.text).toBe(200);
    const leaned = await sandbox.request('DELETE', `/shipment-surcharges/${fee.body.data.id}`, { token: w.token });
    expect(firstError(leaned)).toMatchObject({ status: '422', code: '10008' });
    expect(await priceOf(created.id)).toEqual({ amount: 0, currency: 'EUR' });
    expect((await sandbox.request('DELETE', `/shipment-surcharges/${id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.request('DELETE', `/shipment-surcharges/${fee.body.data.id}`, { token: w.token })).status).toBe(204);
    expect(await priceOf(created.id)).toEqual({ amount: base, currency: 'EUR' });
  });

  it('refuses a change of the shipment that would leave its price, with the discounts added by hand, below zero', async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const base = created.attributes.price.amount;
    const discount = await sandbox.request('POST', '/shipment-surcharges', {
      token: w.token,
      body: manual(created.id, { fee: { amount: -base, currency: 'EUR' } }),
    });
    expect(discount.status, discount.text).toBe(201);
    const cheaper = await sandbox.request('PATCH', `/shipments/${created.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: created.id, relationships: { service_options: { data: [] } } } },
    });
    expect(firstError(cheaper)).toMatchObject({ status: '422', code: '10008' });
    expect(firstError(cheaper).detail).toContain(`(${-base} cents)`);
    expect(await priceOf(created.id)).toEqual({ amount: 0, currency: 'EUR' });
    const ids = (await sandbox.get(`/shipments/${created.id}`, w.token)).body.data.relationships.service_options.data.map((o: Json) => o.id);
    expect(ids).toHaveLength(2);
  });

  it("are the finance department's: finance.manage, as production; another tenant's shipment or surcharge is 404", async () => {
    const created = await createShipment(sandbox, w.token, fullBody());
    const shipmentsOnly = await sandbox.token('sandbox-client', 'shipments.manage organizations.manage shops.manage');
    expect(firstError(await sandbox.request('POST', '/shipment-surcharges', { token: shipmentsOnly, body: manual(created.id) }))).toMatchObject({
      status: '403',
      code: '14004',
    });
    const finance = await sandbox.token('sandbox-client', 'finance.manage');
    const id = (await sandbox.request('POST', '/shipment-surcharges', { token: finance, body: manual(created.id) })).body.data.id;
    const other = await sandbox.token('other-client');
    expect(firstError(await sandbox.request('POST', '/shipment-surcharges', { token: other, body: manual(created.id) }))).toMatchObject({
      status: '404',
      source: { pointer: '/data/relationships/shipment/data/id' },
    });
    expect((await sandbox.request('DELETE', `/shipment-surcharges/${id}`, { token: other })).status).toBe(404);
    expect((await sandbox.request('DELETE', `/shipment-surcharges/${id}`, { token: finance })).status).toBe(204);
  });
});
