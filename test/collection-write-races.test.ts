import { describe, expect, it } from 'vitest';
import { resourceKeys, testSandbox, TEST_NOW, type Json } from './support/app.js';
import { carrierSetup, collectionBody, createCollection, HOUR, MONDAY, rpc } from './support/collections.js';
import { gatedPersistence } from './support/gated.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

// PATCH /collections, POST /create-manifest-for-collection and POST /manifests are acknowledged once
// their change is durable. While one waits for the disk, another request changes what its answer
// would show; the answer must still describe what its own write left, relationships and included alike.

async function setup() {
  const gated = gatedPersistence();
  const sandbox = await testSandbox({ persistence: gated.persistence });
  const w = await world(sandbox);
  const nl = carrierSetup(w, 'NL', 'postnl-parcel-business');
  const collection = await createCollection(
    sandbox,
    w.token,
    collectionBody(nl.shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 12 * HOUR }, { contract: nl.contract }),
  );
  // Registered at once (a tracking code after the registration delay), in the collection.
  const shipment = await createShipment(
    sandbox,
    w.token,
    shipmentBody({
      shop: nl.shop,
      recipient: recipients.NL,
      service: nl.service,
      contract: nl.contract,
      attributes: { register_at: TEST_NOW },
      relationships: { collection: { data: { type: 'collections', id: collection.id } } },
    }),
  );
  await sandbox.advance(5);
  const resetTenant = () => sandbox.request('POST', '/_sandbox/reset', { body: { client_id: 'sandbox-client' } });
  return { sandbox, w, nl, collection, shipment, race: gated.race, resetTenant };
}

const ids = (linkage: Json[] = []) => linkage.map((resource) => resource.id);

describe('PATCH /collections/{id} while its write waits for the disk', () => {
  it('answers the changed collection with the shipments in it, though a DELETE removed it meanwhile', async () => {
    const { sandbox, w, collection, shipment, race } = await setup();
    const [patched, deleted] = await race(
      () =>
        sandbox.request('PATCH', `/collections/${collection.id}`, {
          token: w.token,
          body: { data: { type: 'collections', id: collection.id, attributes: { description: 'Back door' } } },
        }),
      () => sandbox.request('DELETE', `/collections/${collection.id}`, { token: w.token }),
    );
    expect(deleted.status, deleted.text).toBe(204);
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.attributes.description).toBe('Back door');
    expect(ids(patched.body.data.relationships.shipments.data)).toEqual([shipment.id]);
  });

  it('marked collected, answers no manifest file, though a manifest was made for it meanwhile', async () => {
    const { sandbox, w, collection, race } = await setup();
    const collected = { data: { type: 'statuses', id: sandbox.store.all('statuses').find((s) => s.code === 'collection-collected')!.id } };
    const [patched, manifest] = await race(
      () =>
        sandbox.request('PATCH', `/collections/${collection.id}?include=manifest`, {
          token: w.token,
          body: { data: { type: 'collections', id: collection.id, relationships: { status: collected } } },
        }),
      () => rpc(sandbox, w.token, '/create-manifest-for-collection', { collection_id: collection.id }),
    );
    expect(manifest.status, manifest.text).toBe(200);
    expect(patched.status, patched.text).toBe(200);
    // As the PATCH left it, the collection had no manifest: neither its `manifest` nor its `files` name one.
    expect(patched.body.data.relationships.manifest?.data ?? null).toBeNull();
    expect(patched.body.data.relationships.files.data).toEqual([]);
  });
});

describe('POST /collections while its write waits for the disk', () => {
  it('answers the new collection with the shipment it took in, though a DELETE removed the shipment meanwhile', async () => {
    const { sandbox, w, nl, race } = await setup();
    const concept = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: nl.shop, recipient: recipients.NL, service: nl.service, contract: nl.contract }),
    );
    const body = collectionBody(nl.shop, { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR }, { contract: nl.contract });
    body.data.relationships.shipments = { data: [{ type: 'shipments', id: concept.id }] };
    const [created, deleted] = await race(
      () => sandbox.request('POST', '/collections', { token: w.token, body }),
      () => sandbox.request('DELETE', `/shipments/${concept.id}`, { token: w.token }),
    );
    expect(deleted.status, deleted.text).toBe(204);
    expect(created.status, created.text).toBe(201);
    expect(ids(created.body.data.relationships.shipments.data)).toEqual([concept.id]);
  });
});

describe('a manifest made while its write waits for the disk', () => {
  it('POST /create-manifest-for-collection answers the manifest with its file, though a tenant reset removed them meanwhile', async () => {
    const { sandbox, w, collection, shipment, race, resetTenant } = await setup();
    const [made, reset] = await race(() => rpc(sandbox, w.token, '/create-manifest-for-collection', { collection_id: collection.id }), resetTenant);
    expect(reset.status, reset.text).toBe(200);
    expect(made.status, made.text).toBe(200);
    const { relationships } = made.body.data;
    expect(ids(relationships.shipments.data)).toEqual([shipment.id]);
    // Production's answer takes no include; the manifest's document is still named.
    expect(relationships.files.data).toHaveLength(1);
  });

  it('POST /manifests answers the manifest with its file included, though a tenant reset removed them meanwhile', async () => {
    const { sandbox, w, nl, shipment, race, resetTenant } = await setup();
    const body = {
      data: {
        type: 'manifests',
        attributes: { name: 'Evening run', address: nl.shop.attributes.sender_address },
        relationships: { shipments: { data: [{ type: 'shipments', id: shipment.id }] } },
      },
    };
    const [made, reset] = await race(() => sandbox.request('POST', '/manifests?include=files', { token: w.token, body }), resetTenant);
    expect(reset.status, reset.text).toBe(200);
    expect(made.status, made.text).toBe(201);
    const { data, included } = made.body;
    expect(data.relationships.files.data).toHaveLength(1);
    expect(resourceKeys(included)).toEqual([`files:${data.relationships.files.data[0].id}`]);
  });
});
