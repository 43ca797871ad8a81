import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json } from './support/app.js';
import { carrierSetup, collectionStatus, DAY, HOUR, MONDAY } from './support/collections.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/** Collection schedules: recurring bookings that book the coming days' collections on the sandbox clock. */

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const nl = carrierSetup(w, 'NL', 'postnl-parcel-business');
  const body = (attributes: Json = {}, relationships: Json = {}) => ({
    data: {
      type: 'collection-schedules',
      attributes: {
        days: ['monday', 'wednesday', 'friday'],
        collection: { description: 'Scheduled', time: { from: '13:00', to: '17:00' }, address: nl.shop.attributes.sender_address },
        ...attributes,
      },
      relationships: { shop: { data: { type: 'shops', id: nl.shop.id } }, contract: { data: { type: 'contracts', id: nl.contract.id } }, ...relationships },
    },
  });
  const create = (b: Json, token = w.token) => sandbox.request('POST', '/collection-schedules', { token, body: b });
  const booked = async (token = w.token) =>
    (await sandbox.get(`/collections?filter[shop]=${nl.shop.id}&page[size]=100`, token)).body.data.filter(
      (c: Json) => c.attributes.description === 'Scheduled',
    );
  return { sandbox, w, nl, body, create, booked };
}

describe('POST /collection-schedules', () => {
  it('books the collections of the next eight days at once, registered with the carrier', async () => {
    const { sandbox, w, nl, body, create, booked } = await setup();
    const answer = await create(body());
    expect(answer.status, answer.text).toBe(201);
    const schedule = answer.body.data;
    expect(answer.headers.get('location')).toBe(schedule.links.self);
    expect(schedule.attributes).toEqual(body().data.attributes);
    expect(schedule.relationships.contract.data.id).toBe(nl.contract.id);
    const collections = await booked();
    expect(collections.map((c: Json) => c.attributes.collection_time.from)).toEqual([0, 2, 4].map((day) => MONDAY + day * DAY + 13 * HOUR));
    for (const collection of collections) {
      expect(collection.attributes).toMatchObject({ register: true, tracking_code: expect.stringMatching(/^POS-COL-/), created_at: TEST_NOW });
      expect(await collectionStatus(sandbox, w.token, collection.id)).toBe('collection-registered');
    }
    expect((await sandbox.get(`/collection-schedules/${schedule.id}`, w.token)).body.data).toEqual(schedule);
  });

  it('goes on booking every day at 00:00 UTC, so add_to_next_collection always finds one; a cancelled day is not booked again', async () => {
    const { sandbox, w, nl, body, create, booked } = await setup();
    // Only the schedule's collections count here: the shop's seeded plans go.
    for (const seeded of (await sandbox.get(`/collections?filter[shop]=${nl.shop.id}`, w.token)).body.data) {
      expect((await sandbox.request('DELETE', `/collections/${seeded.id}`, { token: w.token })).status).toBe(204);
    }
    expect((await create(body())).status).toBe(201);
    const [monday] = await booked();
    expect((await sandbox.request('DELETE', `/collections/${monday.id}`, { token: w.token })).status).toBe(204);
    for (let day = 1; day <= 14; day++) {
      await sandbox.advance(DAY);
      const token = await sandbox.token();
      const shipment = await createShipment(
        sandbox,
        token,
        shipmentBody({ shop: nl.shop, service: nl.service, contract: nl.contract, meta: { add_to_next_collection: true } }),
      );
      const next = (await sandbox.get(`/collections/${shipment.relationships.collection.data.id}`, token)).body.data;
      expect(next.attributes.description, `day ${day}`).toBe('Scheduled');
      expect(next.attributes.collection_time.from).toBeGreaterThan(sandbox.clock.now());
    }
    const froms = (await booked(await sandbox.token())).map((c: Json) => c.attributes.collection_time.from);
    expect(new Set(froms).size).toBe(froms.length);
    // Monday's collection is the voided one: the day was not booked a second time.
    expect(froms.filter((from: number) => from === MONDAY + 13 * HOUR)).toHaveLength(1);
    expect(await collectionStatus(sandbox, await sandbox.token(), monday.id)).toBe('collection-voided');
    expect(froms.at(-1)).toBeLessThanOrEqual(sandbox.clock.now() + 8 * DAY + 17 * HOUR);
  });

  it('after a clock move of weeks books the days ahead of the new date, not every day the move passed over', async () => {
    const { sandbox, create, body, booked } = await setup();
    expect((await create(body())).status).toBe(201);
    // Sunday 00:00 + 70 days: the next Sunday 00:00, ten weeks on. One top-up runs, as of that midnight.
    await sandbox.advance(70 * DAY);
    const froms = (await booked(await sandbox.token())).map((c: Json) => c.attributes.collection_time.from);
    expect(froms.sort((x: number, y: number) => x - y)).toEqual([0, 2, 4, 70, 72, 74].map((day) => MONDAY + day * DAY + 13 * HOUR));
  });

  it('after a clock move books no window that began, or whose cut-off passed, before the moment the top-up runs', async () => {
    const { sandbox, w, create } = await setup();
    const de = carrierSetup(w, 'DE', 'dpd-classic');
    const schedule = {
      data: {
        type: 'collection-schedules',
        attributes: {
          days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
          collection: { description: 'Scheduled', time: { from: '12:00', to: '17:00' }, address: de.shop.attributes.sender_address },
        },
        relationships: { shop: { data: { type: 'shops', id: de.shop.id } }, contract: { data: { type: 'contracts', id: de.contract.id } } },
      },
    };
    expect((await create(schedule)).status).toBe(201);
    // Monday 15:00, ten weeks on: DPD's bookings for today's 12:00 window closed at 10:00, and it has begun.
    await sandbox.advance(MONDAY + 70 * DAY + 15 * HOUR - TEST_NOW);
    const token = await sandbox.token();
    const after = (await sandbox.get(`/collections?filter[shop]=${de.shop.id}&page[size]=100`, token)).body.data.filter(
      (c: Json) => c.attributes.description === 'Scheduled' && c.attributes.collection_time.from > MONDAY + 7 * DAY,
    );
    expect(after.map((c: Json) => c.attributes.collection_time.from)).toEqual([1, 2, 3, 4, 7].map((day) => MONDAY + (70 + day) * DAY + 12 * HOUR));
  });

  it('books collection-registration-failed days once its contract is no longer active, and a contract it uses cannot be deleted', async () => {
    const { sandbox, w, body, create, booked } = await setup();
    const own = (await sandbox.get('/contracts?filter[status]=pending', w.token)).body.data[0];
    const credentials = { customer_code: 'DEVC', customer_number: '11223344', api_key: 'k'.repeat(32) };
    const patchContract = (attributes: Json) =>
      sandbox.request('PATCH', `/contracts/${own.id}`, { token: w.token, body: { data: { type: 'contracts', id: own.id, attributes } } });
    expect((await patchContract({ credentials })).status).toBe(200);
    expect((await sandbox.request('POST', `/contracts/${own.id}/validate`, { token: w.token })).body.data.valid).toBe(true);
    expect((await create(body({}, { contract: { data: { type: 'contracts', id: own.id } } }))).status).toBe(201);
    const refused = await sandbox.request('DELETE', `/contracts/${own.id}`, { token: w.token });
    expect(firstError(refused)).toMatchObject({ status: '422', detail: expect.stringMatching(/1 collection schedule/) });
    expect((await patchContract({ status: 'inactive' })).status).toBe(200);
    await sandbox.advance(3 * DAY);
    const token = await sandbox.token();
    const latest = (await booked(token)).at(-1);
    expect(latest.attributes.collection_time.from).toBe(MONDAY + 9 * DAY + 13 * HOUR);
    expect(await collectionStatus(sandbox, token, latest.id)).toBe('collection-registration-failed');
    expect(latest.attributes).not.toHaveProperty('tracking_code');
  });

  it('without a contract books plans; the zone of the times is applied', async () => {
    const { nl, body, create, booked } = await setup();
    const answer = await create(
      body(
        {
          days: ['tuesday'],
          collection: { description: 'Scheduled', time: { from: '09:30+01:00', to: '11:00+01:00' }, address: nl.shop.attributes.sender_address },
        },
        { contract: undefined },
      ),
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.relationships).not.toHaveProperty('contract');
    const [tuesday] = await booked();
    expect(tuesday.attributes.collection_time).toEqual({ from: MONDAY + DAY + 8 * HOUR + 30 * 60, to: MONDAY + DAY + 10 * HOUR });
    expect(tuesday.attributes.register).toBe(false);
  });

  it('refuses days and windows the carrier does not collect in, each with its pointer, and books nothing', async () => {
    const { sandbox, nl, body, create } = await setup();
    const before = sandbox.store.snapshot();
    const cases: [Json, Json, string[]][] = [
      [{ days: ['monday', 'saturday', 'sunday'] }, {}, ['/data/attributes/days/1', '/data/attributes/days/2']],
      [{ collection: { time: { from: '11:00', to: '14:00' }, address: nl.shop.attributes.sender_address } }, {}, ['/data/attributes/collection/time']],
      [{ collection: { time: { from: '15:00', to: '14:00' }, address: nl.shop.attributes.sender_address } }, {}, ['/data/attributes/collection/time/to']],
      [
        { collection: { time: { from: '13:00', to: '17:00' }, address: { ...nl.shop.attributes.sender_address, country_code: 'GB' } } },
        {},
        ['/data/attributes/collection/address/country_code'],
      ],
      [{}, { shop: { data: { type: 'shops', id: '00000000-0000-4000-8000-000000000000' } } }, ['/data/relationships/shop/data/id']],
    ];
    for (const [attributes, relationships, pointers] of cases) {
      const answer = await create(body(attributes, relationships));
      expect(answer.status, JSON.stringify(attributes)).toBe(422);
      expect(
        answer.body.errors.map((e: Json) => e.source.pointer),
        JSON.stringify(attributes),
      ).toEqual(pointers);
    }
    const pending = (await sandbox.get('/contracts?page[size]=100', await sandbox.token())).body.data.find((c: Json) => c.attributes.status === 'pending');
    const inactive = await create(body({}, { contract: { data: { type: 'contracts', id: pending.id } } }));
    expect(firstError(inactive)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/contract/data/id' } });
    for (const [attributes, pointer] of [
      [{ days: [] }, '/data/attributes/days'],
      [{ days: ['monday', 'monday'] }, '/data/attributes/days'],
      [{ days: ['maandag'] }, '/data/attributes/days/0'],
      [{ collection: { time: { from: '1pm', to: '17:00' }, address: nl.shop.attributes.sender_address } }, '/data/attributes/collection/time/from'],
    ] as [Json, string][]) {
      const answer = await create(body(attributes));
      expect(answer.status, JSON.stringify(attributes)).toBe(400);
      expect(answer.body.errors.map((e: Json) => e.source.pointer)).toContain(pointer);
    }
    expect(sandbox.store.snapshot()).toEqual(before);
  });
});

describe('reading and deleting schedules', () => {
  it('lists them by shop and carrier, keeps each tenant to its own, and DELETE stops the booking', async () => {
    const { sandbox, w, nl, body, create, booked } = await setup();
    const schedule = (await create(body())).body.data;
    const list = async (query: string) => (await sandbox.get(`/collection-schedules?${query}`, w.token)).body.data.map((s: Json) => s.id);
    expect(await list('')).toEqual([schedule.id]);
    expect(await list(`filter[shop]=${nl.shop.id}&filter[carrier]=${nl.carrierId}`)).toEqual([schedule.id]);
    expect(await list(`filter[carrier]=${w.service('dpd-classic', 'DE').relationships.carrier.data.id}`)).toEqual([]);
    const other = await sandbox.token('other-client');
    expect((await sandbox.get('/collection-schedules', other)).body.data).toEqual([]);
    expect(firstError(await sandbox.get(`/collection-schedules/${schedule.id}`, other))).toMatchObject({ status: '404', code: '10002' });
    expect(firstError(await sandbox.request('DELETE', `/collection-schedules/${schedule.id}`, { token: other }))).toMatchObject({ code: '10002' });

    const count = (await booked()).length;
    expect((await sandbox.request('DELETE', `/collection-schedules/${schedule.id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.get(`/collection-schedules/${schedule.id}`, w.token)).status).toBe(404);
    await sandbox.advance(3 * DAY);
    // The collections it booked stay; no new ones come.
    expect((await booked(await sandbox.token())).length).toBe(count);
  });

  it('go with their tenant on a reset, with the manifests', async () => {
    const { sandbox, body, create } = await setup();
    expect((await create(body())).status).toBe(201);
    const reset = await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: 'sandbox-client' } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.removed.collection_schedules).toBe(1);
    expect((await sandbox.get('/collection-schedules', await sandbox.token())).body.data).toEqual([]);
    expect(sandbox.store.all('jobs').filter((job) => job.kind === 'top-up-collection-schedule')).toEqual([]);
  });
});
