import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody, world, type World } from './support/shipments.js';

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const carriers = (await sandbox.read('/carriers')).body.data as Json[];
  const carrier = (code: string) => carriers.find((c) => c.attributes.code === code)!;
  return { sandbox, w, carrier };
}

function surchargeBody(carrierId: string, attributes: Json = {}) {
  return {
    data: {
      type: 'carrier-surcharges',
      attributes: { name: 'Peak season', description: 'December peak', fee: { amount: 150, currency: 'EUR' }, ...attributes },
      relationships: { carrier: { data: { type: 'carriers', id: carrierId } } },
    },
  };
}

const create = (sandbox: TestSandbox, w: World, body: Json) => sandbox.request('POST', '/carrier-surcharges', { token: w.token, body });

/** A priced PostNL (or other) shipment of organization A in the Netherlands. */
function parcel(w: World, code = 'postnl-parcel-standard', to = 'NL') {
  const service = w.service(code, to);
  return shipmentBody({ shop: w.shopIn('NL'), recipient: (recipients as Json)[to], service, contract: w.contractFor(service) });
}

async function surchargesOf(sandbox: TestSandbox, w: World, shipmentId: string): Promise<Json[]> {
  return (await sandbox.get(`/shipments/${shipmentId}/surcharges`, w.token)).body.data;
}

describe('carrier surcharges', () => {
  it('are created, read, listed, filtered, changed and removed by their organization', async () => {
    const { sandbox, w, carrier } = await setup();
    const postnl = carrier('postnl');
    const created = await create(sandbox, w, surchargeBody(postnl.id));
    expect(created.status).toBe(201);
    const row = created.body.data;
    expect(created.headers.get('location')).toBe(`http://sandbox.test/carrier-surcharges/${row.id}`);
    expect(row.attributes).toMatchObject({ name: 'Peak season', description: 'December peak', fee: { amount: 150, currency: 'EUR' } });
    expect(row.relationships.carrier.data).toEqual({ type: 'carriers', id: postnl.id });
    await create(sandbox, w, surchargeBody(carrier('dpd').id, { name: 'Handling' }));

    const one = await sandbox.get(`/carrier-surcharges/${row.id}?include=carrier`, w.token);
    expect(one.body.included.map((r: Json) => r.attributes.code)).toEqual(['postnl']);
    expect((await sandbox.get('/carrier-surcharges', w.token)).body.meta.total_records).toBe(2);
    const filtered = await sandbox.get(`/carrier-surcharges?filter[carrier]=${postnl.id}`, w.token);
    expect(filtered.body.data.map((r: Json) => r.id)).toEqual([row.id]);

    const changed = await sandbox.request('PATCH', `/carrier-surcharges/${row.id}`, {
      token: w.token,
      body: {
        data: {
          type: 'carrier-surcharges',
          id: row.id,
          attributes: { fee: { amount: 200, currency: 'EUR' }, description: null },
          relationships: { carrier: { data: { type: 'carriers', id: postnl.id } } },
        },
      },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.attributes).toMatchObject({ name: 'Peak season', fee: { amount: 200, currency: 'EUR' } });
    expect(changed.body.data.attributes.description).toBeUndefined();

    expect((await sandbox.request('DELETE', `/carrier-surcharges/${row.id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.get(`/carrier-surcharges/${row.id}`, w.token)).status).toBe(404);
  });

  it('keep an empty description sent on create, as an update does', async () => {
    const { sandbox, w, carrier } = await setup();
    const created = await create(sandbox, w, surchargeBody(carrier('postnl').id, { description: '' }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.attributes.description).toBe('');
    expect((await sandbox.get(`/carrier-surcharges/${created.body.data.id}`, w.token)).body.data.attributes.description).toBe('');
  });

  it('apply to the shipments of that carrier priced afterwards, as shipment surcharges in the price', async () => {
    const { sandbox, w, carrier } = await setup();
    const before = await createShipment(sandbox, w.token, parcel(w));
    const base = before.attributes.price.amount;
    const fee = (await create(sandbox, w, surchargeBody(carrier('postnl').id))).body.data;

    const after = await createShipment(sandbox, w.token, parcel(w));
    expect(after.attributes.price).toEqual({ amount: base + 150, currency: 'EUR' });
    const lines = await surchargesOf(sandbox, w, after.id);
    expect(lines.map((l: Json) => [l.attributes.name, l.attributes.fee.amount])).toContainEqual(['Peak season', 150]);
    const paid = lines.reduce((sum: number, l: Json) => sum + l.attributes.fee.amount, 0);
    expect(after.relationships.shipment_surcharges.data).toHaveLength(lines.length);
    expect(paid).toBeGreaterThanOrEqual(150);

    // Registered in the request too; another carrier's shipment not.
    const registered = await sandbox.request('POST', '/registered-shipments', { token: w.token, body: parcel(w) });
    expect(registered.body.data.attributes.price.amount).toBe(base + 150);
    const dpd = await createShipment(sandbox, w.token, { ...parcel(w, 'dpd-classic', 'NL') });
    expect((await surchargesOf(sandbox, w, dpd.id)).map((l: Json) => l.attributes.name)).not.toContain('Peak season');

    // A shipment priced before carries it once it is priced again (PATCH); a removed fee no longer applies.
    expect((await surchargesOf(sandbox, w, before.id)).map((l: Json) => l.attributes.name)).not.toContain('Peak season');
    const patched = await sandbox.request('PATCH', `/shipments/${before.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: before.id, attributes: { description: 'priced again' } } },
    });
    expect(patched.body.data.attributes.price.amount).toBe(base + 150);
    await sandbox.request('DELETE', `/carrier-surcharges/${fee.id}`, { token: w.token });
    expect((await createShipment(sandbox, w.token, parcel(w))).attributes.price.amount).toBe(base);
    expect((await surchargesOf(sandbox, w, after.id)).map((l: Json) => l.attributes.name)).toContain('Peak season');
  });

  it('apply only in the currency of the price, and only to their own organization', async () => {
    const { sandbox, w, carrier } = await setup();
    const plain = (await createShipment(sandbox, w.token, parcel(w))).attributes.price.amount;
    await create(sandbox, w, surchargeBody(carrier('postnl').id, { fee: { amount: 99, currency: 'GBP' } }));
    expect((await createShipment(sandbox, w.token, parcel(w))).attributes.price.amount).toBe(plain);

    const b = await world(sandbox, 'other-client');
    await create(sandbox, w, surchargeBody(carrier('royal-mail').id, { fee: { amount: 99, currency: 'GBP' } }));
    const service = b.service('royal-mail-tracked-48', 'GB');
    const theirs = await createShipment(
      sandbox,
      b.token,
      shipmentBody({ shop: b.shopIn('GB'), recipient: recipients.GB, service, contract: b.contractFor(service) }),
    );
    expect((await sandbox.get(`/shipments/${theirs.id}/surcharges`, b.token)).body.data.map((l: Json) => l.attributes.name)).not.toContain('Peak season');
    expect((await sandbox.get('/carrier-surcharges', b.token)).body.data).toEqual([]);
  });

  it('may be a discount, but one that would take a price below zero makes the shipment 422', async () => {
    const { sandbox, w, carrier } = await setup();
    const plain = (await createShipment(sandbox, w.token, parcel(w))).attributes.price.amount;
    const discount = await create(sandbox, w, surchargeBody(carrier('postnl').id, { fee: { amount: -plain, currency: 'EUR' } }));
    expect(discount.status, discount.text).toBe(201);
    expect((await createShipment(sandbox, w.token, parcel(w))).attributes.price).toEqual({ amount: 0, currency: 'EUR' });
    await create(sandbox, w, surchargeBody(carrier('postnl').id, { name: 'Loyalty', fee: { amount: -1, currency: 'EUR' } }));
    const before = sandbox.store.count('shipments');
    const below = await sandbox.request('POST', '/shipments', { token: w.token, body: parcel(w) });
    expect(firstError(below)).toMatchObject({ status: '422', code: '10008', source: { pointer: '/data/relationships/contract/data/id' } });
    expect(firstError(below).detail).toContain('-1 cents');
    expect(sandbox.store.count('shipments')).toBe(before);
  });
});

describe('carrier surcharges refuse', () => {
  it("an unknown carrier, a carrier without a contract, bad fees and another tenant's surcharge", async () => {
    const { sandbox, w, carrier } = await setup();
    const unknown = await create(sandbox, w, surchargeBody('00000000-0000-4000-8000-000000000000'));
    expect(unknown.status).toBe(422);
    expect(firstError(unknown).source).toEqual({ pointer: '/data/relationships/carrier/data/id' });
    // The broker shares a contract of every carrier; without Evri's, Evri is a carrier the organization has no contract with.
    await sandbox.store.transact((tx) => {
      for (const contract of tx.find('contracts', 'carrier_id', carrier('evri').id)) tx.remove('contracts', contract.id);
    });
    const uncontracted = await create(sandbox, w, surchargeBody(carrier('evri').id));
    expect(uncontracted.status).toBe(422);
    expect(firstError(uncontracted).detail).toContain('no contract with Evri');
    const badFee = await create(sandbox, w, surchargeBody(carrier('postnl').id, { fee: { amount: 1.5, currency: 'EUR' } }));
    expect(badFee.status).toBe(400);
    expect(firstError(badFee).source.pointer).toBe('/data/attributes/fee/amount');
    const noName = await create(sandbox, w, surchargeBody(carrier('postnl').id, { name: undefined }));
    expect(noName.status).toBe(400);
    expect(firstError(noName).source.pointer).toBe('/data/attributes/name');
    const wrongType = await create(sandbox, w, { data: { ...surchargeBody(carrier('postnl').id).data, type: 'shipment-surcharges' } });
    expect(wrongType.status).toBe(409);

    const mine = (await create(sandbox, w, surchargeBody(carrier('postnl').id))).body.data;
    const other = await sandbox.token('other-client');
    expect((await sandbox.get(`/carrier-surcharges/${mine.id}`, other)).status).toBe(404);
    expect((await sandbox.request('DELETE', `/carrier-surcharges/${mine.id}`, { token: other })).status).toBe(404);
    const patch = await sandbox.request('PATCH', `/carrier-surcharges/${mine.id}`, {
      token: other,
      body: {
        data: {
          type: 'carrier-surcharges',
          id: mine.id,
          attributes: { name: 'x' },
          relationships: { carrier: { data: { type: 'carriers', id: carrier('postnl').id } } },
        },
      },
    });
    expect(patch.status).toBe(404);
    expect((await sandbox.get(`/carrier-surcharges/${mine.id}`, w.token)).body.data.attributes.name).toBe('Peak season');
  });
});
