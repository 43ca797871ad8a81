import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

/*
 * System messages: a broker's notices to all its organizations. Every client reads its own
 * broker's; only the broker (the admin token) writes them.
 */

const ADMIN = 'system-messages-admin-token';
const json = { 'content-type': 'application/json' };

const messageBody = (brokerId: string, attributes: Json = { content: 'Collections run late today.', level: 'warning' }) => ({
  data: { type: 'system-messages', attributes, relationships: { broker: { data: { type: 'brokers', id: brokerId } } } },
});

async function setup() {
  const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
  const a = await sandbox.token('sandbox-client');
  const brokerId: string = (await sandbox.get('/brokers', a)).body.data[0].id;
  return { sandbox, a, brokerId };
}

async function post(sandbox: TestSandbox, body: unknown, token = ADMIN) {
  return sandbox.request('POST', '/system-messages', { token, body });
}

/** A tenant made from the shipped pack with a broker of its own, with a token of its first client. */
async function packTenant(sandbox: TestSandbox): Promise<{ organizationId: string; token: string; brokerId: string }> {
  const made = await sandbox.request('POST', '/_sandbox/tenants', { token: ADMIN, body: { pack: 'broker-three-organizations' }, headers: json });
  expect(made.status, made.text).toBe(201);
  const answer = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: made.body.client_id, client_secret: made.body.client_secret, scope: '*' },
    headers: json,
  });
  const token: string = answer.body.access_token;
  const brokerId: string = (await sandbox.get('/brokers', token)).body.data[0].id;
  return { organizationId: made.body.organization_id, token, brokerId };
}

describe('system messages', () => {
  it('are created, read, changed and deleted by the broker; its organizations read them', async () => {
    const { sandbox, a, brokerId } = await setup();
    expect((await sandbox.get('/system-messages', a)).body.data).toEqual([]);

    const created = await post(sandbox, messageBody(brokerId));
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.data.id;
    expect(created.headers.get('location')).toBe(`http://sandbox.test/system-messages/${id}`);
    expect(created.body.data).toMatchObject({
      type: 'system-messages',
      attributes: { content: 'Collections run late today.', level: 'warning' },
      relationships: { broker: { data: { type: 'brokers', id: brokerId } } },
    });

    const got = await sandbox.get(`/system-messages/${id}`, a);
    expect(got.status, got.text).toBe(200);
    expect(got.body.data).toEqual(created.body.data);
    expect((await sandbox.get('/system-messages', a)).body.data.map((row: Json) => row.id)).toEqual([id]);

    const changed = await sandbox.request('PATCH', `/system-messages/${id}`, {
      token: ADMIN,
      body: { data: { type: 'system-messages', id, attributes: { level: 'info' }, relationships: messageBody(brokerId).data.relationships } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes).toEqual({ content: 'Collections run late today.', level: 'info' });
    expect((await sandbox.get(`/system-messages/${id}`, a)).body.data.attributes.level).toBe('info');

    const deleted = await sandbox.request('DELETE', `/system-messages/${id}`, { token: ADMIN });
    expect(deleted.status).toBe(204);
    expect(firstError(await sandbox.get(`/system-messages/${id}`, a))).toMatchObject({ status: '404', code: '10002' });
  });

  it('filter by broker and include the broker', async () => {
    const { sandbox, a, brokerId } = await setup();
    const created = await post(sandbox, messageBody(brokerId));
    const listed = await sandbox.get(`/system-messages?filter[broker]=${brokerId}&include=broker`, a);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((row: Json) => row.id)).toEqual([created.body.data.id]);
    expect(listed.body.included).toEqual([expect.objectContaining({ type: 'brokers', id: brokerId })]);
    const other = await sandbox.get('/system-messages?filter[broker]=6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', a);
    expect(other.body.data).toEqual([]);
    // Production documents include on the list only.
    expect(firstError(await sandbox.get(`/system-messages/${created.body.data.id}?include=broker`, a))).toMatchObject({
      status: '400',
      source: { parameter: 'include' },
    });
    expect(firstError(await sandbox.get('/system-messages?include=organization', a))).toMatchObject({ status: '400', source: { parameter: 'include' } });
  });

  it("a tenant's token reads with broker.member and is refused every write, also with the scope", async () => {
    const { sandbox, a, brokerId } = await setup();
    const id: string = (await post(sandbox, messageBody(brokerId))).body.data.id;
    const change = { data: { type: 'system-messages', id, attributes: { content: 'Changed' }, relationships: messageBody(brokerId).data.relationships } };
    expect(firstError(await post(sandbox, messageBody(brokerId), a))).toMatchObject({ status: '403', code: '10013' });
    expect(firstError(await sandbox.request('PATCH', `/system-messages/${id}`, { token: a, body: change }))).toMatchObject({ status: '403', code: '10013' });
    expect(firstError(await sandbox.request('DELETE', `/system-messages/${id}`, { token: a }))).toMatchObject({ status: '403', code: '10013' });

    const withoutMember = await sandbox.token('sandbox-client', 'shipments.manage');
    expect(firstError(await sandbox.get('/system-messages', withoutMember))).toMatchObject({ status: '403', code: '14004' });
    expect(firstError(await sandbox.get(`/system-messages/${id}`, withoutMember))).toMatchObject({ status: '403', code: '14004' });
    const memberOnly = await sandbox.token('sandbox-client', 'broker.member');
    expect((await sandbox.get(`/system-messages/${id}`, memberOnly)).status).toBe(200);
    expect(firstError(await post(sandbox, messageBody(brokerId), memberOnly))).toMatchObject({ status: '403', code: '14004' });
    expect((await sandbox.get(`/system-messages/${id}`, a)).body.data.attributes.content).toBe('Collections run late today.');
  });

  it("another broker's messages are 404 for a tenant, as a missing one", async () => {
    const { sandbox, a, brokerId } = await setup();
    const tenant = await packTenant(sandbox);
    expect(tenant.brokerId).not.toBe(brokerId);
    const theirs: string = (await post(sandbox, messageBody(tenant.brokerId, { content: 'For partners only', level: 'error' }))).body.data.id;
    const ours: string = (await post(sandbox, messageBody(brokerId))).body.data.id;

    expect((await sandbox.get(`/system-messages/${theirs}`, tenant.token)).status).toBe(200);
    for (const [token, foreign] of [
      [a, theirs],
      [tenant.token, ours],
    ] as const) {
      expect(firstError(await sandbox.get(`/system-messages/${foreign}`, token))).toMatchObject({ status: '404', code: '10002' });
      expect(firstError(await sandbox.request('DELETE', `/system-messages/${foreign}`, { token }))).toMatchObject({ status: '404', code: '10002' });
    }
    expect((await sandbox.get('/system-messages', a)).body.data.map((row: Json) => row.id)).toEqual([ours]);
    expect((await sandbox.get(`/system-messages?filter[broker]=${tenant.brokerId}`, a)).body.data).toEqual([]);
    expect((await sandbox.get('/system-messages', tenant.token)).body.data.map((row: Json) => row.id)).toEqual([theirs]);
  });

  it('validates the message, pointing at the member at fault', async () => {
    const { sandbox, brokerId } = await setup();
    const cases: [Json, number, string][] = [
      [messageBody(brokerId, { level: 'info' }), 400, '/data/attributes/content'],
      [messageBody(brokerId, { content: 'x'.repeat(256), level: 'info' }), 400, '/data/attributes/content'],
      [messageBody(brokerId, { content: 'Hello' }), 400, '/data/attributes/level'],
      [messageBody(brokerId, { content: 'Hello', level: 'urgent' }), 400, '/data/attributes/level'],
      [messageBody(brokerId, { content: 'Hello', level: 'info', created_at: 1 }), 400, '/data/attributes/created_at'],
      [{ data: { type: 'system-messages', attributes: { content: 'Hello', level: 'info' } } }, 400, '/data/relationships'],
      [messageBody('6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b'), 404, '/data/relationships/broker/data/id'],
      [{ data: { ...messageBody(brokerId).data, type: 'brokers' } }, 409, '/data/type'],
    ];
    for (const [body, status, pointer] of cases) {
      const answer = await post(sandbox, body);
      expect(answer.status, `${JSON.stringify(body)}: ${answer.text}`).toBe(status);
      expect(firstError(answer).source.pointer).toBe(pointer);
    }
    const id: string = (await post(sandbox, messageBody(brokerId))).body.data.id;
    const noBroker = await sandbox.request('PATCH', `/system-messages/${id}`, {
      token: ADMIN,
      body: { data: { type: 'system-messages', id, attributes: { level: 'error' } } },
    });
    // Production's update requires only type and id: left out, the broker stays as it is.
    expect(noBroker.status, noBroker.text).toBe(200);
    expect(noBroker.body.data.relationships.broker.data.id).toBe(brokerId);
    expect(sandbox.store.get('systemMessages', id)?.level).toBe('error');
    // Sent, the relationships object must name the broker.
    const empty = await sandbox.request('PATCH', `/system-messages/${id}`, {
      token: ADMIN,
      body: { data: { type: 'system-messages', id, attributes: { level: 'info' }, relationships: {} } },
    });
    expect(firstError(empty)).toMatchObject({ status: '400', source: { pointer: '/data/relationships/broker' } });
    expect(sandbox.store.get('systemMessages', id)?.level).toBe('error');
  });

  it('a change naming another broker moves the message to its organizations', async () => {
    const { sandbox, a, brokerId } = await setup();
    const tenant = await packTenant(sandbox);
    const id: string = (await post(sandbox, messageBody(brokerId))).body.data.id;
    const moved = await sandbox.request('PATCH', `/system-messages/${id}`, {
      token: ADMIN,
      body: { data: { type: 'system-messages', id, relationships: messageBody(tenant.brokerId).data.relationships } },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.relationships.broker.data.id).toBe(tenant.brokerId);
    expect(firstError(await sandbox.get(`/system-messages/${id}`, a))).toMatchObject({ status: '404', code: '10002' });
    expect((await sandbox.get(`/system-messages/${id}`, tenant.token)).body.data.attributes).toEqual({
      content: 'Collections run late today.',
      level: 'warning',
    });
  });

  it("go with the tenant whose pack made their broker; the sandbox broker's stay", async () => {
    const { sandbox, a, brokerId } = await setup();
    const tenant = await packTenant(sandbox);
    const theirs: string = (await post(sandbox, messageBody(tenant.brokerId))).body.data.id;
    const ours: string = (await post(sandbox, messageBody(brokerId))).body.data.id;
    // A tenant reset clears what the tenant made: its broker's messages are the broker's, and stay.
    const reset = await sandbox.request('POST', '/_sandbox/reset', { token: tenant.token, body: {}, headers: json });
    expect(reset.status, reset.text).toBe(200);
    expect((await sandbox.get(`/system-messages/${theirs}`, tenant.token)).status).toBe(200);
    const deleted = await sandbox.request('DELETE', `/_sandbox/tenants/${tenant.organizationId}`, { token: ADMIN });
    expect(deleted.status, deleted.text).toBe(200);
    expect(sandbox.store.get('systemMessages', theirs)).toBeUndefined();
    expect(sandbox.store.get('brokers', tenant.brokerId)).toBeUndefined();
    expect((await sandbox.get(`/system-messages/${ours}`, a)).status).toBe(200);
  });
});
