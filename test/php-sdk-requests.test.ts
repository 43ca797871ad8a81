import { describe, expect, it } from 'vitest';
import { BASE, TEST_NOW, testSandbox, type Answer, type Json, type TestSandbox } from './support/app.js';
import { carrierSetup, collectionBody, createCollection, HOUR, MONDAY } from './support/collections.js';
import { shipmentBody, world, type World } from './support/shipments.js';

/**
 * Requests as production's official PHP SDK (MyParcelCOM/api-sdk-php) forms them, which the
 * sandbox must answer as production does: `Authorization` and `Accept: application/vnd.api+json`,
 * no `Content-Type`, the body always JSON-encoded (`[]` when there is none; a GET goes without it
 * here, as fetch's Request takes no GET body).
 */
async function asTheSdk(sandbox: TestSandbox, token: string, method: string, path: string, body: unknown = []): Promise<Answer> {
  const response = await sandbox.app.request(BASE + path, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' },
    // Bytes, not a string: a string body would get fetch's `text/plain` type, which the SDK never sends.
    body: method === 'GET' ? undefined : new TextEncoder().encode(JSON.stringify(body)),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

async function setup(): Promise<{ sandbox: TestSandbox; w: World }> {
  const sandbox = await testSandbox();
  return { sandbox, w: await world(sandbox) };
}

describe('POST /multi-colli-shipments as the PHP SDK sends it', () => {
  it('takes include=colli,colli.files and embeds each collo with the label its meta carries', async () => {
    const { sandbox, w } = await setup();
    const service = w.service('postnl-multi-colli', 'NL');
    const body = shipmentBody({
      shop: w.shopIn('NL'),
      service,
      contract: w.contractFor(service),
      attributes: { physical_properties: { weight: 3000 } },
      meta: { colli: [{ physical_properties: { weight: 1000 } }, { physical_properties: { weight: 2000 } }], label_mime_type: 'application/pdf' },
    });

    const answer = await asTheSdk(sandbox, w.token, 'POST', '/multi-colli-shipments?include=colli%2Ccolli.files', body);

    expect(answer.status, answer.text).toBe(201);
    const colli: Json[] = answer.body.data.relationships.colli.data;
    expect(colli.map((collo) => collo.meta.collo_number)).toEqual([1, 2]);
    const included = new Map<string, Json>(answer.body.included.map((resource: Json) => [`${resource.type}:${resource.id}`, resource]));
    for (const identifier of colli) {
      const collo = included.get(`shipments:${identifier.id}`);
      expect(collo?.attributes.collo_number).toBe(identifier.meta.collo_number);
      const [fileId] = collo!.relationships.files.data.map((file: Json) => file.id);
      const file = included.get(`files:${fileId}`);
      const [embedded] = identifier.meta.files;
      // The SDK pairs the two by document type, mime type and extension.
      expect(file?.attributes.document_type).toBe(embedded.document_type);
      expect(file?.attributes.formats[0]).toEqual({ mime_type: embedded.mime_type, extension: embedded.extension });
    }
  });
});

describe('PATCH /collections/{id} as the PHP SDK sends it', () => {
  /** updateCollection: description and register as they are, and the status relationship when the user marks it collected. */
  const markedCollected = (collection: Json, collectedStatusId: string) => ({
    data: {
      id: collection.id,
      type: 'collections',
      attributes: { description: collection.attributes.description, register: collection.attributes.register },
      relationships: { status: { data: { type: 'statuses', id: collectedStatusId } } },
    },
  });

  async function collectedStatusId(sandbox: TestSandbox): Promise<string> {
    const statuses: Json[] = (await sandbox.read('/statuses?page[size]=100')).body.data;
    return statuses.find((status) => status.attributes.code === 'collection-collected')!.id;
  }

  it('marks a booked collection collected: its labelled shipments are with the carrier, once', async () => {
    const { sandbox, w } = await setup();
    const { shop, service, contract } = carrierSetup(w, 'NL', 'postnl-parcel-business');
    const window = { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR };
    const collection = await createCollection(sandbox, w.token, collectionBody(shop, window, { contract, register: true, description: 'Monday' }));
    const parcel = shipmentBody({ shop, service, contract, relationships: { collection: { data: { type: 'collections', id: collection.id } } } });
    const registered = await asTheSdk(sandbox, w.token, 'POST', '/registered-shipments?include=files', parcel);
    expect(registered.status, registered.text).toBe(201);

    const answer = await asTheSdk(
      sandbox,
      w.token,
      'PATCH',
      `/collections/${collection.id}?include=status`,
      markedCollected(collection, await collectedStatusId(sandbox)),
    );

    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.included[0].attributes.code).toBe('collection-collected');
    const codes = async () => {
      const token = await sandbox.token();
      const history = (await sandbox.get(`/shipments/${registered.body.data.id}/statuses?include=status`, token)).body;
      return history.data.map((row: Json) => history.included.find((s: Json) => s.id === row.relationships.status.data.id).attributes.code);
    };
    expect(await codes()).toEqual(['shipment-concept', 'shipment-registered', 'shipment-received-by-carrier']);
    // The carrier's own visit at the window is off: nothing is handed over a second time.
    await sandbox.advance(window.to - TEST_NOW);
    expect(await codes()).toEqual(['shipment-concept', 'shipment-registered', 'shipment-received-by-carrier']);
  });

  it('marks a planned collection collected after its window began; the status it already has changes nothing', async () => {
    const { sandbox, w } = await setup();
    const shop = w.shopIn('NL');
    const window = { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR };
    const plan = await createCollection(sandbox, w.token, collectionBody(shop, window, { description: 'Own van' }));
    const concept: string = (await sandbox.get(`/collections/${plan.id}`, w.token)).body.data.relationships.status.data.id;
    await sandbox.advance(window.from + HOUR - TEST_NOW);
    const token = await sandbox.token();

    // A whole resource sent back with its current status is no request to change it: answered as it is.
    const unchanged = await asTheSdk(sandbox, token, 'PATCH', `/collections/${plan.id}`, markedCollected(plan, concept));
    expect(unchanged.status, unchanged.text).toBe(200);
    expect(unchanged.body.data).toEqual((await sandbox.get(`/collections/${plan.id}`, token)).body.data);
    expect(unchanged.body.data.relationships.status.data.id).toBe(concept);

    const answer = await asTheSdk(sandbox, token, 'PATCH', `/collections/${plan.id}?include=status`, markedCollected(plan, await collectedStatusId(sandbox)));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.included[0].attributes.code).toBe('collection-collected');
    expect(answer.body.data.attributes.description).toBe('Own van');
  });
});

describe('PATCH /collections/{id} marking a voided collection collected', () => {
  it('is 423 at the status relationship: a cancelled collection was never collected', async () => {
    const { sandbox, w } = await setup();
    const { shop, contract } = carrierSetup(w, 'NL', 'postnl-parcel-standard');
    const window = { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR };
    const collection = await createCollection(sandbox, w.token, collectionBody(shop, window, { contract, register: true }));
    expect((await asTheSdk(sandbox, w.token, 'DELETE', `/collections/${collection.id}`)).status).toBe(204);
    const statuses: Json[] = (await sandbox.read('/statuses?page[size]=100')).body.data;
    const collected = statuses.find((status) => status.attributes.code === 'collection-collected')!.id;

    const answer = await asTheSdk(sandbox, w.token, 'PATCH', `/collections/${collection.id}`, {
      data: {
        id: collection.id,
        type: 'collections',
        attributes: { register: true },
        relationships: { status: { data: { type: 'statuses', id: collected } } },
      },
    });

    expect(answer.status).toBe(423);
    expect(answer.body.errors[0]).toMatchObject({ code: '10005', source: { pointer: '/data/relationships/status' } });
  });
});

describe('GET /service-rates as the PHP SDK asks for a shipment', () => {
  it('reads filter[volume] in the exponent form PHP gives a small float (a 4 mm cube is 6.4E-5 litres)', async () => {
    const { sandbox, w } = await setup();
    const shop = w.shopIn('NL');
    const organization = shop.relationships.organization.data.id;
    const services: string = w.services.map((service: Json) => service.id).join(',');
    const rates = (volume: string) =>
      asTheSdk(
        sandbox,
        w.token,
        'GET',
        `/service-rates?filter%5Bhas_active_contract%5D=true&filter%5Bweight%5D=20&filter%5Bvolume%5D=${volume}` +
          `&filter%5Bservice%5D=${services}&filter%5Borganization%5D=${organization}&include=contract%2Cservice&page%5Bnumber%5D=1&page%5Bsize%5D=100`,
      );

    const exponent = await rates('6.4E-5');

    expect(exponent.status, exponent.text).toBe(200);
    expect(exponent.body.data.length).toBeGreaterThan(0);
    expect(exponent.body.data.map((rate: Json) => rate.id)).toEqual((await rates('0.000064')).body.data.map((rate: Json) => rate.id));
  });
});
