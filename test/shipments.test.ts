import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { createShipment, customsContent, recipients, shipmentBody, world, type World } from './support/shipments.js';

let sandbox: TestSandbox;
let w: World;
beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
});

const post = (body: Json, token = w.token, headers: Record<string, string> = {}) => sandbox.request('POST', '/shipments', { token, body, headers });
const pointersOf = (answer: Json) => answer.body.errors.map((e: Json) => e.source?.pointer).sort();

describe('creating a shipment', () => {
  it('creates a concept with the computed volumetric weight and no price before a service is chosen', async () => {
    const body = shipmentBody({
      shop: w.shopIn('NL'),
      attributes: { physical_properties: { weight: 1200, length: 400, width: 300, height: 200, volumetric_weight: 1 } },
    });
    const answer = await post(body);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBe(answer.body.data.links.self);
    const { attributes, relationships } = answer.body.data;
    expect(attributes.physical_properties).toEqual({ weight: 1200, length: 400, width: 300, height: 200, volumetric_weight: 4800 });
    expect(attributes).not.toHaveProperty('price');
    expect(attributes.created_at).toBe(TEST_NOW);
    // Empty to-ones are left out, as production leaves them out.
    for (const empty of ['service', 'contract', 'consolidation_shipment', 'multi_colli_shipment', 'manifest']) expect(relationships).not.toHaveProperty(empty);
    expect(relationships.colli.data).toEqual([]);
    expect(relationships.shipment_surcharges.data).toEqual([]);
    expect(attributes.sync_active).toBe(false);
    const status = await sandbox.get(new URL(relationships.shipment_status.links.related).pathname + '?include=status', w.token);
    expect(status.body.included[0].attributes.code).toBe('shipment-concept');
    expect(answer.body.data.links.files).toBe(`${answer.body.data.links.self}/files`);
    expect(answer.body).not.toHaveProperty('meta');
  });

  it('prices a shipment from its rate, with options and liability coverage', async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const contract = w.contractFor(service);
    const rates = await sandbox.get(`/service-rates?filter[service]=${service.id}&filter[contract]=${contract.id}&filter[weight]=1500`, w.token);
    const rate = rates.body.data[0];
    const base = rate.attributes.price?.amount ?? rate.meta.bracket_price.amount;
    const fuel = rate.attributes.fuel_surcharge?.amount ?? 0;
    const plain = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), service, contract }));
    expect(plain.attributes.price).toEqual({ amount: base + fuel, currency: contract.attributes.currency });
    const paid = rate.relationships.service_options.data.find((o: Json) => !o.meta.included && o.meta.price);
    const coverage = (await sandbox.get(`/contracts/${contract.id}?include=liability_coverages`, w.token)).body.included[0];
    const full = await createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: w.shopIn('NL'),
        service,
        contract,
        relationships: {
          service_options: { data: paid ? [{ type: 'service-options', id: paid.id }] : [] },
          liability_coverage: { data: { type: 'liability-coverages', id: coverage.id } },
        },
      }),
    );
    expect(full.attributes.price.amount).toBe(base + fuel + (paid?.meta.price.amount ?? 0) + coverage.attributes.price.amount);
  });

  it('adds the price a dynamic rate gives a chosen option to the carrier price of the parcel', async () => {
    const service = w.service('dhl-express-worldwide', 'GB');
    const contract = w.contractFor(service);
    const option = w.option('proof-of-delivery:insured');
    const parcel = { weight: 2500 };
    const quoted = await sandbox.request('POST', '/get-dynamic-service-rates', {
      token: w.token,
      body: {
        data: {
          type: 'shipments',
          attributes: { sender_address: w.shopIn('NL').attributes.sender_address, recipient_address: recipients.GB, physical_properties: parcel },
          relationships: {
            service: { data: { type: 'services', id: service.id } },
            contract: { data: { type: 'contracts', id: contract.id } },
            shop: { data: { type: 'shops', id: w.shopIn('NL').id } },
          },
        },
      },
    });
    const [rate] = quoted.body.data;
    const offered = rate.relationships.service_options.data.find((o: Json) => o.id === option.id);
    expect(offered.meta).toMatchObject({ included: false, price: { currency: 'EUR' } });
    const created = await createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: w.shopIn('NL'),
        recipient: recipients.GB,
        service,
        contract,
        attributes: { ...customsContent, physical_properties: parcel },
        relationships: { service_options: { data: [{ type: 'service-options', id: option.id, meta: { values: { amount: 10000 } } }] } },
      }),
    );
    const fuel = rate.attributes.fuel_surcharge?.amount ?? 0;
    expect(created.attributes.price).toEqual({ amount: rate.attributes.price.amount + offered.meta.price.amount + fuel, currency: 'EUR' });
  });

  it('picks the service and the cheapest active contract from meta.service_code', async () => {
    const body = shipmentBody({
      shop: w.shopIn('NL'),
      recipient: recipients.DE,
      attributes: { physical_properties: { weight: 2000 }, ...customsContent },
      meta: { service_code: 'dpd-classic' },
    });
    const created = await createShipment(sandbox, w.token, body);
    const service = w.services.find((s: Json) => s.id === created.relationships.service.data.id);
    expect(service.attributes.code).toBe('dpd-classic');
    const rates = await sandbox.get(`/service-rates?filter[service]=${service.id}&filter[weight]=2000&filter[has_active_contract]=true`, w.token);
    const cheapest = rates.body.data.reduce((a: Json, b: Json) =>
      (a.attributes.price?.amount ?? Infinity) <= (b.attributes.price?.amount ?? Infinity) ? a : b,
    );
    expect(rates.body.data.length).toBeGreaterThan(1);
    expect(created.relationships.contract.data.id).toBe(cheapest.relationships.contract.data.id);
  });

  it('picks, from meta.service_code, the cheapest contract whose rate offers the chosen options', async () => {
    const option = w.option('delivery-window:scheduled');
    const body = shipmentBody({
      shop: w.shopIn('NL'),
      attributes: { physical_properties: { weight: 1000 } },
      relationships: { service_options: { data: [{ type: 'service-options', id: option.id, meta: { values: { date: '2026-12-01' } } }] } },
      meta: { service_code: 'dpd-classic' },
    });
    const service = w.service('dpd-classic', 'NL');
    const rates = (await sandbox.get(`/service-rates?filter[service]=${service.id}&filter[weight]=1000&filter[has_active_contract]=true`, w.token)).body.data;
    const offers = (rate: Json) => rate.relationships.service_options.data.some((o: Json) => o.id === option.id);
    const byPrice = [...rates].sort((a: Json, b: Json) => a.attributes.price.amount - b.attributes.price.amount);
    // The cheapest rate does not offer the option: it was chosen, and the shipment refused for the option.
    expect(offers(byPrice[0])).toBe(false);
    const offering = byPrice.find(offers);
    const created = await createShipment(sandbox, w.token, body);
    expect(created.relationships.service.data.id).toBe(service.id);
    expect(created.relationships.contract.data.id).toBe(offering.relationships.contract.data.id);
    const optionPrice = offering.relationships.service_options.data.find((o: Json) => o.id === option.id).meta.price.amount;
    const fuel = offering.attributes.fuel_surcharge?.amount ?? 0;
    expect(created.attributes.price).toEqual({ amount: offering.attributes.price.amount + optionPrice + fuel, currency: 'EUR' });
  });

  it("picks, from meta.service_code, the chosen liability coverage's contract", async () => {
    const service = w.service('dpd-classic', 'NL');
    const rates = (await sandbox.get(`/service-rates?filter[service]=${service.id}&filter[weight]=1000&filter[has_active_contract]=true`, w.token)).body.data;
    const byPrice = [...rates].sort((a: Json, b: Json) => a.attributes.price.amount - b.attributes.price.amount);
    // The dearer contract's coverage: the cheaper contract was chosen, and the coverage refused as another contract's.
    const dearer = byPrice[byPrice.length - 1].relationships.contract.data.id;
    expect(byPrice[0].relationships.contract.data.id).not.toBe(dearer);
    const coverage = (await sandbox.get(`/contracts/${dearer}?include=liability_coverages`, w.token)).body.included[0];
    const created = await createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: w.shopIn('NL'),
        attributes: { physical_properties: { weight: 1000 } },
        relationships: { liability_coverage: { data: { type: 'liability-coverages', id: coverage.id } } },
        meta: { service_code: 'dpd-classic' },
      }),
    );
    expect(created.relationships.contract.data.id).toBe(dearer);
    expect(created.relationships.liability_coverage.data.id).toBe(coverage.id);
  });

  it('still makes the shipment, without service and contract, when meta.service_code resolves to nothing (as production documents)', async () => {
    const body = shipmentBody({ shop: w.shopIn('NL'), attributes: { register_at: TEST_NOW }, meta: { service_code: 'pigeon-post' } });
    const unknown = await post(body);
    expect(unknown.status).toBe(201);
    expect(unknown.body.data.relationships).not.toHaveProperty('service');
    expect(unknown.body.data.relationships).not.toHaveProperty('contract');
    expect(unknown.body.meta.warnings).toEqual([
      { code: 'service-code-not-resolved', detail: expect.stringContaining("'pigeon-post'"), source: { pointer: '/meta/service_code' } },
    ]);
    // A code that exists but does not ship the route is no different.
    const elsewhere = await post({ ...body, meta: { service_code: 'royal-mail-tracked-48' } });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.meta.warnings[0].detail).toContain('ships from NL to NL');
    // Without a service it stays a concept, register_at or not.
    await sandbox.advance(60);
    const status = await sandbox.get(`/shipments/${unknown.body.data.id}?include=shipment_status.status`, w.token);
    expect(status.body.included.find((r: Json) => r.type === 'statuses').attributes.code).toBe('shipment-concept');
    // A contract the body names still counts, and is still checked.
    const contract = w.contractFor(w.service('postnl-parcel-standard', 'NL'));
    const withContract = (id: string) => shipmentBody({ shop: w.shopIn('NL'), contract: id, meta: { service_code: 'pigeon-post' } });
    const named = await post(withContract(contract.id));
    expect(named.status).toBe(201);
    expect(named.body.data.relationships.contract.data.id).toBe(contract.id);
    expect(named.body.data.relationships).not.toHaveProperty('service');
    const foreign = await post(withContract('00000000-0000-4000-8000-000000000000'));
    expect(firstError(foreign)).toMatchObject({ code: '10008', source: { pointer: '/data/relationships/contract/data/id' } });
  });

  it('computes the total value from the items of an international shipment', async () => {
    const service = w.service('postnl-parcel-international', 'GB');
    const created = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.GB, service, contract: w.contractFor(service), attributes: customsContent }),
    );
    expect(created.attributes.total_value).toEqual({ amount: 2 * 1250 + 300, currency: 'EUR' });
    expect(created.attributes.items).toHaveLength(2);
  });

  it("drops a total value the items made when a PATCH removes or replaces those items, and keeps a total of the client's own", async () => {
    const created = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), attributes: { items: customsContent.items } }));
    expect(created.attributes.total_value).toEqual({ amount: 2 * 1250 + 300, currency: 'EUR' });
    const patch = (attributes: Json) =>
      sandbox.request('PATCH', `/shipments/${created.id}`, { token: w.token, body: { data: { type: 'shipments', id: created.id, attributes } } });
    // Items without a value make no total: the old items' sum no longer describes the parcel.
    const unvalued = await patch({ items: [{ description: 'Paperback novel', quantity: 1 }] });
    expect(unvalued.status).toBe(200);
    expect(unvalued.body.data.attributes).not.toHaveProperty('total_value');
    // A total the client gave stands while no item has a value, whatever the items become.
    const own = await patch({ total_value: { amount: 4000, currency: 'EUR' } });
    expect(own.body.data.attributes.total_value).toEqual({ amount: 4000, currency: 'EUR' });
    const removed = await patch({ items: null });
    expect(removed.body.data.attributes.total_value).toEqual({ amount: 4000, currency: 'EUR' });
    // Valued items make the total again; removing them leaves none.
    const valued = await patch({ items: customsContent.items });
    expect(valued.body.data.attributes.total_value).toEqual({ amount: 2 * 1250 + 300, currency: 'EUR' });
    const gone = await patch({ items: null });
    expect(gone.body.data.attributes).not.toHaveProperty('total_value');
    expect((await sandbox.get(`/shipments/${created.id}`, w.token)).body.data.attributes).not.toHaveProperty('total_value');
  });

  it('refuses items whose values make no total: two currencies, or more cents than a number holds exactly', async () => {
    const service = w.service('postnl-parcel-international', 'GB');
    const [novel, bookmark] = customsContent.items;
    const withItems = (items: Json[]) =>
      shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.GB, service, contract: w.contractFor(service), attributes: { ...customsContent, items } });
    const before = sandbox.store.count('shipments');
    const mixed = await post(withItems([novel, { ...bookmark, item_value: { amount: 300, currency: 'GBP' } }]));
    expect(mixed.status).toBe(422);
    expect(firstError(mixed)).toMatchObject({ code: '10008', source: { pointer: '/data/attributes/items/1/item_value/currency' } });
    expect(firstError(mixed).detail).toContain('items[0] is in EUR, this one in GBP');
    // 1000 x (2^53 - 1) cents was stored as 9007199254740991000, a number no sum of cents gives.
    const huge = await post(withItems([novel, { ...bookmark, quantity: 1000, item_value: { amount: Number.MAX_SAFE_INTEGER, currency: 'EUR' } }]));
    expect(huge.status).toBe(422);
    expect(firstError(huge).source).toEqual({ pointer: '/data/attributes/items/1/item_value/amount' });
    expect(sandbox.store.count('shipments')).toBe(before);
    // Exactly at the bound is still a total.
    const top = Number.MAX_SAFE_INTEGER - 2 * 1250;
    const exact = await post(withItems([novel, { ...bookmark, item_value: { amount: top, currency: 'EUR' } }]));
    expect(exact.status).toBe(201);
    expect(exact.body.data.attributes.total_value).toEqual({ amount: Number.MAX_SAFE_INTEGER, currency: 'EUR' });
  });

  it('accepts a label choice the carrier offers and never echoes meta', async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const answer = await post(
      shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), meta: { label: { mime_type: 'application/zpl', size: 'A6' } } }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).not.toHaveProperty('meta');
    const refused = await post(
      shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), meta: { label: { mime_type: 'image/png', size: 'A4' } } }),
    );
    expect(refused.status).toBe(422);
    expect(firstError(refused).source.pointer).toBe('/meta/label');
    // Production's deprecated meta.label_mime_type (its default application/pdf, e.g. application/zpl) chooses too, is not echoed, and is what a refusal names.
    const byMime = await post(shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), meta: { label_mime_type: 'application/zpl' } }));
    expect(byMime.status).toBe(201);
    expect(byMime.body).not.toHaveProperty('meta');
    const refusedMime = await post(shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), meta: { label_mime_type: 'image/png' } }));
    expect(refusedMime.status).toBe(422);
    expect(firstError(refusedMime).source.pointer).toBe('/meta/label_mime_type');
    const patched = await sandbox.request('PATCH', `/shipments/${byMime.body.data.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: byMime.body.data.id }, meta: { label_mime_type: 'image/png' } },
    });
    expect(firstError(patched).source.pointer).toBe('/meta/label_mime_type');
  });

  it('blames a label format kept from before on the member of a PATCH that chose a carrier without it', async () => {
    const dpd = w.service('dpd-classic', 'NL');
    const postnl = w.service('postnl-parcel-standard', 'NL');
    const png = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), service: dpd, contract: w.contractFor(dpd), meta: { label: { mime_type: 'image/png' } } }),
    );
    const patch = (body: Json) =>
      sandbox.request('PATCH', `/shipments/${png.id}`, { token: w.token, body: { data: { type: 'shipments', id: png.id }, ...body } });
    // PostNL prints no PNG: the update sent no meta.label, so the error names what it did send.
    const byCode = await patch({ meta: { service_code: 'postnl-parcel-standard' } });
    expect(byCode.status).toBe(422);
    expect(firstError(byCode).source).toEqual({ pointer: '/meta/service_code' });
    expect(firstError(byCode).detail).toContain('image/png in A6 (meta.label of an earlier request)');
    const byRelationships = await patch({
      data: {
        type: 'shipments',
        id: png.id,
        relationships: { service: { data: { type: 'services', id: postnl.id } }, contract: { data: { type: 'contracts', id: w.contractFor(postnl).id } } },
      },
    });
    expect(firstError(byRelationships).source).toEqual({ pointer: '/data/relationships/contract/data/id' });
    // With a format PostNL offers the same change goes through, and nothing was changed before.
    expect((await sandbox.get(`/shipments/${png.id}`, w.token)).body.data.relationships.service.data.id).toBe(dpd.id);
    const moved = await patch({ meta: { service_code: 'postnl-parcel-standard', label: { mime_type: 'application/zpl' } } });
    expect(moved.status).toBe(200);
    expect(moved.body.data.relationships.service.data.id).toBe(postnl.id);
  });

  it('blames a rule broken with a relationship kept from before on the member of a PATCH that changed it', async () => {
    const dpd = w.service('dpd-classic', 'NL');
    const postnl = w.service('postnl-parcel-standard', 'NL');
    const dpdContracts = w.contracts.filter(
      (c: Json) => c.attributes.status === 'active' && c.relationships.carrier.data.id === dpd.relationships.carrier.data.id,
    );
    expect(dpdContracts.length).toBeGreaterThan(1);
    const [first, second] = dpdContracts;
    const coverage = first.relationships.liability_coverages.data[0];
    const made = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), service: dpd, contract: first, relationships: { liability_coverage: { data: coverage } } }),
    );
    const patch = (relationships: Json) =>
      sandbox.request('PATCH', `/shipments/${made.id}`, { token: w.token, body: { data: { type: 'shipments', id: made.id, relationships } } });
    // Only the service changed: the kept contract is of another carrier, and the error names the service the request sent.
    const service = await patch({ service: { data: { type: 'services', id: postnl.id } } });
    expect(service.status).toBe(422);
    expect(pointersOf(service)).toEqual(['/data/relationships/service/data/id']);
    // Only the contract changed: the kept coverage is of the other contract, and the error names the contract.
    const contract = await patch({ contract: { data: { type: 'contracts', id: second.id } } });
    expect(contract.status).toBe(422);
    expect(pointersOf(contract)).toEqual(['/data/relationships/contract/data/id']);
    expect(firstError(contract).detail).toContain('liability_coverage');
    // Both named: the coverage the request sent is still the one to blame.
    const both = await patch({ contract: { data: { type: 'contracts', id: second.id } }, liability_coverage: { data: coverage } });
    expect(pointersOf(both)).toEqual(['/data/relationships/liability_coverage/data/id']);
    // Nothing was changed, and the contract moves once the coverage goes with it.
    expect((await sandbox.get(`/shipments/${made.id}`, w.token)).body.data.relationships.contract.data.id).toBe(first.id);
    const moved = await patch({ contract: { data: { type: 'contracts', id: second.id } }, liability_coverage: { data: null } });
    expect(moved.status).toBe(200);
  });

  it("blames a kept weight or route on the member of a PATCH that made it break the service's rules", async () => {
    const dpd = w.service('dpd-classic', 'NL');
    const postnl = w.service('postnl-parcel-standard', 'NL');
    const heavy = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), service: dpd, contract: w.contractFor(dpd), attributes: { physical_properties: { weight: 25000 } } }),
    );
    const patch = (data: Json) =>
      sandbox.request('PATCH', `/shipments/${heavy.id}`, { token: w.token, body: { data: { type: 'shipments', id: heavy.id, ...data } } });
    // PostNL's rates stop below 25 kg: the request changed service and contract, not the weight.
    const carrier = await patch({
      relationships: { service: { data: { type: 'services', id: postnl.id } }, contract: { data: { type: 'contracts', id: w.contractFor(postnl).id } } },
    });
    expect(carrier.status).toBe(422);
    expect(pointersOf(carrier)).toEqual(['/data/relationships/contract/data/id']);
    // A weight the request sends is still blamed itself.
    const weight = await patch({ attributes: { physical_properties: { weight: 99000 } } });
    expect(pointersOf(weight)).toEqual(['/data/attributes/physical_properties/weight']);
    // The kept service ships within the Netherlands only: the request changed the recipient's country.
    const abroad = await patch({ attributes: { recipient_address: recipients.DE, ...customsContent } });
    expect(abroad.status).toBe(422);
    expect(pointersOf(abroad)).toEqual(['/data/attributes/recipient_address/country_code']);
  });

  it('blames the content an international shipment lacks on the address a PATCH sent to take it abroad', async () => {
    // A concept without a service yet, so that no route rule joins in.
    const made = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const patch = (attributes: Json) =>
      sandbox.request('PATCH', `/shipments/${made.id}`, { token: w.token, body: { data: { type: 'shipments', id: made.id, attributes } } });
    // The domestic shipment keeps no customs, items or description: the request sent only the recipient.
    const abroad = await patch({ recipient_address: recipients.DE });
    expect(abroad.status).toBe(422);
    expect([...new Set(pointersOf(abroad))]).toEqual(['/data/attributes/recipient_address/country_code']);
    expect(abroad.body.errors.map((e: Json) => e.detail)).toContain(
      'customs is required for international shipments (sender and recipient in different countries). Send customs too.',
    );
    // Content the request sends is blamed itself, at its member.
    const { customs: _customs, ...withoutCustoms } = customsContent;
    const sent = await patch({ recipient_address: recipients.DE, ...withoutCustoms });
    expect([...new Set(pointersOf(sent))]).toEqual(['/data/attributes/recipient_address/country_code']);
    const empty = await patch({ recipient_address: recipients.DE, ...customsContent, items: [] });
    expect(pointersOf(empty)).toEqual(['/data/attributes/items']);
    expect((await patch({ recipient_address: recipients.DE, ...customsContent })).status).toBe(200);
  });

  it('blames a kept parcel size or missing pickup location on the service a PATCH chose', async () => {
    const standard = w.service('postnl-parcel-standard', 'NL');
    const made = await createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: w.shopIn('NL'),
        service: standard,
        contract: w.contractFor(standard),
        attributes: { physical_properties: { weight: 1500, length: 300, width: 200, height: 100 } },
      }),
    );
    const patch = (data: Json) =>
      sandbox.request('PATCH', `/shipments/${made.id}`, { token: w.token, body: { data: { type: 'shipments', id: made.id, ...data } } });
    const choose = (code: string) => patch({ relationships: { service: { data: { type: 'services', id: w.service(code, 'NL').id } } } });
    // The letterbox rate takes no 100 mm parcel: the request chose the service, not the height.
    const letterbox = await choose('postnl-letterbox-parcel');
    expect(letterbox.status).toBe(422);
    expect(pointersOf(letterbox)).toEqual(['/data/relationships/service/data/id']);
    expect(firstError(letterbox).detail).toContain('Send physical_properties too');
    // A pickup-point service for a shipment that keeps no pickup location.
    const pickup = await choose('postnl-parcel-pickup-point');
    expect(pointersOf(pickup)).toEqual(['/data/relationships/service/data/id']);
    expect(firstError(pickup).detail).toContain('Send pickup_location too.');
    // Sent with the service, the parcel is blamed itself.
    const sent = await patch({
      attributes: { physical_properties: { weight: 1500, length: 300, width: 200, height: 100 } },
      relationships: { service: { data: { type: 'services', id: w.service('postnl-letterbox-parcel', 'NL').id } } },
    });
    expect(pointersOf(sent)).toEqual(['/data/attributes/physical_properties/height']);
  });

  it('blames kept service options the new rate does not offer on the member of a PATCH that changed the rate', async () => {
    const dpd = w.service('dpd-classic', 'NL');
    const saturday = w.option('delivery-window:saturday');
    const rates = (await sandbox.get(`/service-rates?filter[service]=${dpd.id}&page[size]=100`, w.token)).body.data;
    const offers = (contract: Json) =>
      rates.some(
        (rate: Json) => rate.relationships.contract.data.id === contract.id && rate.relationships.service_options.data.some((o: Json) => o.id === saturday.id),
      );
    const active = w.contracts.filter((c: Json) => c.attributes.status === 'active' && c.relationships.carrier.data.id === dpd.relationships.carrier.data.id);
    const [withSaturday, without] = [active.find(offers), active.find((c: Json) => !offers(c))];
    expect(withSaturday && without).toBeTruthy();
    const made = await createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: w.shopIn('NL'),
        service: dpd,
        contract: withSaturday,
        relationships: { service_options: { data: [{ type: 'service-options', id: saturday.id }] } },
      }),
    );
    const patch = (relationships: Json) =>
      sandbox.request('PATCH', `/shipments/${made.id}`, { token: w.token, body: { data: { type: 'shipments', id: made.id, relationships } } });
    const moved = await patch({ contract: { data: { type: 'contracts', id: without.id } } });
    expect(moved.status).toBe(422);
    expect(pointersOf(moved)).toEqual(['/data/relationships/contract/data/id']);
    expect(firstError(moved).detail).toContain('delivery-window:saturday');
    // Options the request sends are blamed themselves, each at its entry.
    const sent = await patch({
      contract: { data: { type: 'contracts', id: without.id } },
      service_options: { data: [{ type: 'service-options', id: saturday.id }] },
    });
    expect(pointersOf(sent)).toEqual(['/data/relationships/service_options/data/0']);
  });

  it("says an option is the shipment's own when its rate stopped offering it and a PATCH changed nothing that chooses the rate", async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const contract = w.contractFor(service);
    const signature = w.option('proof-of-delivery:signature');
    const made = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), service, contract, relationships: { service_options: { data: [{ type: 'service-options', id: signature.id }] } } }),
    );
    // The contract's owner takes the option off the service's rates.
    await sandbox.store.transact((tx) => {
      for (const rate of tx.find('serviceRates', 'contract_id', contract.id).filter((row) => row.service_id === service.id)) {
        tx.update('serviceRates', rate.id, { service_options: rate.service_options.filter((option) => option.service_option_id !== signature.id) });
      }
    });
    const renamed = await sandbox.request('PATCH', `/shipments/${made.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: made.id, attributes: { description: 'Books' } } },
    });
    expect(renamed.status).toBe(422);
    expect(renamed.body.errors.map((e: Json) => [e.source.pointer, e.detail])).toEqual([
      [
        '/data/relationships/service_options/data/0',
        "The shipment's service option 'proof-of-delivery:signature' (entry 0 of its service_options) is no longer offered with its service and contract: send service_options without it.",
      ],
    ]);
  });

  it('is allowed with shipments.manage alone', async () => {
    const limited = await sandbox.token('limited-client');
    expect((await post(shipmentBody({ shop: w.shopIn('NL') }), limited)).status).toBe(201);
    const shopsOnly = await sandbox.token('sandbox-client', 'shops.manage');
    expect(firstError(await post(shipmentBody({ shop: w.shopIn('NL') }), shopsOnly))).toMatchObject({ code: '14004' });
  });
});

describe('bad shipment input', () => {
  const expectRefused = async (body: Json, status: number, pointers: string[]) => {
    const before = sandbox.store.count('shipments');
    const answer = await post(body);
    expect(answer.status, answer.text).toBe(status);
    expect(pointersOf(answer)).toEqual([...pointers].sort());
    expect(sandbox.store.count('shipments')).toBe(before);
    return answer;
  };

  it('names every missing address', async () => {
    const body = shipmentBody({ shop: w.shopIn('NL') });
    delete body.data.attributes.recipient_address;
    delete body.data.attributes.sender_address;
    await expectRefused(body, 400, ['/data/attributes/recipient_address', '/data/attributes/sender_address']);
    const nameless = shipmentBody({ shop: w.shopIn('NL'), recipient: { ...recipients.NL, last_name: undefined } });
    await expectRefused(nameless, 400, ['/data/attributes/recipient_address/last_name']);
  });

  it.each([0, -5, 'heavy', 1.5])('refuses weight %s', async (weight) => {
    const answer = await expectRefused(shipmentBody({ shop: w.shopIn('NL'), attributes: { physical_properties: { weight } } }), 400, [
      '/data/attributes/physical_properties/weight',
    ]);
    expect(firstError(answer).code).toBe('10003');
  });

  it('refuses a register_at past the last date the sandbox can name (9999-12-31T23:59:59Z)', async () => {
    const answer = await expectRefused(shipmentBody({ shop: w.shopIn('NL'), attributes: { register_at: 1e15 } }), 400, ['/data/attributes/register_at']);
    expect(firstError(answer).detail).toContain('253402300799');
  });

  it('refuses an unknown country code', async () => {
    await expectRefused(shipmentBody({ shop: w.shopIn('NL'), recipient: { ...recipients.NL, country_code: 'XX' } }), 400, [
      '/data/attributes/recipient_address/country_code',
    ]);
    await expectRefused(shipmentBody({ shop: w.shopIn('NL'), recipient: { ...recipients.NL, country_code: 'NLD' } }), 400, [
      '/data/attributes/recipient_address/country_code',
    ]);
  });

  it('needs description, items and customs for an international shipment', async () => {
    const service = w.service('postnl-parcel-international', 'GB');
    await expectRefused(shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.GB, service, contract: w.contractFor(service) }), 422, [
      '/data/attributes/customs',
      '/data/attributes/description',
      '/data/attributes/items',
    ]);
  });

  it('names the item member and the invoice number an international shipment lacks', async () => {
    const service = w.service('postnl-parcel-international', 'GB');
    const [first, second] = customsContent.items;
    const { item_value: _value, ...valueless } = first!;
    const { origin_country_code: _origin, ...originless } = second!;
    const attributes = {
      ...customsContent,
      items: [valueless, originless],
      customs: { ...customsContent.customs, content_type: 'merchandise', invoice_number: undefined },
    };
    await expectRefused(shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.GB, service, contract: w.contractFor(service), attributes }), 422, [
      '/data/attributes/customs/invoice_number',
      '/data/attributes/items/0/item_value',
      '/data/attributes/items/1/origin_country_code',
    ]);
  });

  it("takes customs without (or with null) content_type, non_delivery and incoterm, as production's schema does, but an international shipment needs them", async () => {
    // A domestic shipment may carry partial customs: nothing is declared for it.
    const partial = { invoice_number: 'INV-1', content_type: null, non_delivery: null, incoterm: null };
    const domestic = await post(shipmentBody({ shop: w.shopIn('NL'), attributes: { customs: partial } }));
    expect(domestic.status, domestic.text).toBe(201);
    expect(domestic.body.data.attributes.customs).toEqual({ invoice_number: 'INV-1' });
    const service = w.service('postnl-parcel-international', 'GB');
    const attributes = { ...customsContent, customs: { invoice_number: 'INV-2', incoterm: 'DAP' } };
    await expectRefused(shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.GB, service, contract: w.contractFor(service), attributes }), 422, [
      '/data/attributes/customs/content_type',
      '/data/attributes/customs/non_delivery',
    ]);
  });

  it('refuses a service and a contract of different carriers', async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const dpd = w.contracts.find((c: Json) => c.attributes.name.startsWith('DPD') && c.attributes.status === 'active');
    await expectRefused(shipmentBody({ shop: w.shopIn('NL'), service, contract: dpd }), 422, ['/data/relationships/contract/data/id']);
  });

  it('refuses a contract that is not active, and a service that does not ship the route', async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const pending = w.contracts.find((c: Json) => c.attributes.status === 'pending');
    const answer = await expectRefused(shipmentBody({ shop: w.shopIn('NL'), service, contract: pending }), 422, ['/data/relationships/contract/data/id']);
    expect(firstError(answer).detail).toContain('pending');
    await expectRefused(
      shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.DE, service, contract: w.contractFor(service), attributes: customsContent }),
      422,
      ['/data/relationships/service/data/id'],
    );
  });

  it('refuses a service its contract rates at no weight at the service, not at the weight', async () => {
    // Seeded without any rate: no weight would help, so the parcel's weight is not blamed.
    const service = w.service('royal-mail-international-tracked', 'DE');
    const contract = w.contractFor(service);
    const gb = { street_1: 'Oxford Street', street_number: 10, postal_code: 'W1D 1AN', city: 'London', country_code: 'GB' };
    const answer = await expectRefused(
      shipmentBody({
        shop: w.shopIn('NL'),
        recipient: recipients.DE,
        service,
        contract,
        attributes: { ...customsContent, sender_address: gb, return_address: gb },
      }),
      422,
      ['/data/relationships/service/data/id'],
    );
    expect(firstError(answer).detail).toContain(`has no rate for service 'royal-mail-international-tracked' at any weight`);
  });

  it('refuses two options of one category and an option the rate does not offer', async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const contract = w.contractFor(service);
    const rate = (await sandbox.get(`/service-rates?filter[service]=${service.id}&filter[contract]=${contract.id}&filter[weight]=1500`, w.token)).body.data[0];
    const offered = rate.relationships.service_options.data.map((o: Json) => w.options.find((x: Json) => x.id === o.id));
    const byCategory = new Map<string, Json[]>();
    for (const option of w.options) byCategory.set(option.attributes.category, [...(byCategory.get(option.attributes.category) ?? []), option]);
    const [first, second] = byCategory.get('delivery-window')!;
    const options = (list: Json[]) => ({ service_options: { data: list.map((o) => ({ type: 'service-options', id: o.id })) } });
    const answer = await post(shipmentBody({ shop: w.shopIn('NL'), service, contract, relationships: options([first, second]) }));
    expect(answer.status).toBe(422);
    expect(pointersOf(answer)).toContain('/data/relationships/service_options/data/1');
    // The same option twice is said to be given twice, not to take its own category.
    const twice = await post(shipmentBody({ shop: w.shopIn('NL'), service, contract, relationships: options([offered[0], offered[0]]) }));
    expect(twice.status).toBe(422);
    expect(twice.body.errors.map((e: Json) => [e.source.pointer, e.detail])).toEqual([
      ['/data/relationships/service_options/data/1', `Service option '${offered[0].attributes.code}' is given twice (entries 0 and 1): send it once.`],
    ]);
    const notOffered = w.options.find((o: Json) => !offered.some((x: Json) => x?.id === o.id) && !o.attributes.values_format);
    await expectRefused(shipmentBody({ shop: w.shopIn('NL'), service, contract, relationships: options([notOffered]) }), 422, [
      '/data/relationships/service_options/data/0',
    ]);
  });

  it("checks an option's values against its values_format, and takes them only as an object in meta.values (production's identifier meta)", async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const contract = w.contractFor(service);
    const insured = w.options.find((o: Json) => o.attributes.code === 'proof-of-delivery:insured');
    const withMeta = (meta?: Json) =>
      shipmentBody({
        shop: w.shopIn('NL'),
        service,
        contract,
        relationships: { service_options: { data: [{ type: 'service-options', id: insured.id, ...(meta === undefined ? {} : { meta }) }] } },
      });
    const pointer = '/data/relationships/service_options/data/0/meta/values';
    const chosen = await post(withMeta({ values: { amount: 25000 } }));
    expect(chosen.status, chosen.text).toBe(201);
    expect(chosen.body.data.relationships.service_options.data).toEqual([{ type: 'service-options', id: insured.id, meta: { values: { amount: 25000 } } }]);
    await expectRefused(withMeta(), 422, [pointer]);
    await expectRefused(withMeta({ values: { amount: 0 } }), 422, [pointer]);
    // Not an object, or no values in a meta that is sent: refused by the schema, as in production.
    for (const meta of [{ values: '25000' }, { values: [25000] }, { amount: 25000 }]) {
      const answer = await post(withMeta(meta));
      expect([answer.status, firstError(answer).code, firstError(answer).source], JSON.stringify(meta)).toEqual([400, '10003', { pointer }]);
    }
  });

  it('refuses a liability coverage of another contract', async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const other = w.contracts.find((c: Json) => c.attributes.name.startsWith('DPD') && c.relationships.liability_coverages.data.length > 0);
    const coverage = other.relationships.liability_coverages.data[0];
    await expectRefused(
      shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), relationships: { liability_coverage: { data: coverage } } }),
      422,
      ['/data/relationships/liability_coverage/data/id'],
    );
  });

  it('refuses a to-one relationship with an empty id rather than storing the shipment without it', async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const contract = w.contractFor(service);
    const empty = { liability_coverage: 'liability-coverages', service: 'services', contract: 'contracts', collection: 'collections' };
    for (const [name, type] of Object.entries(empty)) {
      const relationships = { [name]: { data: { type, id: '' } } };
      const answer = await post(shipmentBody({ shop: w.shopIn('NL'), service, contract, relationships }));
      expect([answer.status, firstError(answer).code, firstError(answer).source], name).toEqual([
        422,
        '10008',
        { pointer: `/data/relationships/${name}/data/id` },
      ]);
    }
    // On an update too: the coverage the shipment has stays, and the request is told why.
    const coverage = contract.relationships.liability_coverages.data[0];
    const created = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), service, contract, relationships: { liability_coverage: { data: coverage } } }),
    );
    const patched = await sandbox.request('PATCH', `/shipments/${created.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: created.id, relationships: { liability_coverage: { data: { type: 'liability-coverages', id: '' } } } } },
    });
    expect([patched.status, firstError(patched).source]).toEqual([422, { pointer: '/data/relationships/liability_coverage/data/id' }]);
    expect((await sandbox.get(`/shipments/${created.id}`, w.token)).body.data.relationships.liability_coverage.data).toEqual(coverage);
  });

  it('names the contract a liability coverage needs when the shipment has none, and takes the coverage with that contract', async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const contract = w.contractFor(service);
    const coverage = contract.relationships.liability_coverages.data[0];
    const relationships = { liability_coverage: { data: coverage } };
    const alone = await post(shipmentBody({ shop: w.shopIn('NL'), relationships }));
    expect(alone.status, alone.text).toBe(422);
    expect(firstError(alone)).toMatchObject({
      source: { pointer: '/data/relationships/liability_coverage/data/id' },
      detail: `A liability coverage is of one contract: set the shipment's contract ('${contract.attributes.name}', ${contract.id}) as well.`,
    });
    const paired = await post(shipmentBody({ shop: w.shopIn('NL'), service, contract, relationships }));
    expect(paired.status, paired.text).toBe(201);
    expect(paired.body.data.relationships.liability_coverage.data).toEqual(coverage);
  });

  it('refuses another tenant’s shop', async () => {
    const theirs = await world(sandbox, 'other-client');
    await expectRefused(shipmentBody({ shop: theirs.shopIn('GB'), recipient: recipients.GB }), 422, ['/data/relationships/shop/data/id']);
  });

  it('needs a pickup location for a service that delivers to a pickup point', async () => {
    const service = w.service('postnl-parcel-pickup-point', 'NL');
    await expectRefused(shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service) }), 422, ['/data/attributes/pickup_location']);
    const ok = await post(
      shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { pickup_location: { code: '205604' } } }),
    );
    expect(ok.status).toBe(201);
  });

  it('refuses a weight outside every rate', async () => {
    const service = w.service('postnl-letterbox-parcel', 'NL');
    await expectRefused(
      shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { physical_properties: { weight: 900000 } } }),
      422,
      ['/data/attributes/physical_properties/weight'],
    );
  });

  it('names the volumetric weight no rate carries, not the actual weight every rate takes, for a service that charges by volume', async () => {
    const service = w.services.find(
      (s: Json) => s.attributes.code === 'dpd-classic' && s.attributes.uses_volumetric_weight && s.attributes.regions_from[0].country_code === 'NL',
    );
    const contract = w.contractFor(service);
    const physical_properties = { weight: 2000, length: 1700, width: 400, height: 300 };
    const answer = await post(
      shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.DE, service, contract, attributes: { ...customsContent, physical_properties } }),
    );
    expect(answer.status, answer.text).toBe(422);
    expect(firstError(answer).source).toEqual({ pointer: '/data/attributes/physical_properties/weight' });
    const volumetric = Math.ceil(
      (1700 * 400 * 300) / ((service.attributes.volumetric_weight_divisor ?? 5000) * contract.attributes.volumetric_weight_divisor_factor),
    );
    expect(firstError(answer).detail).toBe(
      `No rate of service 'dpd-classic' on this contract carries ${volumetric} g: the service charges the volumetric weight of 1700 x 400 x 300 mm, more than the actual 2000 g.`,
    );
  });

  it('refuses a wrong type with 409 and unknown attributes with 400', async () => {
    const body = shipmentBody({ shop: w.shopIn('NL') });
    const conflict = await post({ data: { ...body.data, type: 'shops' } });
    expect(conflict.status).toBe(409);
    const unknown = await post({ data: { ...body.data, attributes: { ...body.data.attributes, colour: 'red' } } });
    expect(unknown.status).toBe(400);
    expect(firstError(unknown).source.pointer).toBe('/data/attributes/colour');
  });
});

describe('reading shipments', () => {
  it('lists only the caller’s shipments, newest first, and hides others’ behind 404', async () => {
    const s = await testSandbox();
    const mine = await world(s);
    const theirs = await world(s, 'other-client');
    const first = await createShipment(s, mine.token, shipmentBody({ shop: mine.shopIn('NL') }));
    await s.advance(10);
    const second = await createShipment(s, mine.token, shipmentBody({ shop: mine.shopIn('DE'), recipient: recipients.DE }));
    await createShipment(s, theirs.token, shipmentBody({ shop: theirs.shopIn('GB'), recipient: recipients.GB }));
    const list = await s.get('/shipments', mine.token);
    expect(list.body.data.map((x: Json) => x.id)).toEqual([second.id, first.id]);
    expect((await s.get(`/shipments/${first.id}`, theirs.token)).status).toBe(404);
    expect((await s.get(`/shipments/${first.id}`, mine.token)).body.data.id).toBe(first.id);
  });

  it('filters by shop, status, dates, references, channel, carrier, tags and search', async () => {
    const s = await testSandbox();
    const m = await world(s);
    const service = m.service('postnl-parcel-standard', 'NL');
    const a = await createShipment(
      s,
      m.token,
      shipmentBody({
        shop: m.shopIn('NL'),
        service,
        contract: m.contractFor(service),
        attributes: { customer_reference: 'ORDER-1', channel: 'webshop', tags: ['gift', 7], description: 'Blue teapot', register_at: TEST_NOW + 86400 },
      }),
    );
    await s.advance(2 * 86400);
    const t = await s.token();
    const b = await createShipment(
      s,
      t,
      shipmentBody({ shop: m.shopIn('DE'), recipient: recipients.DE, attributes: { customer_reference: 'ORDER-2', channel: 'pos', tags: ['b2b'] } }),
    );
    const ids = async (query: string) => (await s.get(`/shipments?${query}`, t)).body.data.map((x: Json) => x.id);
    expect(await ids(`filter[shop]=${m.shopIn('DE').id}`)).toEqual([b.id]);
    expect(await ids('filter[current_status_code]=shipment-concept')).toEqual([b.id]);
    expect(await ids('filter[current_status_code]=shipment-registered,shipment-concept')).toEqual([b.id, a.id]);
    const day = (offset: number) => new Date((TEST_NOW + offset) * 1000).toISOString().slice(0, 10);
    expect(await ids(`filter[created_at][date_from]=${day(86400)}`)).toEqual([b.id]);
    expect(await ids(`filter[created_at][date_to]=${day(0)}`)).toEqual([a.id]);
    expect(await ids(`filter[created_at][date_to]=${TEST_NOW}`)).toEqual([a.id]);
    expect(await ids(`filter[register_at][date_from]=${day(0)}`)).toEqual([a.id]);
    expect(await ids('filter[customer_reference]=ORDER-2')).toEqual([b.id]);
    expect(await ids('filter[channel]=webshop')).toEqual([a.id]);
    expect(await ids(`filter[carrier]=${service.relationships.carrier.data.id}`)).toEqual([a.id]);
    expect(await ids('filter[tags]=7,b2b')).toEqual([b.id, a.id]);
    expect(await ids('filter[search]=teapot')).toEqual([a.id]);
    expect(await ids('filter[search]=berlin')).toEqual([b.id]);
    const registered = (await s.get(`/shipments/${a.id}`, t)).body.data.attributes.tracking_code;
    expect(await ids(`filter[tracking_code]=${registered}`)).toEqual([a.id]);
    expect((await s.get('/shipments?filter[current_status_code]=shipment-lost', t)).status).toBe(400);
    // Spelt as production's SDK pages spell it: the answer names the hyphenated code (it said only that GET /statuses lists them).
    const underscored = await s.get('/shipments?filter[current_status_code]=shipment_concept', t);
    expect(firstError(underscored)).toMatchObject({ status: '400', source: { parameter: 'filter[current_status_code]' } });
    expect(firstError(underscored).detail).toContain("'shipment-concept'");
    expect((await s.get('/shipments?filter[created_at][date_from]=yesterday', t)).status).toBe(400);
  });

  it('includes its relationships on request', async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const created = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service) }));
    const answer = await sandbox.get(`/shipments/${created.id}?include=shop,service.carrier,contract,shipment_status.status`, w.token);
    const types = answer.body.included.map((r: Json) => r.type).sort();
    expect(types).toEqual(['carriers', 'contracts', 'services', 'shipment-statuses', 'shops', 'statuses']);
  });
});

describe('changing and deleting a shipment', () => {
  it('changes a concept, keeping what is not sent and ignoring read-only fields', async () => {
    const created = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), attributes: { description: 'Old', customer_reference: 'R-1' } }),
    );
    const answer = await sandbox.request('PATCH', `/shipments/${created.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: created.id, attributes: { description: 'New', price: { amount: 1, currency: 'EUR' }, tracking_code: 'X' } } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.attributes).toMatchObject({ description: 'New', customer_reference: 'R-1' });
    expect(answer.body.data.attributes).not.toHaveProperty('tracking_code');
    expect(answer.body.data.attributes).not.toHaveProperty('price');
  });

  it("takes a relationship sent as null (production's schema lets it be) as left out: it neither sets nor unlinks", async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    const contract = w.contractFor(service);
    const nulls = { service: null, contract: null, service_options: null, liability_coverage: null, consolidation_shipment: null };
    const concept = await post(shipmentBody({ shop: w.shopIn('NL'), relationships: nulls }));
    expect(concept.status, concept.text).toBe(201);
    for (const name of ['service', 'contract', 'liability_coverage', 'consolidation_shipment'])
      expect(concept.body.data.relationships).not.toHaveProperty(name);
    const priced = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), service, contract }));
    const patched = await sandbox.request('PATCH', `/shipments/${priced.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: priced.id, attributes: { description: 'Kept links' }, relationships: nulls } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data.relationships.service.data.id).toBe(service.id);
    expect(patched.body.data.relationships.contract.data.id).toBe(contract.id);
    expect(patched.body.data.attributes.price).toEqual(priced.attributes.price);
    // A relationship production does not let be null stays refused.
    const shop = await post(shipmentBody({ shop: w.shopIn('NL'), relationships: { shop: null } }));
    expect([shop.status, firstError(shop).source]).toEqual([400, { pointer: '/data/relationships/shop' }]);
  });

  it('deletes a concept (204, then 404), and refuses mismatched ids', async () => {
    const created = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const mismatch = await sandbox.request('PATCH', `/shipments/${created.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(mismatch.status).toBe(409);
    expect((await sandbox.request('DELETE', `/shipments/${created.id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.get(`/shipments/${created.id}`, w.token)).status).toBe(404);
  });
});
