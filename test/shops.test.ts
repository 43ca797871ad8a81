import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BASE, firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { tinyPng } from './support/images.js';

/** The start of a JFIF JPEG: SOI and an APP0 segment, enough for its type to show. */
const tinyJpeg = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
]);
const tinyGif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#ff0000"/></svg>';

const logo = (mime_type: string, bytes: Buffer | string) => ({ mime_type, contents: Buffer.from(bytes).toString('base64') });
const path = (url: string) => new URL(url).pathname;

let sandbox: TestSandbox;
let token: string;
let otherToken: string;
let limitedToken: string;
let orgId: string;
let otherOrgId: string;

beforeAll(async () => {
  sandbox = await testSandbox();
  [token, otherToken, limitedToken] = await Promise.all([sandbox.token(), sandbox.token('other-client'), sandbox.token('limited-client')]);
  orgId = (await sandbox.get('/organizations', token)).body.data[0].id;
  otherOrgId = (await sandbox.get('/organizations', otherToken)).body.data[0].id;
});

const address = { street_1: 'Keizersgracht', street_number: 12, postal_code: '1015 CS', city: 'Amsterdam', country_code: 'NL', company: 'Tulip Goods' };

/** A create request body; `overrides` replaces parts of `data`. */
/** A valid shop document; `attributes` given are laid over the required ones (set one to undefined to leave it out). */
function shopBody(overrides: Json = {}): Json {
  const { attributes, ...rest } = overrides;
  return {
    data: {
      type: 'shops',
      attributes: { name: 'Tulip Goods', sender_address: address, return_address: address, ...attributes },
      relationships: { organization: { data: { type: 'organizations', id: orgId } } },
      ...rest,
    },
  };
}

const createShop = (body: Json = shopBody(), as = token) => sandbox.request('POST', '/shops', { body, token: as });
const patchShop = (id: string, data: Json, as = token) =>
  sandbox.request('PATCH', `/shops/${id}`, {
    // Sent as a client sends the resource back (production takes it with or without).
    body: { data: { type: 'shops', id, relationships: { organization: { data: { type: 'organizations', id: orgId } } }, ...data } },
    token: as,
  });

describe('reading shops', () => {
  it("lists only the caller's organization's shops, with an organization relationship", async () => {
    const mine = await sandbox.get('/shops', token);
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBeGreaterThanOrEqual(2);
    for (const shop of mine.body.data) {
      expect(shop.type).toBe('shops');
      expect(shop.relationships.organization).toEqual({ data: { type: 'organizations', id: orgId }, links: { related: `${BASE}/organizations/${orgId}` } });
      expect(shop.attributes).toMatchObject({ name: expect.any(String), created_at: expect.any(Number) });
      expect(shop.links.self).toBe(`${BASE}/shops/${shop.id}`);
    }
    const theirs = await sandbox.get('/shops', otherToken);
    const theirIds = theirs.body.data.map((shop: Json) => shop.id);
    expect(theirIds.length).toBeGreaterThanOrEqual(1);
    expect(theirIds.some((id: string) => mine.body.data.some((shop: Json) => shop.id === id))).toBe(false);
  });

  it("gets one shop, and answers another tenant's shop exactly like an unknown id", async () => {
    const mine = (await sandbox.get('/shops', token)).body.data[0];
    expect((await sandbox.get(`/shops/${mine.id}`, token)).body.data).toEqual(mine);
    const theirs = (await sandbox.get('/shops', otherToken)).body.data[0];
    const hidden = await sandbox.get(`/shops/${theirs.id}`, token);
    const unknown = await sandbox.get('/shops/00000000-0000-4000-8000-000000000000', token);
    expect(hidden.status).toBe(404);
    expect(firstError(hidden)).toMatchObject({ status: '404', code: '10002' });
    expect(unknown.status).toBe(404);
    expect(firstError(unknown).code).toBe('10002');
  });

  it('needs a token and organizations.manage or shipments.manage', async () => {
    expect((await sandbox.get('/shops')).status).toBe(401);
    const limited = await sandbox.get('/shops', limitedToken);
    expect(limited.status).toBe(200);
    expect(limited.body.data.length).toBeGreaterThanOrEqual(2);
  });

  it('embeds the organization with include=organization', async () => {
    const list = await sandbox.get('/shops?include=organization', token);
    expect(list.body.included).toHaveLength(1);
    expect(list.body.included[0]).toMatchObject({ type: 'organizations', id: orgId });
    const one = await sandbox.get(`/shops/${list.body.data[0].id}?include=organization`, token);
    expect(one.body.included.map((resource: Json) => resource.id)).toEqual([orgId]);
    expect(firstError(await sandbox.get('/shops?include=owner', token)).source).toEqual({ parameter: 'include' });
  });
});

describe('filtering shops', () => {
  let shopId: string;
  beforeAll(async () => {
    const body = shopBody({
      attributes: {
        name: 'Filter Me Exactly',
        reference: 'REF-Zebra-42',
        website: 'https://filters.example.com',
        return_address: { ...address, city: 'Utrecht' },
      },
    });
    shopId = (await createShop(body)).body.data.id;
  });

  it('filter[name] matches the exact name only', async () => {
    const exact = await sandbox.get(`/shops?filter[name]=${encodeURIComponent('Filter Me Exactly')}`, token);
    expect(exact.body.data.map((shop: Json) => shop.id)).toEqual([shopId]);
    expect((await sandbox.get('/shops?filter[name]=Filter%20Me', token)).body.data).toEqual([]);
    expect((await sandbox.get(`/shops?filter[name]=${encodeURIComponent('Filter Me Exactly')}`, otherToken)).body.data).toEqual([]);
  });

  it('filter[search] finds text in name, reference, website and addresses, ignoring case', async () => {
    for (const text of ['me exact', 'zebra-42', 'FILTERS.example', 'utrecht']) {
      const found = await sandbox.get(`/shops?filter[search]=${encodeURIComponent(text)}`, token);
      expect(
        found.body.data.map((shop: Json) => shop.id),
        text,
      ).toEqual([shopId]);
    }
    expect((await sandbox.get('/shops?filter[search]=no-such-text-anywhere', token)).body.data).toEqual([]);
    expect(firstError(await sandbox.get('/shops?filter[colour]=red', token)).source).toEqual({ parameter: 'filter[colour]' });
  });
});

describe('creating shops', () => {
  it('answers 201 with every attribute, the branding and a Location, and lists the new shop', async () => {
    const returns = {
      domain: 'returns.complete.example.com',
      primary_color: '#112233',
      accent_color: '#ff00ff',
      hide_product_price: true,
      logo_url: 'https://cdn.example.com/logo.png',
    };
    const tracking = {
      primary_color: '#445566',
      secondary_color: '#abc',
      background_color: '#FFFFFF',
      foreground_color: '#000000',
      accent_color: '#ff00ff',
      hide_sender_address: true,
    };
    const attributes = {
      name: 'Complete Shop',
      website: 'https://complete.example.com',
      sender_address: address,
      return_address: { ...address, street_1: 'Damrak', city: 'Haarlem' },
      reference: 'complete-1',
      logo_url: 'https://cdn.example.com/shop.png',
      branding: { returns, tracking },
      locale: 'nl-NL',
      return_portal_locales: ['nl-NL', 'en-GB'],
      return_outcomes: { exchange: true },
      email_subscriptions: { pending_returns: 'returns@complete.example.com' },
    };
    const answer = await createShop(shopBody({ attributes }));
    expect(answer.status).toBe(201);
    const shop = answer.body.data;
    expect(shop.id).toMatch(/^[a-f\d]{8}(-[a-f\d]{4}){3}-[a-f\d]{12}$/);
    expect(shop.attributes).toEqual({
      ...attributes,
      return_outcomes: { refund: true, exchange: true },
      // The portal opens without a token: its path is the shop's capability, signed by this sandbox.
      return_portal_url: `${BASE}/return-portal/${sandbox.services.rules.capabilities.token('return-portal', shop.id)}`,
      created_at: TEST_NOW,
    });
    expect(shop.relationships.organization.data).toEqual({ type: 'organizations', id: orgId });
    expect(answer.headers.get('location')).toBe(`${BASE}/shops/${shop.id}`);
    expect(answer.headers.get('content-type')).toBe('application/vnd.api+json');
    const list = await sandbox.get('/shops?page[size]=100', token);
    expect(list.body.data).toContainEqual(shop);
    expect((await sandbox.get(`/shops/${shop.id}`, otherToken)).status).toBe(404);
  });

  it('ignores read-only created_at and return_portal_url, and needs a name and both addresses (as production)', async () => {
    const answer = await createShop(shopBody({ attributes: { name: 'Bare', created_at: 1, return_portal_url: 'https://elsewhere.example.com' } }));
    expect(answer.status).toBe(201);
    const id = answer.body.data.id;
    expect(answer.body.data.attributes).toEqual({
      name: 'Bare',
      sender_address: address,
      return_address: address,
      locale: 'en-GB',
      return_outcomes: { refund: true, exchange: false },
      return_portal_url: `${BASE}/return-portal/${sandbox.services.rules.capabilities.token('return-portal', id)}`,
      created_at: TEST_NOW,
    });
    for (const missing of ['sender_address', 'return_address']) {
      const refused = await createShop(shopBody({ attributes: { [missing]: undefined } }));
      expect(refused.status, missing).toBe(400);
      expect(firstError(refused)).toMatchObject({ code: '10003', source: { pointer: `/data/attributes/${missing}` } });
    }
  });

  it("takes null for website, reference and logo_url as if left out, and any website text, as production's schema does", async () => {
    const created = await createShop(shopBody({ attributes: { website: null, reference: null, logo_url: null } }));
    expect(created.status, created.text).toBe(201);
    for (const name of ['website', 'reference', 'logo_url']) expect(created.body.data.attributes[name] ?? null).toBeNull();
    const bare = await createShop(shopBody({ attributes: { website: 'tulipgoods.example' } }));
    expect([bare.status, bare.body.data?.attributes.website]).toEqual([201, 'tulipgoods.example']);
  });

  it('takes null in the branding members production lets be null (URLs, domain, e-mail texts) as if left out', async () => {
    const branding = {
      returns: {
        domain: null,
        primary_color: '#112233',
        logo_url: null,
        banner_url: null,
        email_content: { marketing_title: 'Spring', marketing_content: null, customer_service_email: null, footer_url: null },
      },
      tracking: { logo_url: null, hide_sender_address: true },
    };
    const created = await createShop(shopBody({ attributes: { branding } }));
    expect(created.status, created.text).toBe(201);
    const expected = { returns: { primary_color: '#112233', email_content: { marketing_title: 'Spring' } }, tracking: { hide_sender_address: true } };
    expect(created.body.data.attributes.branding).toEqual(expected);
    expect((await sandbox.get(`/shops/${created.body.data.id}`, token)).body.data.attributes.branding).toEqual(expected);
    // Null stays refused where production does not allow it.
    const color = await createShop(shopBody({ attributes: { branding: { returns: { primary_color: null } } } }));
    expect([color.status, firstError(color).source]).toEqual([400, { pointer: '/data/attributes/branding/returns/primary_color' }]);
  });

  it("drops unknown branding members, as production's open branding objects do, and refuses an unknown locale", async () => {
    const answer = await createShop(shopBody({ attributes: { branding: { tracking: { primary_color: '#123456', sparkle: true } } } }));
    expect(answer.body.data.attributes.branding).toEqual({ tracking: { primary_color: '#123456' } });
    const locale = await createShop(shopBody({ attributes: { locale: 'xx-XX' } }));
    expect(locale.status).toBe(400);
    expect(firstError(locale).source).toEqual({ pointer: '/data/attributes/locale' });
  });

  it('needs the shops.manage scope', async () => {
    const answer = await createShop(shopBody(), limitedToken);
    expect(answer.status).toBe(403);
    expect(firstError(answer).code).toBe('14004');
  });
});

describe('invalid shop requests', () => {
  const pointerOf = (answer: Json) => firstError(answer)?.source?.pointer;

  it('refuses a shop without a name', async () => {
    const answer = await createShop(shopBody({ attributes: { name: undefined, website: 'https://nameless.example.com' } }));
    expect(answer.status).toBe(400);
    expect(firstError(answer)).toMatchObject({ code: '10003', source: { pointer: '/data/attributes/name' } });
  });

  it('refuses a 3-letter or unknown country code, pointing at it', async () => {
    const sender = await createShop(shopBody({ attributes: { name: 'X', sender_address: { ...address, country_code: 'NLD' } } }));
    expect(sender.status).toBe(400);
    expect(firstError(sender)).toMatchObject({ code: '10003', source: { pointer: '/data/attributes/sender_address/country_code' } });
    const ret = await createShop(shopBody({ attributes: { name: 'X', return_address: { ...address, country_code: 'XX' } } }));
    expect(pointerOf(ret)).toBe('/data/attributes/return_address/country_code');
  });

  it('refuses an address without street_1 or city, a bad color and an unknown attribute', async () => {
    const { street_1: _s, ...noStreet } = address;
    expect(pointerOf(await createShop(shopBody({ attributes: { name: 'X', sender_address: noStreet } })))).toBe('/data/attributes/sender_address/street_1');
    const color = await createShop(shopBody({ attributes: { name: 'X', branding: { tracking: { primary_color: 'red' } } } }));
    expect(pointerOf(color)).toBe('/data/attributes/branding/tracking/primary_color');
    expect(pointerOf(await createShop(shopBody({ attributes: { name: 'X', colour: 'red' } })))).toBe('/data/attributes/colour');
  });

  it("refuses another tenant's organization, and a missing organization", async () => {
    const other = await createShop(shopBody({ relationships: { organization: { data: { type: 'organizations', id: otherOrgId } } } }));
    expect(other.status).toBe(422);
    expect(firstError(other)).toMatchObject({ code: '10008', source: { pointer: '/data/relationships/organization/data/id' } });
    // Production's contract requires the relationship: leaving it out is a schema violation (400), as on every other create.
    const missing = await createShop(shopBody({ relationships: {} }));
    expect([missing.status, firstError(missing).code]).toEqual([400, '10003']);
    expect(pointerOf(missing)).toBe('/data/relationships/organization');
    const none = await createShop(shopBody({ relationships: undefined }));
    expect([none.status, pointerOf(none)]).toEqual([400, '/data/relationships']);
  });

  it('answers 409 for a wrong type or a mismatched id', async () => {
    const wrongType = await createShop(shopBody({ type: 'contracts' }));
    expect(wrongType.status).toBe(409);
    expect(firstError(wrongType)).toMatchObject({ code: '10007', source: { pointer: '/data/type' } });
    const shop = (await sandbox.get('/shops', token)).body.data[0];
    const mismatch = await sandbox.request('PATCH', `/shops/${shop.id}`, {
      body: {
        data: {
          type: 'shops',
          id: '00000000-0000-4000-8000-000000000000',
          attributes: { name: 'Y' },
          relationships: { organization: { data: { type: 'organizations', id: orgId } } },
        },
      },
      token,
    });
    expect(mismatch.status).toBe(409);
    expect(firstError(mismatch)).toMatchObject({ code: '10007', source: { pointer: '/data/id' } });
    expect((await patchShop(shop.id, { type: 'hooks', attributes: { name: 'Y' } })).status).toBe(409);
  });
});

describe('updating shops', () => {
  let shop: Json;
  beforeEach(async () => {
    shop = (await createShop(shopBody({ attributes: { name: 'Before', reference: 'ref-1', website: 'https://before.example.com', sender_address: address } })))
      .body.data;
  });

  it('changes only the attributes sent and answers with the whole shop', async () => {
    const answer = await patchShop(shop.id, { attributes: { name: 'After', branding: { tracking: { accent_color: '#00ff00' } } } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.attributes).toEqual({ ...shop.attributes, name: 'After', branding: { tracking: { accent_color: '#00ff00' } } });
    expect((await sandbox.get(`/shops/${shop.id}`, token)).body.data).toEqual(answer.body.data);
  });

  it("takes the deprecated style with some of its colours, as production's Style shape has none required", async () => {
    const answer = await patchShop(shop.id, { attributes: { style: { background_color: '#fff' } } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.attributes.style).toEqual({ background_color: '#fff' });
    const created = await createShop(shopBody({ attributes: { style: { accent_color: '#f97316', primary_color: '#0f766e' } } }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.attributes.style).toEqual({ accent_color: '#f97316', primary_color: '#0f766e' });
  });

  it('replaces the branding with the one sent, without the members sent as null', async () => {
    await patchShop(shop.id, { attributes: { branding: { returns: { domain: 'returns.before.example', banner_url: 'https://cdn.example/b.png' } } } });
    const answer = await patchShop(shop.id, { attributes: { branding: { returns: { domain: 'returns.after.example', banner_url: null } } } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.attributes.branding).toEqual({ returns: { domain: 'returns.after.example' } });
    const removed = await patchShop(shop.id, { attributes: { branding: null } });
    expect(removed.body.data.attributes.branding).toBeUndefined();
  });

  it('takes the shop sent back as read (created_at ignored, null removes), and its own organization only', async () => {
    const sentBack = { attributes: { ...shop.attributes, created_at: 5, reference: null }, relationships: shop.relationships, links: shop.links };
    const answer = await patchShop(shop.id, sentBack);
    expect(answer.status).toBe(200);
    const { reference: _removed, ...rest } = shop.attributes;
    expect(answer.body.data.attributes).toEqual(rest);
    expect(answer.body.data.relationships.organization.data.id).toBe(orgId);
    // Another organization is refused, the shop unchanged.
    const moved = await patchShop(shop.id, {
      attributes: { name: 'Moved' },
      relationships: { organization: { data: { type: 'organizations', id: otherOrgId } } },
    });
    expect(moved.status).toBe(422);
    expect(firstError(moved).source).toEqual({ pointer: '/data/relationships/organization/data/id' });
    expect((await sandbox.get(`/shops/${shop.id}`, token)).body.data.attributes.name).toBe('Before');
    // Left out, as the spec's update body does, the organization stays.
    const without = await sandbox.request('PATCH', `/shops/${shop.id}`, {
      body: { data: { type: 'shops', id: shop.id, attributes: { name: 'Renamed' } } },
      token,
    });
    expect(without.status).toBe(200);
    expect(without.body.data.attributes.name).toBe('Renamed');
    expect(without.body.data.relationships.organization.data.id).toBe(orgId);
  });

  it("answers 404 for another tenant's shop, and needs shops.manage", async () => {
    const theirs = (await sandbox.get('/shops', otherToken)).body.data[0];
    const answer = await patchShop(theirs.id, { attributes: { name: 'Hijacked' } });
    expect(answer.status).toBe(404);
    expect(firstError(answer).code).toBe('10002');
    expect((await sandbox.get(`/shops/${theirs.id}`, otherToken)).body.data.attributes.name).toBe(theirs.attributes.name);
    expect((await patchShop(shop.id, { attributes: { name: 'Z' } }, limitedToken)).status).toBe(403);
  });
});

describe('shop logos', () => {
  const uploadShop = (meta: Json, attributes: Json = { name: 'Logo Shop' }) => createShop(shopBody({ attributes, meta }));

  it('stores an uploaded PNG, serves it at logo_url and echoes meta.logo', async () => {
    const png = tinyPng();
    const upload = logo('image/png', png);
    const answer = await uploadShop({ logo: upload });
    expect(answer.status).toBe(201);
    expect(answer.body.data.meta).toEqual({ logo: upload });
    const url = answer.body.data.attributes.logo_url;
    expect(url).toMatch(new RegExp(`^${BASE}/logos/[a-f0-9-]{36}$`));
    const response = await sandbox.app.request(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toContain('max-age');
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
    expect((await sandbox.get(`/shops/${answer.body.data.id}`, token)).body.data.attributes.logo_url).toBe(url);
  });

  it('accepts SVG and JPEG logos, and a top-level meta.logo', async () => {
    const svgShop = await uploadShop({ logo: logo('image/svg+xml', svg) });
    expect(svgShop.status).toBe(201);
    const served = await sandbox.request('GET', path(svgShop.body.data.attributes.logo_url));
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(served.text).toBe(svg);
    const jpeg = await createShop({ ...shopBody({ attributes: { name: 'Jpeg Shop' } }), meta: { logo: logo('image/jpeg', tinyJpeg) } });
    expect(jpeg.status).toBe(201);
    const image = await sandbox.app.request(jpeg.body.data.attributes.logo_url);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await image.arrayBuffer()).equals(tinyJpeg)).toBe(true);
  });

  it('negotiates the logo type and answers 404 for an unknown logo', async () => {
    const url = (await uploadShop({ logo: logo('image/png', tinyPng()) })).body.data.attributes.logo_url;
    expect((await sandbox.request('GET', path(url), { headers: { accept: 'image/*' } })).status).toBe(200);
    expect((await sandbox.request('GET', path(url), { headers: { accept: 'image/jpeg' } })).status).toBe(406);
    const unknown = await sandbox.get('/logos/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(firstError(unknown).code).toBe('10002');
  });

  it('replaces the logo on update and removes the old one', async () => {
    const created = (await uploadShop({ logo: logo('image/png', tinyPng()) })).body.data;
    const oldUrl = created.attributes.logo_url;
    const upload = logo('image/gif', tinyGif);
    const answer = await patchShop(created.id, { attributes: { logo_url: oldUrl }, meta: { logo: upload } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.meta).toEqual({ logo: upload });
    const newUrl = answer.body.data.attributes.logo_url;
    expect(newUrl).not.toBe(oldUrl);
    expect((await sandbox.app.request(newUrl)).headers.get('content-type')).toBe('image/gif');
    expect((await sandbox.app.request(oldUrl)).status).toBe(404);
    // Sending the resource back unchanged keeps the stored logo.
    const again = await patchShop(created.id, { attributes: answer.body.data.attributes });
    expect(again.body.data.attributes.logo_url).toBe(newUrl);
    expect((await sandbox.app.request(newUrl)).status).toBe(200);
    // A logo_url of its own replaces the uploaded logo.
    const direct = await patchShop(created.id, { attributes: { logo_url: 'https://cdn.example.com/new.png' } });
    expect(direct.body.data.attributes.logo_url).toBe('https://cdn.example.com/new.png');
    expect((await sandbox.app.request(newUrl)).status).toBe(404);
  });

  it('refuses contents that are not base64', async () => {
    const answer = await uploadShop({ logo: { mime_type: 'image/png', contents: 'not base64 at all!' } });
    expect(answer.status).toBe(400);
    expect(firstError(answer)).toMatchObject({ code: '10003', source: { pointer: '/data/meta/logo/contents' } });
  });

  it('refuses bytes that are not the declared type', async () => {
    for (const upload of [logo('image/png', tinyGif), logo('image/svg+xml', 'hello world'), logo('image/jpeg', tinyPng())]) {
      const answer = await uploadShop({ logo: upload });
      expect(answer.status, upload.mime_type).toBe(422);
      expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/data/meta/logo/contents' } });
    }
  });

  it('refuses an unsupported mime type', async () => {
    const answer = await uploadShop({ logo: logo('application/pdf', '%PDF-1.4') });
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/data/meta/logo/mime_type' } });
    // A logo sent as the document's meta is named there.
    const topLevel = await createShop({ ...shopBody({ attributes: { name: 'Pdf Shop' } }), meta: { logo: logo('application/pdf', '%PDF-1.4') } });
    expect(firstError(topLevel)).toMatchObject({ code: '10008', source: { pointer: '/meta/logo/mime_type' } });
  });

  it('refuses a logo over the configured size, naming the limit', async () => {
    const small = await testSandbox({ config: { logoMaxBytes: 100 } });
    const smallToken = await small.token();
    const body = shopBody({ attributes: { name: 'Big Logo' }, meta: { logo: logo('image/png', Buffer.concat([tinyPng(), Buffer.alloc(100)])) } });
    const answer = await small.request('POST', '/shops', { body, token: smallToken });
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/data/meta/logo/contents' } });
    expect(firstError(answer).detail).toContain('100 bytes');
    const fits = await small.request('POST', '/shops', { body: shopBody({ meta: { logo: logo('image/png', tinyPng()) } }), token: smallToken });
    expect(fits.status).toBe(201);
  });
});

describe('rejected requests', () => {
  it('change nothing', async () => {
    const shop = (await createShop(shopBody({ attributes: { name: 'Untouched', sender_address: address } }))).body.data;
    const before = sandbox.store.snapshot();
    const attempts = [
      createShop(shopBody({ meta: { logo: logo('image/png', tinyGif) } })),
      createShop(
        shopBody({ relationships: { organization: { data: { type: 'organizations', id: otherOrgId } } }, meta: { logo: logo('image/png', tinyPng()) } }),
      ),
      createShop(shopBody({ attributes: { name: 'X', sender_address: { ...address, country_code: 'NLD' } } })),
      patchShop(shop.id, { attributes: { name: 'Changed' }, meta: { logo: logo('image/gif', tinyPng()) } }),
      patchShop(shop.id, { attributes: { name: 'Changed', website: 'w'.repeat(256) } }),
      patchShop(shop.id, { attributes: { name: 'Changed' } }, otherToken),
    ];
    for (const answer of await Promise.all(attempts)) expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(sandbox.store.snapshot()).toEqual(before);
    expect((await sandbox.get(`/shops/${shop.id}`, token)).body.data).toEqual(shop);
  });
});
