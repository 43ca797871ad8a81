import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_LAYOUT, rowPlace } from '../src/domain/labels/manifest-pdf.js';
import { testSandbox, TEST_NOW, type Json } from './support/app.js';
import { decodeCode128, readPdf, renderPdfPage, type GreyImage } from './support/pdf.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

/*
 * The end of a day at a Dutch warehouse, end to end through the API: it books a PostNL slot,
 * sets up a weekday schedule that books the week's collections, adds the day's shipments,
 * registers them, makes the collection's manifest and reads the PDF as a person and a scanner
 * would, then moves the sandbox clock past the collection time and sees the shipments collected
 * (and the webhooks of their new status sent).
 * TEST_NOW is Sunday 2026-01-11 00:00 UTC; PostNL collects Monday to Friday, 09:00-12:00 and
 * 13:00-17:00 UTC, booked until 22:00 the day before.
 */

const HOUR = 3600;
const MONDAY = TEST_NOW + 86400;

/** A real HTTP receiver of webhooks on a random local port. */
const received: Json[] = [];
let server: Server;
let receiverUrl = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(JSON.parse(body));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The rows of a grey image between two heights (in pixels). */
function band(image: GreyImage, top: number, bottom: number): GreyImage {
  const from = Math.max(0, Math.floor(top));
  const to = Math.min(image.height, Math.ceil(bottom));
  return { width: image.width, height: to - from, pixels: image.pixels.slice(from * image.width, to * image.width) };
}

describe('a warehouse day', () => {
  it('books a slot, lets a schedule book the week, fills and manifests a collection, and sees it collected', async () => {
    const sandbox = await testSandbox();
    const w = await world(sandbox);
    const token = w.token;
    const shop = w.shopIn('NL');
    const service = w.service('postnl-parcel-business', 'NL');
    const contract = w.contractFor(service);
    const postnl = service.relationships.carrier.data.id;
    const statuses = (await sandbox.get('/statuses?page[size]=100', token)).body.data;
    const statusCode = (id: string) => statuses.find((s: Json) => s.id === id).attributes.code;
    const organization = (await sandbox.get('/organizations', token)).body.data[0];
    const hook = await sandbox.request('POST', '/hooks', {
      token,
      body: {
        data: {
          type: 'hooks',
          attributes: {
            name: 'Tell the warehouse system',
            order: 1,
            active: true,
            trigger: { resource_type: 'shipment-statuses', resource_action: 'create', predicates: [] },
            action: { action_type: 'send-resource', values: [{ url: receiverUrl, includes: ['status'] }] },
          },
          relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
        },
      },
    });
    expect(hook.status, hook.text).toBe(201);

    // 1. The slots PostNL offers at the warehouse this week, and one booked.
    const postal = encodeURIComponent(shop.attributes.sender_address.postal_code);
    const slots = await sandbox.get(
      `/carriers/${postnl}/collection-time-slots?country_code=NL&postal_code=${postal}&date_from=2026-01-12&date_to=2026-01-16`,
      token,
    );
    expect(slots.status, slots.text).toBe(200);
    expect(slots.body.meta.total_records).toBe(10);
    const morning = slots.body.data[0];
    expect(morning.attributes).toEqual({ from: MONDAY + 9 * HOUR, to: MONDAY + 12 * HOUR });
    const booked = await sandbox.request('POST', '/collections', {
      token,
      body: {
        data: {
          type: 'collections',
          attributes: { description: 'Monday morning', address: shop.attributes.sender_address, collection_time: morning.attributes, register: true },
          relationships: { shop: { data: { type: 'shops', id: shop.id } }, contract: { data: { type: 'contracts', id: contract.id } } },
        },
      },
    });
    expect(booked.status, booked.text).toBe(201);
    expect(statusCode(booked.body.data.relationships.status.data.id)).toBe('collection-registered');
    expect(booked.body.data.attributes).toMatchObject({ register: true, tracking_code: expect.stringMatching(/^POS-COL-\d{10}$/) });

    // 2. A weekday afternoon schedule books every weekday of the coming eight days.
    const schedule = await sandbox.request('POST', '/collection-schedules', {
      token,
      body: {
        data: {
          type: 'collection-schedules',
          attributes: {
            days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
            collection: { description: 'Afternoon pick-up', time: { from: '14:00+01:00', to: '17:00Z' }, address: shop.attributes.sender_address },
          },
          relationships: { shop: { data: { type: 'shops', id: shop.id } }, contract: { data: { type: 'contracts', id: contract.id } } },
        },
      },
    });
    expect(schedule.status, schedule.text).toBe(201);
    const scheduled = async (as = token) =>
      (await sandbox.get(`/collections?filter[shop]=${shop.id}&filter[status]=collection-registered,collection-collected&page[size]=100`, as)).body.data.filter(
        (c: Json) => c.attributes.description === 'Afternoon pick-up',
      );
    const week = await scheduled();
    expect(week.map((c: Json) => c.attributes.collection_time)).toEqual(
      [0, 1, 2, 3, 4].map((day) => ({ from: MONDAY + day * 86400 + 13 * HOUR, to: MONDAY + day * 86400 + 17 * HOUR })),
    );
    const today = week[0];

    // 3. The day's shipments: two into the afternoon collection, one with add_to_next_collection, one not ready yet.
    const parcel = (weight: number, recipient: Json, meta?: Json) =>
      createShipment(
        sandbox,
        token,
        shipmentBody({ shop, service, contract, recipient, attributes: { physical_properties: { weight }, register_at: TEST_NOW + 600 }, meta }),
      );
    const a = await parcel(1200, recipients.NL);
    const b = await parcel(2750, { ...recipients.NL, first_name: 'Bram', last_name: 'Jansen', city: 'Utrecht', postal_code: '3511 AB' });
    const next = await parcel(800, recipients.NL, { add_to_next_collection: true });
    expect(next.relationships.collection.data.id).toBe(booked.body.data.id);
    const unready = await createShipment(sandbox, token, shipmentBody({ shop, service, contract }));
    const added = await sandbox.request('POST', '/add-shipments-to-collection', {
      token,
      body: { data: { collection_id: today.id, shipment_ids: [a.id, b.id, unready.id] } },
      headers: { 'content-type': 'application/json' },
    });
    expect(added.status, added.text).toBe(204);
    await sandbox.advance(700);
    const read = async (id: string) => (await sandbox.get(`/shipments/${id}`, token)).body.data;
    const registered = await Promise.all([a, b].map((s) => read(s.id)));
    for (const shipment of registered) expect(shipment.relationships.collection.data.id).toBe(today.id);

    // 4. The collection's manifest, read as a person and a scanner would.
    const made = await sandbox.request('POST', '/create-manifest-for-collection', {
      token,
      body: { data: { collection_id: today.id } },
      headers: { 'content-type': 'application/json' },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.headers.get('content-type')).toMatch(/^application\/json/);
    const manifest = made.body.data;
    expect(manifest.relationships.shipments.data.map((s: Json) => s.id)).toEqual([a.id, b.id]);
    expect(manifest.meta.errors).toEqual([expect.stringContaining(unready.id)]);
    const fileId = manifest.relationships.files.data[0].id;
    const collection = (await sandbox.get(`/collections/${today.id}?include=manifest`, token)).body;
    expect(collection.data.relationships.manifest.data.id).toBe(manifest.id);
    expect(collection.data.relationships.files.data).toEqual([{ type: 'files', id: fileId }]);
    expect((await read(a.id)).relationships.manifest.data.id).toBe(manifest.id);

    const pdf = await sandbox.request('GET', `/collections/${today.id}/files/${fileId}`, { token, headers: { accept: 'application/pdf' } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(
      await (
        await sandbox.app.request(`http://sandbox.test/collections/${today.id}/files/${fileId}`, { headers: { authorization: `Bearer ${token}` } })
      ).arrayBuffer(),
    );
    const [page] = readPdf(bytes);
    const text = page!.text.replace(/\s+/g, ' ');
    for (const shipment of registered) expect(text).toContain(shipment.attributes.tracking_code);
    expect(text).toContain('Anna de Vries');
    expect(text).toContain('Bram Jansen');
    expect(text).toContain('3511 AB Utrecht NL');
    expect(text).toContain('1.20 kg');
    expect(text).toContain('2.75 kg');
    expect(text).toContain('Total: 2 shipments, 3.95 kg');
    expect(text).toContain(`Collection reference ${today.attributes.tracking_code}`);
    const scale = 2;
    const image = renderPdfPage(bytes, 0, scale);
    registered.forEach((shipment, index) => {
      const { top } = rowPlace(index);
      const strip = band(image, top * scale, (top + MANIFEST_LAYOUT.rowHeight) * scale);
      expect(decodeCode128(strip)).toBe(shipment.attributes.barcode);
    });

    // 5. The clock passes the collection time: the carrier came.
    received.length = 0;
    await sandbox.advance(MONDAY + 17 * HOUR - sandbox.clock.now());
    const fresh = await sandbox.token();
    const after = (await sandbox.get(`/collections/${today.id}?include=status`, fresh)).body;
    expect(after.included[0].attributes.code).toBe('collection-collected');
    for (const shipment of [a, b, next]) {
      const history = (await sandbox.get(`/shipments/${shipment.id}/statuses?include=status`, fresh)).body;
      const codes = history.data.map((row: Json) => statusCode(row.relationships.status.data.id));
      expect(codes.at(-1)).toBe('shipment-received-by-carrier');
      expect(history.data.at(-1).attributes.carrier_statuses[0]).toMatchObject({ code: 'COLLECTED', category: 'successful-collection' });
    }
    const left = (await sandbox.get(`/shipments/${unready.id}?include=shipment_status.status`, fresh)).body;
    expect(left.data.relationships).not.toHaveProperty('collection');
    expect(left.included.find((r: Json) => r.type === 'statuses').attributes.code).toBe('shipment-concept');
    const collectedAt = { [a.id]: MONDAY + 13 * HOUR, [b.id]: MONDAY + 13 * HOUR, [next.id]: MONDAY + 9 * HOUR };
    const webhooks = received.filter((doc) => doc.included?.[0]?.attributes.code === 'shipment-received-by-carrier');
    expect(webhooks.map((doc) => doc.data.relationships.shipment.data.id).sort()).toEqual([a.id, b.id, next.id].sort());
    for (const doc of webhooks) expect(doc.data.attributes.created_at).toBe(collectedAt[doc.data.relationships.shipment.data.id]);

    // The schedule went on booking: at Monday 00:00 it added next Monday.
    expect((await scheduled(fresh)).map((c: Json) => c.attributes.collection_time.from).at(-1)).toBe(MONDAY + 7 * 86400 + 13 * HOUR);
  });
});
