import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { hookBody } from './support/matrix.js';
import { createShipment, recipients, shipmentBody, world, type World } from './support/shipments.js';

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const service = w.service('postnl-parcel-standard', 'NL');
  const concept = (extra: { shop?: Json; contract?: Json; service?: Json; recipient?: Json } = {}) =>
    createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: extra.shop ?? w.shopIn('NL'),
        recipient: extra.recipient,
        service: extra.service ?? service,
        contract: extra.contract ?? w.contractFor(service),
      }),
    );
  return { sandbox, w, service, concept };
}

const consolidate = (sandbox: TestSandbox, w: World, data: Json) =>
  sandbox.request('POST', '/consolidate-shipments', { token: w.token, body: { data }, headers: { 'content-type': 'application/json' } });

/** The consolidation shipment each shipment points at now. */
function links(sandbox: TestSandbox, ids: string[]): (string | undefined)[] {
  return ids.map((id) => sandbox.store.get('shipments', id)?.consolidation_shipment_id);
}

describe('POST /consolidate-shipments', () => {
  it('links the shipments to the consolidation shipment, which becomes one', async () => {
    const { sandbox, w, concept } = await setup();
    const hub = await concept();
    const first = await concept();
    const second = await concept();
    const answer = await consolidate(sandbox, w, { consolidation_shipment_id: hub.id, shipment_ids: [first.id, second.id] });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    const child = (await sandbox.get(`/shipments/${first.id}?include=consolidation_shipment`, w.token)).body;
    expect(child.data.relationships.consolidation_shipment.data).toEqual({ type: 'shipments', id: hub.id });
    expect(child.included.map((r: Json) => r.id)).toEqual([hub.id]);
    const listed = (await sandbox.get(`/shipments?filter[consolidation_shipment]=${hub.id}`, w.token)).body.data.map((s: Json) => s.id);
    expect(listed.sort()).toEqual([first.id, second.id].sort());
    expect((await sandbox.get(`/shipments/${hub.id}`, w.token)).body.data.attributes.is_consolidation).toBe(true);
  });

  it('moves a shipment from one consolidation shipment to another', async () => {
    const { sandbox, w, concept } = await setup();
    const [a, b, child] = [await concept(), await concept(), await concept()];
    expect((await consolidate(sandbox, w, { consolidation_shipment_id: a.id, shipment_ids: [child.id] })).status).toBe(204);
    expect((await consolidate(sandbox, w, { consolidation_shipment_id: b.id, shipment_ids: [child.id] })).status).toBe(204);
    expect(links(sandbox, [child.id])).toEqual([b.id]);
  });
});

describe('DELETE of a consolidation shipment', () => {
  it('leaves its shipments without the relationship, changed now', async () => {
    const { sandbox, w, concept } = await setup();
    const hub = await concept();
    const member = await concept();
    expect((await consolidate(sandbox, w, { consolidation_shipment_id: hub.id, shipment_ids: [member.id] })).status).toBe(204);
    await sandbox.advance(60);
    expect((await sandbox.request('DELETE', `/shipments/${hub.id}`, { token: w.token })).status).toBe(204);
    const after = (await sandbox.get(`/shipments/${member.id}`, w.token)).body.data;
    expect(after.relationships).not.toHaveProperty('consolidation_shipment');
    expect(after.attributes.updated_at).toBe(sandbox.clock.now());
  });
});

describe('POST /consolidate-shipments refuses, changing nothing', () => {
  it('a shipment of another shop or another contract, a registered one, itself and one named twice, each at its index', async () => {
    const { sandbox, w, concept } = await setup();
    const hub = await concept();
    const fine = await concept();
    const otherShop = await concept({
      shop: w.shopIn('DE'),
      recipient: recipients.DE,
      service: w.service('dpd-classic', 'DE'),
      contract: w.contractFor(w.service('dpd-classic', 'DE')),
    });
    const registered = await sandbox.request('POST', '/registered-shipments', {
      token: w.token,
      body: shipmentBody({
        shop: w.shopIn('NL'),
        service: w.service('postnl-parcel-standard', 'NL'),
        contract: w.contractFor(w.service('postnl-parcel-standard', 'NL')),
      }),
    });
    const ids = [fine.id, otherShop.id, registered.body.data.id, hub.id, fine.id];
    const answer = await consolidate(sandbox, w, { consolidation_shipment_id: hub.id, shipment_ids: ids });
    expect(answer.status).toBe(422);
    const pointers = answer.body.errors.map((e: Json) => e.source.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/data/shipment_ids/1', '/data/shipment_ids/2', '/data/shipment_ids/3', '/data/shipment_ids/4']));
    expect(pointers).not.toContain('/data/shipment_ids/0');
    expect(answer.body.errors.find((e: Json) => e.source.pointer === '/data/shipment_ids/1').detail).toContain('another shop');
    expect(links(sandbox, [fine.id, otherShop.id])).toEqual([undefined, undefined]);
    expect(sandbox.store.get('shipments', hub.id)?.is_consolidation).toBeUndefined();
  });

  it('a shipment on another contract of the same carrier', async () => {
    const { sandbox, w, concept } = await setup();
    const dpd = w.service('dpd-classic', 'DE');
    const [standard, economy] = ['DPD (broker)', 'DPD Economy (broker)'].map((name) => w.contracts.find((c: Json) => c.attributes.name === name));
    const shop = w.shopIn('DE');
    const hub = await concept({ shop, recipient: recipients.DE, service: dpd, contract: standard });
    const other = await concept({ shop, recipient: recipients.DE, service: dpd, contract: economy });
    const answer = await consolidate(sandbox, w, { consolidation_shipment_id: hub.id, shipment_ids: [other.id] });
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ source: { pointer: '/data/shipment_ids/0' } });
    expect(firstError(answer).detail).toContain('another contract');
  });

  it("a consolidation shipment that is registered, consolidated itself, or not the caller's", async () => {
    const { sandbox, w, concept, service } = await setup();
    const child = await concept();
    const registered = await sandbox.request('POST', '/registered-shipments', {
      token: w.token,
      body: shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service) }),
    });
    const onRegistered = await consolidate(sandbox, w, { consolidation_shipment_id: registered.body.data.id, shipment_ids: [child.id] });
    expect(onRegistered.status).toBe(422);
    expect(firstError(onRegistered).source).toEqual({ pointer: '/data/consolidation_shipment_id' });

    const [top, middle] = [await concept(), await concept()];
    expect((await consolidate(sandbox, w, { consolidation_shipment_id: top.id, shipment_ids: [middle.id] })).status).toBe(204);
    const nested = await consolidate(sandbox, w, { consolidation_shipment_id: middle.id, shipment_ids: [child.id] });
    expect(firstError(nested).source).toEqual({ pointer: '/data/consolidation_shipment_id' });
    const parentOfOthers = await concept();
    const chain = await consolidate(sandbox, w, { consolidation_shipment_id: parentOfOthers.id, shipment_ids: [top.id] });
    expect(firstError(chain).source).toEqual({ pointer: '/data/shipment_ids/0' });

    const other = await world(sandbox, 'other-client');
    const theirs = await createShipment(sandbox, other.token, shipmentBody({ shop: other.shopIn('GB'), recipient: recipients.GB }));
    const foreignHub = await consolidate(sandbox, w, { consolidation_shipment_id: theirs.id, shipment_ids: [child.id] });
    expect(foreignHub.status).toBe(422);
    expect(firstError(foreignHub).source).toEqual({ pointer: '/data/consolidation_shipment_id' });
    const foreignChild = await consolidate(sandbox, w, { consolidation_shipment_id: child.id, shipment_ids: [theirs.id] });
    expect(firstError(foreignChild).source).toEqual({ pointer: '/data/shipment_ids/0' });
    expect(sandbox.store.get('shipments', theirs.id)?.consolidation_shipment_id).toBeUndefined();
  });

  it("another service when the consolidation shipment's service consolidates strictly", async () => {
    const { sandbox, w, concept, service } = await setup();
    await sandbox.store.transact((tx) => tx.update('services', service.id, { strict_consolidation: true }));
    const hub = await concept();
    const same = await concept();
    const business = w.service('postnl-parcel-business', 'NL');
    const other = await concept({ service: business, contract: w.contractFor(business) });
    const answer = await consolidate(sandbox, w, { consolidation_shipment_id: hub.id, shipment_ids: [same.id, other.id] });
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((e: Json) => e.source.pointer)).toEqual(['/data/shipment_ids/1']);
    expect((await consolidate(sandbox, w, { consolidation_shipment_id: hub.id, shipment_ids: [same.id] })).status).toBe(204);
  });

  it('no shipments, or no consolidation shipment (400)', async () => {
    const { sandbox, w, concept } = await setup();
    const hub = await concept();
    const none = await consolidate(sandbox, w, { consolidation_shipment_id: hub.id, shipment_ids: [] });
    expect(none.status).toBe(400);
    expect(firstError(none).source).toEqual({ pointer: '/data/shipment_ids' });
    // The README's bound: 1 to 100 shipments in one request.
    const tooMany = await consolidate(sandbox, w, { consolidation_shipment_id: hub.id, shipment_ids: Array<string>(101).fill(hub.id) });
    expect(tooMany.status).toBe(400);
    expect(firstError(tooMany).source).toEqual({ pointer: '/data/shipment_ids' });
    const missing = await consolidate(sandbox, w, { shipment_ids: [hub.id] });
    expect(missing.status).toBe(400);
    expect(firstError(missing).source).toEqual({ pointer: '/data/consolidation_shipment_id' });
  });
});

describe('a hook that consolidates new shipments', () => {
  // Production's contract has consolidation_shipment writable, as a client's request sets it: a
  // hook may set it too, under the rules a client's request meets.
  it('takes a pointer at consolidation_shipment and links each new shipment, or logs why not', async () => {
    const { sandbox, w, concept } = await setup();
    const hub = await concept();
    const ownHub = await concept();
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
    const hook = await sandbox.request('POST', '/hooks', {
      token: w.token,
      body: hookBody({ type: 'organizations', id: organization.id }, 'consolidate', [
        { pointer: '/relationships/consolidation_shipment/data/id', value: hub.id },
      ]),
    });
    expect(hook.status).toBe(201);
    const member = await concept();
    expect(member.relationships.consolidation_shipment.data).toEqual({ type: 'shipments', id: hub.id });
    const listed = (await sandbox.get(`/shipments?filter[consolidation_shipment]=${hub.id}`, w.token)).body.data.map((s: Json) => s.id);
    expect(listed).toEqual([member.id]);
    // A hook never overwrites: a shipment that names its own consolidation shipment keeps it.
    const own = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), relationships: { consolidation_shipment: { data: { type: 'shipments', id: ownHub.id } } } }),
    );
    expect(own.relationships.consolidation_shipment.data.id).toBe(ownHub.id);

    // One level deep, as for a client: once the hub is itself consolidated, the hook changes nothing.
    const top = await concept();
    await sandbox.store.transact((tx) => tx.update('shipments', hub.id, { consolidation_shipment_id: top.id }));
    const refused = await concept();
    expect(refused.relationships.consolidation_shipment).toBeUndefined();
    const logs = (await sandbox.get(`/hooks/${hook.body.data.id}/logs`, w.token)).body.data;
    expect(logs.some((log: Json) => log.attributes.errors?.some((e: string) => e.includes('one level deep')))).toBe(true);
  });
});
