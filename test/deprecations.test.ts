import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_DEPRECATIONS, PRODUCTION_DOCUMENT } from '../src/fixtures/reference/production-operations.js';
import { REPLACEMENTS } from '../src/http/deprecations.js';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, shipmentBody, world, type World } from './support/shipments.js';

let sandbox: TestSandbox;
let w: World;
beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
});

/** The date RFC 9745 asks for, as a structured field date: production's document's date. */
const DEPRECATION = `@${PRODUCTION_DOCUMENT.date}`;

/** The Link values of an answer, split at the commas between them (titles hold none). */
const links = (header: string | null) => (header ?? '').split(/,\s*(?=<)/).filter(Boolean);

const lastLogEntry = async () => (await sandbox.get('/_sandbox/requests?limit=1')).body.data[0];

describe('Deprecation, as production deprecates', () => {
  it('a deprecated query parameter answers as production does, with Deprecation and a Link to what replaces it', async () => {
    const created = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const day = new Date(created.attributes.created_at * 1000).toISOString().slice(0, 10);
    const answer = await sandbox.get(`/shipments?filter[date_from]=${day}`, w.token);
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((s: Json) => s.id)).toContain(created.id);
    expect(answer.headers.get('deprecation')).toBe(DEPRECATION);
    const [link, ...more] = links(answer.headers.get('link'));
    expect(more).toEqual([]);
    expect(link).toBe(
      '<http://sandbox.test/docs#/Shipments/listShipments>; rel="deprecation"; type="text/html"; title="filter[date_from] is deprecated: use filter[created_at][date_from]"',
    );
    // The request log notes it on the entry.
    expect((await lastLogEntry()).deprecated).toEqual([
      { id: 'GET /shipments filter[date_from]', where: 'filter[date_from]', instead: '`filter[created_at][date_from]`' },
    ]);
  });

  it('a deprecated attribute in a body is stored and answered as production does, with Deprecation and a Link per use', async () => {
    const body = shipmentBody({ shop: w.shopIn('NL'), attributes: { recipient_tax_number: 'NL123', sender_tax_number: 'NL456' } });
    const answer = await sandbox.request('POST', '/shipments', { token: w.token, body });
    expect(answer.status).toBe(201);
    expect(answer.body.data.attributes).toMatchObject({ recipient_tax_number: 'NL123', sender_tax_number: 'NL456' });
    expect(answer.headers.get('deprecation')).toBe(DEPRECATION);
    expect(links(answer.headers.get('link'))).toEqual([
      '<http://sandbox.test/docs#/Shipments/createShipment>; rel="deprecation"; type="text/html"; title="/data/attributes/recipient_tax_number is deprecated: use recipient_tax_identification_numbers"',
      '<http://sandbox.test/docs#/Shipments/createShipment>; rel="deprecation"; type="text/html"; title="/data/attributes/sender_tax_number is deprecated: use sender_tax_identification_numbers"',
    ]);
    expect((await lastLogEntry()).deprecated.map((use: Json) => use.id)).toEqual(['shipments.recipient_tax_number', 'shipments.sender_tax_number']);
  });

  it('a deprecated meta member, a deprecated operation and a refused request that uses one are told too', async () => {
    const meta = await sandbox.request('POST', '/shipments', {
      token: w.token,
      body: shipmentBody({ shop: w.shopIn('NL'), meta: { label_mime_type: 'application/pdf' } }),
    });
    expect(meta.status).toBe(201);
    expect(meta.headers.get('link')).toContain('title="/meta/label_mime_type is deprecated: use meta.label.mime_type"');

    const regions = await sandbox.get('/regions', w.token);
    expect(regions.status).toBe(200);
    expect(regions.headers.get('deprecation')).toBe(DEPRECATION);
    expect(regions.headers.get('link')).toContain('<http://sandbox.test/docs#/Services/listServices>; rel="deprecation"');
    // A tag of two words is written as Swagger UI writes it in its deep links.
    const rates = await sandbox.get('/service-rates?filter[volumetric_weight]=1000', w.token);
    expect(rates.headers.get('link')).toContain('<http://sandbox.test/docs#/Service%20rates/listServiceRates>; rel="deprecation"');

    // A 400 for another reason: the deprecated parameter is still told (production would refuse it alike).
    const refused = await sandbox.get('/shipments?filter[date_to]=yesterday', w.token);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('deprecation')).toBe(DEPRECATION);
  });

  it('a request that uses nothing deprecated gets neither header, on the same operations', async () => {
    const list = await sandbox.get('/shipments?filter[created_at][date_from]=2020-01-01', w.token);
    expect(list.status).toBe(200);
    expect(list.headers.get('deprecation')).toBeNull();
    expect(list.headers.get('link')).toBeNull();
    const created = await sandbox.request('POST', '/shipments', { token: w.token, body: shipmentBody({ shop: w.shopIn('NL') }) });
    expect(created.status).toBe(201);
    expect(created.headers.get('deprecation')).toBeNull();
    expect((await lastLogEntry()).deprecated).toBeUndefined();
    // A member production only answers with is never a use: GET /carriers answers label_mime_types.
    const carriers = await sandbox.get('/carriers', w.token);
    expect(carriers.body.data[0].attributes.label_mime_types).toBeDefined();
    expect(carriers.headers.get('deprecation')).toBeNull();
  });

  it('web pages may read both headers (CORS exposes them)', async () => {
    const answer = await sandbox.get('/regions', w.token);
    expect(answer.headers.get('access-control-expose-headers')).toMatch(/Deprecation, Link/);
  });
});

describe("the list of deprecations is production's", () => {
  it('has every deprecation the contract marks, each with what replaces it', () => {
    expect(PRODUCTION_DEPRECATIONS.length).toBe(29);
    expect(Object.keys(REPLACEMENTS).sort()).toEqual(PRODUCTION_DEPRECATIONS.map((deprecation) => deprecation.id).sort());
    for (const replacement of Object.values(REPLACEMENTS)) expect(replacement.instead.length).toBeGreaterThan(5);
  });
});
