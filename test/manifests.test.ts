import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json } from './support/app.js';
import { carrierSetup, collectionBody, createCollection, HOUR, MONDAY, rpc } from './support/collections.js';
import { readPdf } from './support/pdf.js';
import { parseCsv } from './returns/support.js';
import { hookBody } from './support/matrix.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

/** POST /manifests, GET /manifests[/{id}], their documents, and POST /create-manifest-for-collection when it cannot make one. */

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const nl = carrierSetup(w, 'NL', 'postnl-parcel-business');
  const parcel = (attributes: Json = { register_at: TEST_NOW }, setup = nl) =>
    createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: setup.shop,
        recipient: recipients[setup.shop.attributes.sender_address.country_code as 'NL'],
        service: setup.service,
        contract: setup.contract,
        attributes,
      }),
    );
  const body = (shipmentIds: string[], extra: { relationships?: Json; meta?: Json } = {}) => ({
    data: {
      type: 'manifests',
      attributes: { name: 'Evening run', address: nl.shop.attributes.sender_address },
      relationships: { shipments: { data: shipmentIds.map((id) => ({ type: 'shipments', id })) }, ...extra.relationships },
    },
    ...(extra.meta ? { meta: extra.meta } : {}),
  });
  const post = (b: Json, token = w.token) => sandbox.request('POST', '/manifests', { token, body: b });
  const status = async (id: string) =>
    (await sandbox.get(`/shipments/${id}?include=shipment_status.status`, w.token)).body.included.find((r: Json) => r.type === 'statuses').attributes.code;
  return { sandbox, w, nl, parcel, body, post, status };
}

describe('POST /manifests', () => {
  it('lists registered shipments with a PDF and a CSV document; owner, contract and shipments related', async () => {
    const { sandbox, w, nl, parcel, body, post, status } = await setup();
    const a = await parcel();
    const b = await parcel();
    await sandbox.advance(5);
    const answer = await post(body([a.id, b.id]));
    expect(answer.status, answer.text).toBe(201);
    const manifest = answer.body.data;
    expect(answer.headers.get('location')).toBe(manifest.links.self);
    expect(manifest.attributes).toEqual({ name: 'Evening run', address: nl.shop.attributes.sender_address, created_at: TEST_NOW + 5 });
    expect(manifest.relationships.owner.data).toEqual({ type: 'shops', id: nl.shop.id });
    expect(manifest.relationships.contract.data.id).toBe(nl.contract.id);
    expect(manifest.relationships.shipments.data.map((s: Json) => s.id)).toEqual([a.id, b.id]);
    expect(await status(a.id)).toBe('shipment-registered');

    const read = await sandbox.get(`/manifests/${manifest.id}?include=files,contract.carrier,owner`, w.token);
    expect(read.body.data).toEqual(manifest);
    expect(read.body.included.map((r: Json) => r.type).sort()).toEqual(['carriers', 'contracts', 'files', 'shops']);
    const file = read.body.included.find((r: Json) => r.type === 'files');
    expect(file.attributes).toMatchObject({
      document_type: 'manifest',
      formats: [
        { extension: 'pdf', mime_type: 'application/pdf' },
        { extension: 'csv', mime_type: 'text/csv' },
      ],
    });
    expect(file.links.self).toBe(`http://sandbox.test/files/${file.id}`);
    expect((await sandbox.get('/manifests', w.token)).body.data.map((m: Json) => m.id)).toEqual([manifest.id]);
    // The shipment names its manifest, and include=manifest (a path production documents) embeds it.
    const listed = await sandbox.get(`/shipments/${a.id}?include=manifest`, w.token);
    expect(listed.body.data.relationships.manifest.data).toEqual({ type: 'manifests', id: manifest.id });
    expect(listed.body.included.map((r: Json) => `${r.type}:${r.id}`)).toEqual([`manifests:${manifest.id}`]);

    const download = (accept: string) =>
      sandbox.app.request(`http://sandbox.test/manifests/${manifest.id}/files/${file.id}`, { headers: { authorization: `Bearer ${w.token}`, accept } });
    const pdf = Buffer.from(await (await download('application/pdf')).arrayBuffer());
    const text = readPdf(pdf)
      .map((page) => page.text)
      .join(' ')
      .replace(/\s+/g, ' ');
    const codes = await Promise.all([a, b].map(async (s) => (await sandbox.get(`/shipments/${s.id}`, w.token)).body.data.attributes.tracking_code));
    for (const code of codes) expect(text).toContain(code);
    expect(text).toContain('Total: 2 shipments, 3.00 kg');
    const csv = await download('text/csv');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect((await csv.text()).split('\r\n')).toEqual([
      'tracking_code,recipient,destination,service,weight_g',
      ...codes.map((code) => `${code},Anna de Vries,1012 PH Amsterdam NL,PostNL Business Parcel (collected),1500`),
      '',
    ]);
    expect((await download('image/png')).status).toBe(406);
    // Negotiated by q-value (RFC 9110), not by the order listed; q=0 refuses a type.
    for (const [accept, type] of [
      ['application/pdf;q=0.1, text/csv', 'text/csv; charset=utf-8'],
      ['text/*', 'text/csv; charset=utf-8'],
      ['*/*;q=0.5, application/pdf;q=0', 'text/csv; charset=utf-8'],
      ['text/csv;q=0.3, */*', 'application/pdf'],
    ]) {
      expect((await download(accept!)).headers.get('content-type'), accept).toBe(type);
    }
    expect((await download('application/pdf;q=0, text/csv;q=0')).status).toBe(406);
    const wrongFile = await sandbox.get(`/manifests/${manifest.id}/files/${manifest.id}`, w.token);
    expect(firstError(wrongFile)).toMatchObject({ status: '404', code: '10002' });
  });

  it('keeps the deprecated shop relationship sent beside an organization owner', async () => {
    const { sandbox, w, nl, parcel, body, post } = await setup();
    const a = await parcel();
    await sandbox.advance(5);
    const organizationId = (await sandbox.get('/organizations', w.token)).body.data[0].id;
    const answer = await post(
      body([a.id], {
        relationships: {
          owner: { data: { type: 'organizations', id: organizationId } },
          shop: { data: { type: 'shops', id: nl.shop.id } },
        },
      }),
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.relationships.owner.data).toEqual({ type: 'organizations', id: organizationId });
    expect(answer.body.data.relationships.shop.data).toEqual({ type: 'shops', id: nl.shop.id });
    expect((await sandbox.get(`/manifests/${answer.body.data.id}`, w.token)).body.data.relationships.shop.data.id).toBe(nl.shop.id);
  });

  it('meta.update_shipment_statuses hands the shipments over at once', async () => {
    const { sandbox, parcel, body, post, status } = await setup();
    const a = await parcel();
    await sandbox.advance(5);
    const answer = await post(body([a.id], { meta: { update_shipment_statuses: true } }));
    expect(answer.status, answer.text).toBe(201);
    expect(await status(a.id)).toBe('shipment-received-by-carrier');
  });

  it('lists the colli of a multi-colli master named alone, and hands them over with it', async () => {
    const { sandbox, w, body, post, status } = await setup();
    const service = w.service('postnl-multi-colli', 'NL');
    const multi = shipmentBody({
      shop: w.shopIn('NL'),
      service,
      contract: w.contractFor(service),
      meta: { colli: [1000, 2000, 500].map((weight) => ({ physical_properties: { weight } })) },
    });
    delete multi.data.attributes.physical_properties;
    const made = await sandbox.request('POST', '/multi-colli-shipments', { token: w.token, body: multi });
    expect(made.status, made.text).toBe(201);
    const master = made.body.data.id as string;
    const colli = made.body.data.relationships.colli.data.map((c: Json) => c.id) as string[];
    const answer = await post(body([master], { meta: { update_shipment_statuses: true } }));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.relationships.shipments.data.map((s: Json) => s.id)).toEqual([master, ...colli]);
    for (const id of [master, ...colli]) expect(await status(id), id).toBe('shipment-received-by-carrier');
    // A collo named after its master is on the list once, not twice.
    const again = await post(body([master, colli[1]!]));
    expect(again.status, again.text).toBe(201);
    expect(again.body.data.relationships.shipments.data.map((s: Json) => s.id)).toEqual([master, ...colli]);
  });

  it('names each shipment it cannot list, and makes nothing', async () => {
    const { sandbox, w, parcel, body, post } = await setup();
    const fine = await parcel();
    const concept = await parcel({});
    const voided = await parcel();
    const dpd = await parcel(undefined, carrierSetup(w, 'NL', 'dpd-classic'));
    await sandbox.advance(5);
    expect((await rpc(sandbox, w.token, '/void-shipment', { shipment_id: voided.id })).status).toBe(204);
    const before = sandbox.store.snapshot();
    const answer = await post(body([fine.id, concept.id, voided.id, fine.id, '00000000-0000-4000-8000-000000000000', dpd.id]));
    expect(answer.status).toBe(422);
    const byPointer = Object.fromEntries(answer.body.errors.map((e: Json) => [e.source.pointer, e.detail]));
    expect(byPointer).toEqual({
      '/data/relationships/shipments/data/1/id': expect.stringMatching(/shipment-concept: only registered shipments/),
      '/data/relationships/shipments/data/2/id': expect.stringMatching(/voided/),
      '/data/relationships/shipments/data/3/id': expect.stringMatching(/listed more than once/),
      '/data/relationships/shipments/data/4/id': expect.stringMatching(/No shipment with id/),
      '/data/relationships/shipments/data/5/id': expect.stringMatching(/another contract than the manifest/),
    });
    const empty = await post(body([]));
    expect(firstError(empty).source.pointer).toBe('/data/relationships/shipments');
    const broker = await post(body([fine.id], { relationships: { owner: { data: { type: 'brokers', id: w.contracts[0].relationships.owner.data.id } } } }));
    expect(firstError(broker).source.pointer).toBe('/data/relationships/owner/data/type');
    const otherShop = await post(body([fine.id], { relationships: { owner: { data: { type: 'shops', id: w.shopIn('DE').id } } } }));
    expect(firstError(otherShop)).toMatchObject({
      source: { pointer: '/data/relationships/shipments/data/0/id' },
      detail: expect.stringMatching(/another shop/),
    });
    const scopeless = await sandbox.request('POST', '/manifests', { token: await sandbox.token('sandbox-client', 'shops.manage'), body: body([fine.id]) });
    expect(firstError(scopeless)).toMatchObject({ status: '403', code: '14004' });
    expect(sandbox.store.snapshot()).toEqual(before);
    // shipments.manage is what it takes.
    expect((await post(body([fine.id]), await sandbox.token('limited-client'))).status).toBe(201);
  });
});

describe("a shipment's manifest relationship", () => {
  it('is the manifest that lists it: a client sending another is ignored, a hook pointing there is refused and says what sets it', async () => {
    const { sandbox, w, parcel, body, post } = await setup();
    const listed = await parcel();
    await sandbox.advance(5);
    const made = (await post(body([listed.id]))).body.data;
    const manifestOf = async (id: string) => (await sandbox.get(`/shipments/${id}`, w.token)).body.data.relationships.manifest?.data;
    expect(await manifestOf(listed.id)).toEqual({ type: 'manifests', id: made.id });

    // Production's contract has it writable, but only registered shipments go on a manifest and a
    // manifest never changes once made: a concept shipment sending one (the only kind a client may
    // still change) stays on none, and the manifest's list stays as it was.
    const manifest = { data: { type: 'manifests', id: made.id } };
    const concept = await parcel({});
    const patched = await sandbox.request('PATCH', `/shipments/${concept.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: concept.id, relationships: { manifest } } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.relationships.manifest?.data).toBeUndefined();
    const madeNow = (await sandbox.get(`/manifests/${made.id}`, w.token)).body.data;
    expect(madeNow.relationships.shipments.data.map((s: Json) => s.id)).toEqual([listed.id]);

    const organizationId = (await sandbox.get('/organizations', w.token)).body.data[0].id;
    const hook = await sandbox.request('POST', '/hooks', {
      token: w.token,
      body: hookBody({ type: 'organizations', id: organizationId }, 'manifest', [{ pointer: '/relationships/manifest/data/id', value: made.id }]),
    });
    expect(firstError(hook)).toMatchObject({
      status: '422',
      source: { pointer: '/data/attributes/action/values/0/pointer' },
      detail: expect.stringContaining('set when one is made (POST /manifests, POST /create-manifest-for-collection)'),
    });
  });
});

describe('the manifest CSV', () => {
  it('writes a cell that a spreadsheet would run (= + - @ tab CR first) as text: quoted, after an apostrophe', async () => {
    const { sandbox, w, nl, body, post } = await setup();
    const names = ['=HYPERLINK("http://evil.test","x")', '+SUM(1,2)', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1', 'Anna'];
    const made = [];
    for (const first_name of names) {
      const recipient = { ...recipients.NL, first_name };
      made.push(
        await createShipment(
          sandbox,
          w.token,
          shipmentBody({ shop: nl.shop, recipient, service: nl.service, contract: nl.contract, attributes: { register_at: TEST_NOW } }),
        ),
      );
    }
    await sandbox.advance(5);
    const answer = await post(body(made.map((s) => s.id)));
    expect(answer.status, answer.text).toBe(201);
    const file = (await sandbox.get(`/manifests/${answer.body.data.id}?include=files`, w.token)).body.included[0];
    const download = await sandbox.app.request(`http://sandbox.test${new URL(file.links.self).pathname}`, {
      headers: { authorization: `Bearer ${w.token}`, accept: 'text/csv' },
    });
    const text = await download.text();
    const lines = text.split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(names.length);
    // The raw cells: each dangerous one quoted, its quotes doubled, an apostrophe in front.
    expect(lines.map((line) => line.slice(line.indexOf(',') + 1, line.indexOf(',1012 PH'))).slice(0, 4)).toEqual([
      '"\'=HYPERLINK(""http://evil.test"",""x"") de Vries"',
      '"\'+SUM(1,2) de Vries"',
      '"\'-2+3 de Vries"',
      '"\'@SUM(A1) de Vries"',
    ]);
    expect(text).toContain(',"\'\t=1+1 de Vries",');
    expect(text).toContain(',"\'\r=1+1 de Vries",');
    expect(text).toContain(',Anna de Vries,');
    // Read as CSV, every name is there, text after its apostrophe; the weights stay numbers.
    const rows = parseCsv(text).slice(1);
    expect(rows.map((row) => row[1])).toEqual(names.map((name) => (name === 'Anna' ? 'Anna de Vries' : `'${name} de Vries`)));
    expect(rows.map((row) => row[4])).toEqual(names.map(() => '1500'));
  });
});

describe('a tenant reset', () => {
  it('removes the manifests, their files and the collections the tenant made, and only those', async () => {
    const { sandbox, w, nl, parcel, body, post } = await setup();
    const seededCollections = (await sandbox.get('/collections?page[size]=100', w.token)).body.data.map((row: Json) => row.id).sort();
    const other = await sandbox.token('other-client');
    const othersCollections = (await sandbox.get('/collections?page[size]=100', other)).body.data.map((row: Json) => row.id).sort();
    const a = await parcel();
    await sandbox.advance(5);
    const manifest = await post(body([a.id]));
    expect(manifest.status, manifest.text).toBe(201);
    const collection = await createCollection(sandbox, w.token, collectionBody(nl.shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 12 * HOUR }));

    const reset = await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: 'sandbox-client' } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.removed).toMatchObject({ manifests: 1, manifest_files: 1 });
    expect(reset.body.removed.collections).toBeGreaterThanOrEqual(1);
    const token = await sandbox.token();
    expect((await sandbox.get(`/manifests/${manifest.body.data.id}`, token)).status).toBe(404);
    const collections = (await sandbox.get('/collections?page[size]=100', token)).body.data.map((row: Json) => row.id);
    expect(collections).not.toContain(collection.id);
    expect(collections.sort()).toEqual(seededCollections);
    expect((await sandbox.get('/collections?page[size]=100', other)).body.data.map((row: Json) => row.id).sort()).toEqual(othersCollections);
  });
});

describe('POST /create-manifest-for-collection', () => {
  it("lists a multi-colli shipment's parcels once: its colli in number order, not the master that weighs them all", async () => {
    const { sandbox, w } = await setup();
    const shop = w.shopIn('NL');
    const service = w.service('postnl-multi-colli', 'NL');
    const contract = w.contractFor(service);
    const collection = await createCollection(
      sandbox,
      w.token,
      collectionBody(shop, { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR }, { contract, register: true }),
    );
    const multi = shipmentBody({
      shop,
      service,
      contract,
      meta: { colli: [1000, 2000, 500].map((weight) => ({ physical_properties: { weight } })) },
      relationships: { collection: { data: { type: 'collections', id: collection.id } } },
    });
    delete multi.data.attributes.physical_properties;
    const made = await sandbox.request('POST', '/multi-colli-shipments', { token: w.token, body: multi });
    expect(made.status, made.text).toBe(201);
    const master = made.body.data;
    const colli = master.relationships.colli.data as Json[];
    const answer = await rpc(sandbox, w.token, '/create-manifest-for-collection', { collection_id: collection.id });
    expect(answer.status, answer.text).toBe(200);
    const manifest = answer.body.data;
    // Every shipment of the collection is on the manifest; the document counts the parcels.
    expect(manifest.relationships.shipments.data.map((s: Json) => s.id)).toEqual([master.id, ...colli.map((c) => c.id)]);
    const url = `http://sandbox.test/manifests/${manifest.id}/files/${manifest.relationships.files.data[0].id}`;
    const download = (accept: string) => sandbox.app.request(url, { headers: { authorization: `Bearer ${w.token}`, accept } });
    const csv = (await (await download('text/csv')).text()).split('\r\n');
    expect(csv.slice(1, -1).map((line) => line.split(',').filter((_, i) => i === 0 || i === 4))).toEqual(
      colli.map((c, index) => [c.meta.tracking_code, String([1000, 2000, 500][index])]),
    );
    const pdf = readPdf(Buffer.from(await (await download('application/pdf')).arrayBuffer()))
      .map((page) => page.text)
      .join(' ')
      .replace(/\s+/g, ' ');
    expect(pdf).toContain('Total: 3 shipments, 3.50 kg');
  });

  it('lists shipments made in the same second in the order they were made, not the order they joined', async () => {
    const { sandbox, w, nl, parcel } = await setup();
    const collection = await createCollection(
      sandbox,
      w.token,
      collectionBody(nl.shop, { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR }, { contract: nl.contract, register: true }),
    );
    // The sandbox clock stands still between moves: all six are made in one second, labelled a little later.
    const made: string[] = [];
    for (let i = 0; i < 6; i++) made.push((await parcel({ register_at: TEST_NOW + 5 })).id);
    const joining = [...made].reverse();
    expect((await rpc(sandbox, w.token, '/add-shipments-to-collection', { collection_id: collection.id, shipment_ids: joining })).status).toBe(204);
    await sandbox.advance(10);
    const answer = await rpc(sandbox, w.token, '/create-manifest-for-collection', { collection_id: collection.id });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.relationships.shipments.data.map((s: Json) => s.id)).toEqual(made);
  });

  it('refuses an unknown, empty or voided collection, and one without registered shipments (naming each)', async () => {
    const { sandbox, w, nl, parcel } = await setup();
    const make = (collectionId: string) => rpc(sandbox, w.token, '/create-manifest-for-collection', { collection_id: collectionId });
    const collection = await createCollection(
      sandbox,
      w.token,
      collectionBody(nl.shop, { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR }, { contract: nl.contract, register: true }),
    );
    const before = sandbox.store.snapshot();
    const empty = await make(collection.id);
    expect(firstError(empty)).toMatchObject({ status: '422', source: { pointer: '/data/collection_id' }, detail: expect.stringMatching(/has no shipments/) });
    const unknown = await make('00000000-0000-4000-8000-000000000000');
    expect(firstError(unknown).detail).toMatch(/No collection with id/);
    expect(sandbox.store.snapshot()).toEqual(before);
    const a = await parcel({});
    const b = await parcel({});
    expect((await rpc(sandbox, w.token, '/add-shipments-to-collection', { collection_id: collection.id, shipment_ids: [a.id, b.id] })).status).toBe(204);
    const unregistered = await make(collection.id);
    expect(unregistered.status).toBe(422);
    expect(unregistered.body.errors.map((e: Json) => e.detail)).toEqual([expect.stringContaining(a.id), expect.stringContaining(b.id)]);
    expect((await sandbox.request('DELETE', `/collections/${collection.id}`, { token: w.token })).status).toBe(204);
    expect(firstError(await make(collection.id)).detail).toMatch(/collection-voided/);
    // Production leaves `data` open: a member it does not know is dropped, and the collection is still voided.
    const extra = await rpc(sandbox, w.token, '/create-manifest-for-collection', { collection_id: collection.id, name: 'x' });
    expect(extra.status).toBe(422);
    expect(extra.body.errors.map((e: Json) => e.source.pointer)).toEqual(['/data/collection_id']);
    expect(sandbox.store.all('manifests')).toEqual([]);
  });
});
