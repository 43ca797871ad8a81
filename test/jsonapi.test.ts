import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASE, firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

let sandbox: TestSandbox;
let token: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
});

describe('media types', () => {
  it('answers with the JSON:API media type', async () => {
    const answer = await sandbox.read('/carriers');
    expect(answer.headers.get('content-type')).toBe('application/vnd.api+json');
  });

  it('accepts JSON:API, plain JSON, wildcards and no Accept header at all', async () => {
    for (const accept of ['application/vnd.api+json', 'application/json', '*/*', 'text/html, */*;q=0.8', '']) {
      const answer = await sandbox.request('GET', '/carriers', { token, headers: accept ? { accept } : {} });
      expect(answer.status, accept).toBe(200);
    }
  });

  it('refuses an Accept header it cannot satisfy with 406/10004', async () => {
    const answer = await sandbox.request('GET', '/carriers', { token, headers: { accept: 'text/html' } });
    expect(answer.status).toBe(406);
    expect(firstError(answer)).toMatchObject({ code: '10004', source: { header: 'Accept' } });
  });

  it('takes q=0 as refusing a type, wildcards included (RFC 9110)', async () => {
    for (const accept of ['application/vnd.api+json;q=0', 'application/xml, */*;q=0', 'application/json;q=0', '*/*;q=0']) {
      const answer = await sandbox.request('GET', '/carriers', { token, headers: { accept } });
      expect(answer.status, accept).toBe(406);
      expect(firstError(answer), accept).toMatchObject({ code: '10004', source: { header: 'Accept' } });
    }
    for (const accept of ['application/xml, */*;q=0.1', 'application/vnd.api+json;q=0.5', '*/*;q=0, application/json;q=0.3']) {
      expect((await sandbox.request('GET', '/carriers', { token, headers: { accept } })).status, accept).toBe(200);
    }
  });

  it('reads a body without Content-Type as JSON, and refuses an explicit non-JSON type with 415', async () => {
    // The API endpoints only: every sandbox control POST needs a JSON Content-Type (see control-access.test.ts).
    const body = JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' });
    // Bytes, unlike a string, make fetch send no Content-Type at all.
    const bare = await sandbox.app.request(`${BASE}/access-token`, { method: 'POST', body: new TextEncoder().encode(body) });
    expect(bare.status).toBe(200);
    const plain = await sandbox.request('POST', '/access-token', { body, headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(firstError(plain)).toMatchObject({ code: '10004', source: { header: 'Content-Type' } });
    const control = await sandbox.app.request(`${BASE}/_sandbox/clock`, { method: 'POST', body: new TextEncoder().encode(JSON.stringify({ advance: 0 })) });
    expect(control.status).toBe(415);
  });

  it('refuses a compressed body with 415 naming Content-Encoding, and reads past a value that names no compression', async () => {
    const body = JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' });
    const zipped = gzipSync(body);
    for (const coding of ['gzip', 'br', 'GZIP', 'identity, gzip']) {
      const answer = await sandbox.app.request(`${BASE}/access-token`, {
        method: 'POST',
        body: zipped,
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
      });
      expect(answer.status, coding).toBe(415);
      expect(answer.headers.get('accept-encoding'), coding).toBe('identity');
      const error = ((await answer.json()) as Json).errors[0];
      expect(error, coding).toMatchObject({ code: '10004', source: { header: 'Content-Encoding' } });
      expect(error.detail, coding).toContain(`'${coding.replace('identity, ', '').toLowerCase()}'`);
    }
    // A value that names no compression (a charset sent in the wrong header among them) leaves the body as it is.
    for (const coding of ['identity', 'utf-8']) {
      const plain = await sandbox.request('POST', '/access-token', { body, headers: { 'content-type': 'application/json', 'content-encoding': coding } });
      expect(plain.status, coding).toBe(200);
    }
  });

  it('titles a body that is not JSON as such, not as a schema violation', async () => {
    for (const body of ['{"advance": ', 'advance=60', '']) {
      const answer = await sandbox.request('POST', '/_sandbox/clock', { body });
      expect(answer.status, body).toBe(400);
      expect(answer.body.errors, body).toEqual([
        expect.objectContaining({ status: '400', code: '10003', title: 'Request Body Is Not JSON', source: { pointer: '' } }),
      ]);
    }
    const shipment = await sandbox.request('POST', '/shipments', { body: '<shipment/>', token, headers: { 'content-type': 'application/vnd.api+json' } });
    expect(firstError(shipment)).toMatchObject({ title: 'Request Body Is Not JSON', detail: expect.stringMatching(/^The request body is not valid JSON: /) });
    // JSON that breaks the schema keeps its title.
    expect(firstError(await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 'soon' } })).title).toBe('Invalid JSON Schema');
  });

  it('answers malformed JSON and schema violations with 400/10003 and a pointer', async () => {
    const broken = await sandbox.request('POST', '/_sandbox/clock', { body: '{"advance": ' });
    expect(broken.status).toBe(400);
    expect(firstError(broken)).toMatchObject({ status: '400', code: '10003', source: { pointer: '' } });
    const typed = await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 'soon' } });
    expect(firstError(typed)).toMatchObject({ code: '10003', source: { pointer: '/advance' } });
    const unknown = await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 1, speed: 2 } });
    expect(firstError(unknown)).toMatchObject({ code: '10003', source: { pointer: '/speed' } });
  });
});

describe('unknown paths and methods', () => {
  it('answers OPTIONS that is no preflight with the methods of the path in Allow and no content; an unknown path stays 404', async () => {
    const carrier = (await sandbox.read('/carriers')).body.data[0];
    for (const [path, methods] of [
      ['/shipments', 'GET, HEAD, POST, OPTIONS'],
      ['/shipments/', 'GET, HEAD, POST, OPTIONS'],
      [`/carriers/${carrier.id}`, 'GET, HEAD, OPTIONS'],
      ['/access-token', 'POST, OPTIONS'],
    ] as const) {
      const answer = await sandbox.request('OPTIONS', path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('allow'), path).toBe(methods);
      expect(answer.headers.get('content-length'), path).toBe('0');
      expect(answer.text, path).toBe('');
    }
    const unknown = await sandbox.request('OPTIONS', '/parcels');
    expect(unknown.status).toBe(404);
    expect(firstError(unknown)).toMatchObject({ code: '10000' });
  });

  it('answers an unknown path with 404/10000', async () => {
    const answer = await sandbox.get('/parcels');
    expect(answer.status).toBe(404);
    expect(firstError(answer)).toMatchObject({ status: '404', code: '10000' });
    expect(answer.headers.get('content-type')).toBe('application/vnd.api+json');
  });

  it('answers a known path with a wrong method with 405/10009 and Allow', async () => {
    const carrier = (await sandbox.read('/carriers')).body.data[0];
    const answer = await sandbox.request('DELETE', `/carriers/${carrier.id}`);
    expect(answer.status).toBe(405);
    expect(firstError(answer)).toMatchObject({ code: '10009' });
    expect(answer.headers.get('allow')).toContain('GET');
    expect(answer.headers.get('allow')).not.toContain('DELETE');
    // With a trailing slash, and on a path of several methods, the Allow header lists exactly them.
    const slashed = await sandbox.request('PUT', '/shipments/');
    expect(slashed.status).toBe(405);
    expect(slashed.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect(firstError(slashed).detail).toContain('PUT is not allowed on /shipments/');
  });

  it('answers an unknown id with 404/10002', async () => {
    const answer = await sandbox.read('/carriers/00000000-0000-4000-8000-000000000000');
    expect(answer.status).toBe(404);
    expect(firstError(answer)).toMatchObject({ code: '10002' });
    expect((await sandbox.read('/services/not-a-uuid')).status).toBe(404);
  });

  it('never leaks a stack trace: errors are always the JSON:API envelope', async () => {
    const answer = await sandbox.request('POST', '/access-token', { body: '\u0000\u0001', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toMatch(/at .*\.ts:\d+/);
    expect(Object.keys(answer.body)).toEqual(['errors']);
  });
});

describe('resource objects', () => {
  it('carry absolute self and related links', async () => {
    const service = (await sandbox.read('/services')).body.data[0];
    expect(service.links.self).toBe(`${BASE}/services/${service.id}`);
    expect(service.relationships.carrier.links.related).toBe(`${BASE}/carriers/${service.relationships.carrier.data.id}`);
    expect((await sandbox.get(new URL(service.relationships.carrier.links.related).pathname, token)).status).toBe(200);
  });

  it('build links from the configured public URL when one is set', async () => {
    const hosted = await testSandbox({ config: { publicUrl: 'https://sandbox.example.com/api' } });
    const answer = await hosted.read('/carriers');
    expect(answer.body.data[0].links.self).toMatch(/^https:\/\/sandbox\.example\.com\/api\/carriers\//);
    expect(answer.body.links.first).toMatch(/^https:\/\/sandbox\.example\.com\/api\/carriers\?/);
  });

  it('leave out optional attributes without a value instead of sending null', async () => {
    const services = (await sandbox.read('/services?page[size]=100')).body.data;
    const plain = services.find((service: any) => !service.attributes.uses_volumetric_weight);
    expect(plain.attributes).not.toHaveProperty('volumetric_weight_divisor');
    expect(JSON.stringify(services)).not.toContain('null');
  });
});

describe('include', () => {
  it('adds included only when asked, holding only the requested types, each once', async () => {
    const without = await sandbox.read('/services');
    expect(without.body).not.toHaveProperty('included');
    const withCarrier = await sandbox.read('/services?include=carrier');
    const types = new Set(withCarrier.body.included.map((resource: any) => resource.type));
    expect([...types]).toEqual(['carriers']);
    const keys = withCarrier.body.included.map((resource: any) => resource.id);
    expect(new Set(keys).size).toBe(keys.length);
    const expected = new Set(withCarrier.body.data.map((service: any) => service.relationships.carrier.data.id));
    expect(new Set(keys)).toEqual(expected);
  });

  it('follows several and nested paths', async () => {
    const answer = await sandbox.get('/service-rates?include=service,service.carrier,contract.carrier&page[size]=5', token);
    const types = new Set(answer.body.included.map((resource: any) => resource.type));
    // A nested path includes every resource along it: contract.carrier brings the contracts too.
    expect(types).toEqual(new Set(['services', 'carriers', 'contracts']));
    const carriers = new Set(
      answer.body.data.map((rate: any) => answer.body.included.find((r: any) => r.id === rate.relationships.service.data.id).relationships.carrier.data.id),
    );
    for (const id of carriers) expect(answer.body.included.some((r: any) => r.type === 'carriers' && r.id === id)).toBe(true);
    const single = await sandbox.read(`/services/${answer.body.data[0].relationships.service.data.id}?include=carrier`);
    expect(single.body.included).toHaveLength(1);
  });

  it('rejects an unknown include path with 400 and the include parameter', async () => {
    // Only production's documented paths: a relationship that exists (region_from) is not enough.
    for (const include of ['shop', 'carrier.shop', 'carrier,nope', 'region_from']) {
      const answer = await sandbox.read(`/services?include=${include}`);
      expect(answer.status, include).toBe(400);
      expect(firstError(answer)).toMatchObject({ code: '10003', source: { parameter: 'include' } });
    }
    const flat = await sandbox.read('/carriers?include=services');
    expect(flat.status).toBe(400);
  });
});

describe('pagination', () => {
  it('pages with 30 records by default and reports the totals', async () => {
    const answer = await sandbox.read('/services');
    const total = answer.body.meta.total_records;
    expect(total).toBeGreaterThan(30);
    expect(answer.body.data).toHaveLength(30);
    expect(answer.body.meta.total_pages).toBe(Math.ceil(total / 30));
    expect(answer.body.links.self).toBe(`${BASE}/services?page[number]=1&page[size]=30`);
    expect(answer.body.links).not.toHaveProperty('prev');
    expect(answer.body.links.next).toBe(`${BASE}/services?page[number]=2&page[size]=30`);
  });

  it('walks every record exactly once by following next', async () => {
    const seen: string[] = [];
    let path: string | undefined = '/services?page[size]=7';
    let pages = 0;
    while (path) {
      const answer = await sandbox.get(path, token);
      seen.push(...answer.body.data.map((service: any) => service.id));
      path = answer.body.links.next ? new URL(answer.body.links.next).pathname + new URL(answer.body.links.next).search : undefined;
      pages += 1;
    }
    const all = await sandbox.read('/services?page[size]=100');
    expect(seen).toEqual(all.body.data.map((service: any) => service.id));
    expect(pages).toBe(all.body.meta.total_records === 0 ? 1 : Math.ceil(all.body.meta.total_records / 7));
  });

  it('keeps filters and include in every link, and gives prev and next only when they exist', async () => {
    const answer = await sandbox.read('/services?filter[package_type]=parcel&include=carrier&page[size]=2&page[number]=2');
    const { links, meta } = answer.body;
    for (const name of ['self', 'first', 'last', 'prev', 'next']) {
      expect(links[name], name).toContain('filter[package_type]=parcel');
      expect(links[name], name).toContain('include=carrier');
    }
    expect(links.prev).toContain('page[number]=1');
    expect(links.next).toContain('page[number]=3');
    expect(links.last).toContain(`page[number]=${meta.total_pages}`);
    const last = await sandbox.get(new URL(links.last).pathname + new URL(links.last).search, token);
    expect(last.body.links).not.toHaveProperty('next');
  });

  it('clamps page[size] to 100 and falls back to defaults for values that are not positive integers', async () => {
    expect((await sandbox.read('/services?page[size]=1000')).body.links.self).toContain('page[size]=100');
    for (const size of ['abc', '-1', '0', '2.5']) {
      const answer = await sandbox.read(`/services?page[size]=${size}`);
      expect(answer.status, size).toBe(200);
      expect(answer.body.data, size).toHaveLength(30);
    }
    expect((await sandbox.read('/services?page[number]=abc')).body.links.self).toContain('page[number]=1');
  });

  it('refuses a page member other than number and size with 400 naming it, as it refuses unknown filters', async () => {
    for (const name of ['page[numbr]', 'page[offset]', 'page[limit]', 'page', 'page[number][x]']) {
      const answer = await sandbox.get(`/carriers?${encodeURIComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']')}=2`, token);
      expect(answer.status, name).toBe(400);
      expect(answer.body.errors, name).toEqual([
        expect.objectContaining({
          code: '10003',
          detail: `Unknown page parameter '${name}'. Lists take page[number] and page[size].`,
          source: { parameter: name },
        }),
      ]);
    }
    // One that is not a list says so.
    const single = await sandbox.get('/shipments/00000000-0000-4000-8000-000000000000?page[numbr]=2', token);
    expect(firstError(single)).toMatchObject({
      detail: "Unknown page parameter 'page[numbr]'. This endpoint answers no list.",
      source: { parameter: 'page[numbr]' },
    });
    expect((await sandbox.get('/carriers?page[number]=1&page[size]=2', token)).status).toBe(200);
  });

  it('answers a page past the end with 200 and no data', async () => {
    const answer = await sandbox.read('/carriers?page[number]=99');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([]);
    expect(answer.body.meta.total_records).toBeGreaterThan(0);
  });

  it('names page total_pages in last, 0 for an empty list, as production does; no next, and prev leads back to page 1', async () => {
    const pageOf = (link: string) => new URL(link).searchParams.get('page[number]');
    const empty = await sandbox.get('/shipments?filter[tracking_code]=NOTHING-MATCHES', token);
    expect(empty.body.meta).toEqual({ total_pages: 0, total_records: 0 });
    expect(pageOf(empty.body.links.last)).toBe('0');
    expect(empty.body.links).not.toHaveProperty('next');
    expect(empty.body.links).not.toHaveProperty('prev');
    const past = await sandbox.get('/shipments?filter[tracking_code]=NOTHING-MATCHES&page[number]=3', token);
    expect(pageOf(past.body.links.prev)).toBe('1');
    expect(pageOf(past.body.links.last)).toBe('0');
    // A list with rows names its last page in both places.
    const full = await sandbox.read('/carriers?page[size]=2');
    expect(pageOf(full.body.links.last)).toBe(String(full.body.meta.total_pages));
  });

  it('takes a number too large to hold exactly as a large one: a page past the end, the largest size', async () => {
    const huge = '99999999999999999999';
    const past = await sandbox.read(`/carriers?page[number]=${huge}`);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.links.prev).toContain(`page[number]=${past.body.meta.total_pages}`);
    expect((await sandbox.read(`/services?page[size]=${huge}`)).body.links.self).toContain('page[size]=100');
  });
});
