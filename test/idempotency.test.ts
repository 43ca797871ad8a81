import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deflateRawSync } from 'node:zlib';
import { unpackBody } from '../src/domain/replay-body.js';
import { LEGACY_DICTIONARIES } from '../src/domain/replay-body-legacy.js';
import { filePersistence, type Persistence } from '../src/store/persistence.js';
import { firstError, testSandbox, type Json } from './support/app.js';
import { gatedPersistence } from './support/gated.js';
import { shipmentBody, world } from './support/shipments.js';

async function setup(persistence?: Persistence) {
  const sandbox = await testSandbox({ persistence });
  const w = await world(sandbox);
  const post = (body: Json, key: string) => sandbox.request('POST', '/shipments', { token: w.token, body, headers: { 'idempotency-key': key } });
  return { sandbox, w, post, body: shipmentBody({ shop: w.shopIn('NL'), attributes: { customer_reference: 'ORDER-77' } }) };
}

describe('Idempotency-Key on POST /shipments', () => {
  it('replays the first answer for the same key and body, with Idempotency-Replay', async () => {
    const { sandbox, post, body } = await setup();
    const first = await post(body, 'order-77');
    const again = await post(JSON.parse(JSON.stringify(body)), 'order-77');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotency-replay')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(sandbox.store.count('shipments')).toBe(1);
  });

  it('replays the Location of the first answer, on each create that takes a key', async () => {
    const { sandbox, w, post, body } = await setup();
    const first = await post(body, 'order-located');
    const again = await post(body, 'order-located');
    expect(first.headers.get('location')).toBe(first.body.data.links.self);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    const service = w.service('postnl-parcel-standard', 'NL');
    const registering = shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service) });
    const register = () =>
      sandbox.request('POST', '/registered-shipments', { token: w.token, body: registering, headers: { 'idempotency-key': 'registered-located' } });
    const registered = await register();
    const retried = await register();
    expect(registered.status).toBe(201);
    expect(retried.headers.get('idempotency-replay')).toBe('true');
    expect(retried.headers.get('location')).toBe(registered.headers.get('location'));
    // A refusal made nothing: its replay names no place either.
    const nowhere = { ...body, data: { ...body.data, relationships: { shop: { data: { type: 'shops', id: '00000000-0000-4000-8000-000000000000' } } } } };
    await post(nowhere, 'refused-located');
    const refused = await post(nowhere, 'refused-located');
    expect(refused.status).toBe(422);
    expect(refused.headers.get('location')).toBeNull();
  });

  it('answers 422 for the same key with another body', async () => {
    const { post, body } = await setup();
    await post(body, 'order-78');
    const other = structuredClone(body);
    other.data.attributes.customer_reference = 'ORDER-79';
    const answer = await post(other, 'order-78');
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ code: '10008', source: { header: 'Idempotency-Key' } });
  });

  it('answers 422, never a replay, for the same key with a body that differs only in members the API ignores', async () => {
    const { sandbox, w, post, body } = await setup();
    const first = await post(body, 'order-80');
    expect(first.status).toBe(201);
    for (const [label, other] of [
      ['an unknown top-level member', { ...body, extra: { anything: 1 } }],
      ['a member of meta', { ...body, meta: { note: 'for mum' } }],
      ['a member of the resource meta', { ...body, data: { ...body.data, meta: { source: 'web shop' } } }],
      ['an unknown relationship', { ...body, data: { ...body.data, relationships: { ...body.data.relationships, gift_wrap: { data: null } } } }],
    ] as const) {
      // Each of these alone is accepted and ignored: without a key it creates a shipment.
      expect((await sandbox.request('POST', '/shipments', { token: w.token, body: other })).status, label).toBe(201);
      const answer = await post(other, 'order-80');
      expect(answer.status, label).toBe(422);
      expect(answer.headers.get('idempotency-replay'), label).toBeNull();
      expect(firstError(answer).detail, label).toContain('different request');
    }
    // Key order and whitespace are not a difference.
    const reordered = JSON.parse(JSON.stringify({ data: { relationships: body.data.relationships, attributes: body.data.attributes, type: 'shipments' } }));
    expect((await post(reordered, 'order-80')).headers.get('idempotency-replay')).toBe('true');
    expect(sandbox.store.count('shipments')).toBe(5);
  });

  it('answers 422 for the same key and body with another query', async () => {
    const { sandbox, w, body } = await setup();
    const send = (query: string, key: string) => sandbox.request('POST', `/shipments${query}`, { token: w.token, body, headers: { 'idempotency-key': key } });
    const first = await send('', 'order-81');
    expect(first.status).toBe(201);
    const other = await send('?source=web', 'order-81');
    expect(other.status).toBe(422);
    expect(other.headers.get('idempotency-replay')).toBeNull();
    expect((await send('', 'order-81')).headers.get('idempotency-replay')).toBe('true');
    // Parameters in another order are the same query.
    const a = await send('?source=web&channel=2', 'order-82');
    const b = await send('?channel=2&source=web', 'order-82');
    expect(a.status).toBe(201);
    expect(b.headers.get('idempotency-replay')).toBe('true');
    expect(b.text).toBe(a.text);
    expect(sandbox.store.count('shipments')).toBe(2);
  });

  it('answers 422, never the answer of another endpoint, for the same key and body sent to another create', async () => {
    const { sandbox, w } = await setup();
    const service = w.service('postnl-parcel-standard', 'NL');
    const body = shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service) });
    const send = (path: string) => sandbox.request('POST', path, { token: w.token, body, headers: { 'idempotency-key': 'order-90' } });
    const concept = await send('/shipments');
    expect(concept.status).toBe(201);
    // A retry of a registration must not be told "registered" with a concept it never asked for.
    const registered = await send('/registered-shipments');
    expect(registered.status).toBe(422);
    expect(registered.headers.get('idempotency-replay')).toBeNull();
    expect(firstError(registered)).toMatchObject({ code: '10008', source: { header: 'Idempotency-Key' } });
    expect(sandbox.store.count('shipments')).toBe(1);
    // The other way round: a key first used for a registration is not replayed by POST /shipments.
    const other = (path: string) => sandbox.request('POST', path, { token: w.token, body, headers: { 'idempotency-key': 'order-91' } });
    expect((await other('/registered-shipments')).status).toBe(201);
    const again = await other('/shipments');
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotency-replay')).toBeNull();
    expect(sandbox.store.count('shipments')).toBe(2);
  });

  it('replays a refusal too, errors included', async () => {
    const { sandbox, post, body } = await setup();
    const nowhere = { shop: { data: { type: 'shops', id: '00000000-0000-4000-8000-000000000000' } } };
    const refused = { ...body, data: { ...body.data, relationships: { ...body.data.relationships, ...nowhere } } };
    const first = await post(refused, 'bad-1');
    const again = await post(refused, 'bad-1');
    expect(first.status).toBe(422);
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(sandbox.store.count('shipments')).toBe(0);
  });

  it('replays a body the schema refuses, a wrong type and an unknown include, and binds the key to that request', async () => {
    const { sandbox, w, post, body } = await setup();
    const attributes = (body.data as { attributes: Record<string, unknown> }).attributes;
    const weightless = { ...body, data: { ...body.data, attributes: { ...attributes, physical_properties: { weight: 0 } } } };
    const refusals: Array<[string, () => ReturnType<typeof post>]> = [
      ['schema', () => post(weightless, 'refused-schema')],
      ['type', () => post({ ...body, data: { ...body.data, type: 'shops' } }, 'refused-type')],
      ['include', () => sandbox.request('POST', '/shipments?include=nope', { token: w.token, body, headers: { 'idempotency-key': 'refused-include' } })],
    ];
    for (const [label, send] of refusals) {
      const first = await send();
      const again = await send();
      expect([first.status, again.status], label).toEqual([label === 'type' ? 409 : 400, label === 'type' ? 409 : 400]);
      expect(first.headers.get('idempotency-replay'), label).toBeNull();
      expect(again.headers.get('idempotency-replay'), label).toBe('true');
      expect(again.text, label).toBe(first.text);
    }
    // The key answered the refused request: the corrected one needs a key of its own.
    const corrected = await post(body, 'refused-schema');
    expect(corrected.status).toBe(422);
    expect(firstError(corrected)).toMatchObject({ code: '10008', source: { header: 'Idempotency-Key' } });
    expect(sandbox.store.count('shipments')).toBe(0);
    // And the other way round: a key that made a shipment answers a refused body with 422, not 400.
    expect((await post(body, 'made-one')).status).toBe(201);
    const broken = await post(weightless, 'made-one');
    expect(broken.status).toBe(422);
    expect(firstError(broken)).toMatchObject({ source: { header: 'Idempotency-Key' } });
    expect(sandbox.store.count('shipments')).toBe(1);
    // The two creates that register take their refusals as keyed outcomes alike.
    for (const path of ['/registered-shipments', '/multi-colli-shipments']) {
      const send = () => sandbox.request('POST', path, { token: w.token, body: weightless, headers: { 'idempotency-key': `refused-${path}` } });
      const first = await send();
      const again = await send();
      expect([first.status, again.headers.get('idempotency-replay')], path).toEqual([400, 'true']);
      expect(again.text, path).toBe(first.text);
    }
  });

  it('keys belong to a client: another client with the same key creates its own shipment', async () => {
    const { sandbox, post, body } = await setup();
    await post(body, 'shared-key');
    const limited = await sandbox.token('limited-client');
    const answer = await sandbox.request('POST', '/shipments', { token: limited, body, headers: { 'idempotency-key': 'shared-key' } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('idempotency-replay')).toBeNull();
    expect(sandbox.store.count('shipments')).toBe(2);
  });

  it('frees the key after 24 hours on the sandbox clock', async () => {
    const { sandbox, w, body } = await setup();
    const post = async (key: string) => sandbox.request('POST', '/shipments', { token: await sandbox.token(), body, headers: { 'idempotency-key': key } });
    const first = await post('daily');
    await sandbox.advance(24 * 3600 - 1);
    expect((await post('daily')).headers.get('idempotency-replay')).toBe('true');
    await sandbox.advance(1);
    const fresh = await post('daily');
    expect(fresh.headers.get('idempotency-replay')).toBeNull();
    expect(fresh.body.data.id).not.toBe(first.body.data.id);
    expect(w.token).toBeTruthy();
  });

  it("answers 409 while the first request with the key is still running (the seed's status, which wins over production's 423 here)", async () => {
    const gated = gatedPersistence();
    const { sandbox, post, body } = await setup(gated.persistence);
    gated.hold();
    const running = post(body, 'slow');
    await gated.reached();
    const meanwhile = await post(body, 'slow');
    expect(meanwhile.status).toBe(409);
    expect(firstError(meanwhile)).toMatchObject({ status: '409', code: '10007', source: { header: 'Idempotency-Key' } });
    gated.release();
    expect((await running).status).toBe(201);
    const after = await post(body, 'slow');
    expect(after.headers.get('idempotency-replay')).toBe('true');
    expect(sandbox.store.count('shipments')).toBe(1);
  });

  it('creates exactly one shipment from 50 concurrent requests with one key', async () => {
    const { sandbox, post, body } = await setup();
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(body, 'burst')));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.data.id)).size).toBe(1);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    expect(sandbox.store.count('shipments')).toBe(1);
  });

  it('replays the same text after a restart on the data file', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'idempotency-')), 'sandbox.json');
    const first = await setup(filePersistence(file));
    const created = await first.post(first.body, 'restart-1');
    await first.sandbox.store.close();
    const second = await setup(filePersistence(file));
    const again = await second.post(first.body, 'restart-1');
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.text).toBe(created.text);
    expect(second.sandbox.store.count('shipments')).toBe(first.sandbox.store.count('shipments'));
  });

  it('stores the replayed body gzipped, a fraction of its size, and still replays the records of older data files', async () => {
    const { sandbox, post, body } = await setup();
    const created = await post(body, 'packed-1');
    const [record] = sandbox.store.all('idempotencyKeys');
    // Base64 of gzip, with the record's own fields: about 60% of the body it replays.
    expect(JSON.stringify(record).length).toBeLessThan(created.text.length * 0.7);
    const text = unpackBody(record!);
    const { body_gzip: _gzip, ...rest } = record as typeof record & { body_gzip: string };
    // Older data files hold the text itself, or the text deflated against the preset dictionary.
    const legacy = [{ body: text }, { body_deflated: deflateRawSync(text, { dictionary: LEGACY_DICTIONARIES[1] }).toString('base64'), body_dictionary: 1 }];
    for (const stored of legacy) {
      await sandbox.store.transact((tx) => {
        tx.remove('idempotencyKeys', record!.id);
        tx.insert('idempotencyKeys', { ...rest, ...stored });
      });
      const again = await post(body, 'packed-1');
      expect(again.headers.get('idempotency-replay')).toBe('true');
      expect(again.text).toBe(created.text);
    }
  });

  it('refuses an empty or oversized key', async () => {
    const { sandbox, post, body } = await setup();
    const huge = await post(body, 'k'.repeat(10 * 1024));
    expect(huge.status).toBe(400);
    expect(firstError(huge)).toMatchObject({ source: { header: 'Idempotency-Key' } });
    expect((await post(body, '')).status).toBe(400);
    expect(sandbox.store.count('shipments')).toBe(0);
  });
});
