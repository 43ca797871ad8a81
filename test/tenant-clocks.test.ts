/**
 * A sandbox clock per tenant (issue 15): one CI job moving its clock a day ahead expires its own
 * tokens and delivers its own shipments, and nobody else's. Tenants here are the two seeded
 * organizations (`sandbox-client` and `other-client`) and tenants made with POST /_sandbox/tenants.
 */
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';
import { filePersistence } from '../src/store/persistence.js';
import { firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody, world, type World } from './support/shipments.js';

const DAY = 86400;
/** REGISTRATION_DELAY and CONTRACT_VERIFICATION_DELAY of the test configuration. */
const REGISTRATION_DELAY = 2;
const VERIFICATION_DELAY = 5;

interface Tenant {
  token: string;
  organizationId: string;
}

async function fixtureTenant(sandbox: TestSandbox, clientId: 'sandbox-client' | 'other-client'): Promise<Tenant> {
  const token = await sandbox.token(clientId);
  return { token, organizationId: (await sandbox.get('/organizations', token)).body.data[0].id };
}

/** The two seeded tenants: A (`sandbox-client`) and B (`other-client`). */
async function twoTenants(sandbox: TestSandbox): Promise<[Tenant, Tenant]> {
  return [await fixtureTenant(sandbox, 'sandbox-client'), await fixtureTenant(sandbox, 'other-client')];
}

async function clockOf(sandbox: TestSandbox, token?: string): Promise<Json> {
  const answer = await sandbox.get('/_sandbox/clock', token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

async function move(sandbox: TestSandbox, body: Json, token?: string): Promise<Json> {
  const answer = await sandbox.request('POST', '/_sandbox/clock', { token, body, headers: { 'content-type': 'application/json' } });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/**
 * A domestic parcel that walks to delivered, registered as soon as `registerAt` allows: PostNL in
 * the Netherlands for A, Royal Mail in Great Britain for B (its only shop is there).
 */
function deliverable(w: World, registerAt = TEST_NOW): Json {
  const country = w.shops.some((shop: Json) => shop.attributes.sender_address?.country_code === 'NL') ? 'NL' : 'GB';
  const service = w.service(country === 'NL' ? 'postnl-parcel-standard' : 'royal-mail-tracked-48', country);
  return shipmentBody({
    shop: w.shopIn(country),
    recipient: recipients[country],
    service,
    contract: w.contractFor(service),
    attributes: { register_at: registerAt, tags: ['sandbox:auto-deliver'] },
  });
}

async function statusOf(sandbox: TestSandbox, token: string, id: string): Promise<{ code: string; at: number }> {
  const answer = await sandbox.get(`/shipments/${id}?include=shipment_status.status`, token);
  expect(answer.status, answer.text).toBe(200);
  const status = answer.body.included.find((row: Json) => row.type === 'statuses');
  const shipmentStatus = answer.body.included.find((row: Json) => row.type === 'shipment-statuses');
  return { code: status.attributes.code, at: shipmentStatus.attributes.created_at };
}

function contractBody(carrierId: string, organizationId: string): Json {
  return {
    data: {
      type: 'contracts',
      attributes: { name: 'Own contract', currency: 'EUR', credentials: { customer_code: 'DEVC', customer_number: '11223344', api_key: 'k'.repeat(32) } },
      relationships: { carrier: { data: { type: 'carriers', id: carrierId } }, owner: { data: { type: 'organizations', id: organizationId } } },
    },
  };
}

describe('a sandbox clock per tenant', () => {
  it("reads and moves the tenant's own clock; other tenants and the global clock stay where they are", async () => {
    const sandbox = await testSandbox();
    const [a, b] = await twoTenants(sandbox);
    expect(await clockOf(sandbox, a.token)).toEqual({ now: TEST_NOW, offset: 0, organization_id: a.organizationId, follows_global: true });

    const moved = await move(sandbox, { advance: 3600 }, a.token);
    expect(moved).toEqual({ now: TEST_NOW + 3600, offset: 3600, organization_id: a.organizationId, follows_global: false });
    expect(await move(sandbox, { now: TEST_NOW + 7200 }, a.token)).toMatchObject({ now: TEST_NOW + 7200, organization_id: a.organizationId });

    expect(await clockOf(sandbox, a.token)).toMatchObject({ now: TEST_NOW + 7200, follows_global: false });
    expect(await clockOf(sandbox, b.token)).toEqual({ now: TEST_NOW, offset: 0, organization_id: b.organizationId, follows_global: true });
    expect(await clockOf(sandbox)).toEqual({ now: TEST_NOW, offset: 0 });

    // The request log dates each tenant's requests on its clock.
    const lastLogged = async (who: Tenant) => {
      await sandbox.get('/shops', who.token);
      return (await sandbox.get('/_sandbox/requests?path=/shops&limit=1', who.token)).body.data[0].time;
    };
    expect(await lastLogged(a)).toBe(TEST_NOW + 7200);
    expect(await lastLogged(b)).toBe(TEST_NOW);
  });

  it("expires a tenant's tokens when its own clock passes their expiry, while the other tenant's tokens keep working", async () => {
    const sandbox = await testSandbox();
    const [a, b] = await twoTenants(sandbox);
    const ttl = sandbox.config.tokenTtl;
    await move(sandbox, { advance: ttl - 1 }, a.token);
    expect((await sandbox.get('/shops', a.token)).status).toBe(200);
    await move(sandbox, { advance: 1 }, a.token);

    const expired = await sandbox.get('/shops', a.token);
    expect(expired.status).toBe(401);
    expect(firstError(expired)).toMatchObject({ code: '14002' });
    expect(firstError(expired).detail).toMatch(/expired/);
    // The same token is refused on the controls too: with it, nobody can move A's clock any more.
    expect((await sandbox.get('/_sandbox/clock', a.token)).status).toBe(401);
    expect((await sandbox.get('/shops', b.token)).status).toBe(200);

    // A new token of A is issued on A's clock and lives its full lifetime there.
    const fresh = await sandbox.token('sandbox-client');
    const claims = JSON.parse(Buffer.from(fresh.split('.')[1]!, 'base64url').toString());
    expect(claims.iat).toBe(TEST_NOW + ttl);
    expect(claims.exp).toBe(TEST_NOW + 2 * ttl);
    expect((await sandbox.get('/shops', fresh)).status).toBe(200);
    // A token of B is issued on B's clock, which did not move.
    const other = JSON.parse(Buffer.from((await sandbox.token('other-client')).split('.')[1]!, 'base64url').toString());
    expect(other.iat).toBe(TEST_NOW);
  });

  it('verifies the contracts of the tenant whose clock moved, and of no other tenant', async () => {
    const sandbox = await testSandbox();
    const [a, b] = await twoTenants(sandbox);
    const postnl = (await sandbox.read('/carriers')).body.data.find((carrier: Json) => carrier.attributes.code === 'postnl');
    const create = async (who: Tenant) => {
      const answer = await sandbox.request('POST', '/contracts', { token: who.token, body: contractBody(postnl.id, who.organizationId) });
      expect(answer.status, answer.text).toBe(201);
      expect(answer.body.data.attributes.status).toBe('pending');
      return answer.body.data.id as string;
    };
    const [mine, theirs] = [await create(a), await create(b)];
    const status = async (who: Tenant, id: string) => (await sandbox.get(`/contracts/${id}`, who.token)).body.data.attributes.status;
    expect(sandbox.store.get('jobs', sandbox.store.find('jobs', 'subject', mine)[0]!.id)).toMatchObject({ organization_id: a.organizationId });

    await move(sandbox, { advance: VERIFICATION_DELAY }, a.token);
    expect(await status(a, mine)).toBe('active');
    expect(await status(b, theirs)).toBe('pending');
    await move(sandbox, { advance: VERIFICATION_DELAY }, b.token);
    expect(await status(b, theirs)).toBe('active');
  });

  it("registers a tenant's shipments and walks them to delivered on its own clock; the other tenant's shipment stays put", async () => {
    const sandbox = await testSandbox();
    const [wa, wb] = [await world(sandbox, 'sandbox-client'), await world(sandbox, 'other-client')];
    const a = await fixtureTenant(sandbox, 'sandbox-client');
    const mine = await createShipment(sandbox, wa.token, deliverable(wa));
    const theirs = await createShipment(sandbox, wb.token, deliverable(wb));
    expect(new Set(sandbox.store.all('jobs').map((job) => job.organization_id))).toEqual(
      new Set([a.organizationId, sandbox.store.get('shipments', theirs.id)!.organization_id]),
    );

    await move(sandbox, { advance: 2 * DAY }, wa.token);
    // A's token expired on A's clock (B's did not); a new one is valid on it.
    const ta = await sandbox.token('sandbox-client');
    const delivered = await statusOf(sandbox, ta, mine.id);
    expect(delivered.code).toBe('shipment-delivered');
    // The walk is dated on A's clock, well ahead of the global clock, which did not move.
    expect(delivered.at).toBeGreaterThan(TEST_NOW + REGISTRATION_DELAY);
    expect(delivered.at).toBeLessThanOrEqual(TEST_NOW + 2 * DAY);
    expect(await statusOf(sandbox, wb.token, theirs.id)).toEqual({ code: 'shipment-concept', at: TEST_NOW });

    // What A writes from now on is dated on its clock; B's writes on B's.
    const later = await createShipment(sandbox, ta, deliverable(wa, TEST_NOW + 3 * DAY));
    expect(later.attributes.created_at).toBe(TEST_NOW + 2 * DAY);
    const other = await createShipment(sandbox, wb.token, deliverable(wb, TEST_NOW + 3 * DAY));
    expect(other.attributes.created_at).toBe(TEST_NOW);

    await move(sandbox, { advance: REGISTRATION_DELAY }, wb.token);
    expect((await statusOf(sandbox, wb.token, theirs.id)).code).toBe('shipment-registered');
  });

  it('moves with the global clock every tenant that follows it, never a tenant ahead of it, until the global clock catches up', async () => {
    const sandbox = await testSandbox();
    const [a, b] = await twoTenants(sandbox);
    const wb = await world(sandbox, 'other-client');
    const theirs = await createShipment(sandbox, wb.token, deliverable(wb));
    await move(sandbox, { advance: DAY }, a.token);
    // A token lives a day: A needs a new one, issued on its clock.
    const ta = await sandbox.token('sandbox-client');

    // The global move: B follows it (its shipment is registered and received), A keeps its own time.
    expect(await move(sandbox, { advance: 7200 })).toEqual({ now: TEST_NOW + 7200, offset: 7200 });
    expect(await clockOf(sandbox, b.token)).toMatchObject({ now: TEST_NOW + 7200, follows_global: true });
    expect(await clockOf(sandbox, ta)).toMatchObject({ now: TEST_NOW + DAY, follows_global: false });
    expect((await statusOf(sandbox, wb.token, theirs.id)).code).toBe('shipment-received-by-carrier');

    // The global clock passes A's: from then on A follows it again, and its own setting is forgotten.
    await move(sandbox, { now: TEST_NOW + 2 * DAY - 60 });
    expect(await clockOf(sandbox, ta)).toEqual({ now: TEST_NOW + 2 * DAY - 60, offset: 2 * DAY - 60, organization_id: a.organizationId, follows_global: true });
    expect(sandbox.store.all('tenantClocks')).toEqual([]);
    await move(sandbox, { advance: 30 });
    expect((await clockOf(sandbox, ta)).now).toBe(TEST_NOW + 2 * DAY - 30);
  });

  it("retries a tenant's failed webhook deliveries on its own clock", async () => {
    const received: string[] = [];
    const answers = [500, 500];
    const server = createServer((request, response) => {
      request.resume().on('end', () => {
        received.push(new URL(request.url!, 'http://receiver').searchParams.get('tenant')!);
        response.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
      const sandbox = await testSandbox();
      const [wa, wb] = [await world(sandbox, 'sandbox-client'), await world(sandbox, 'other-client')];
      const concept = (await sandbox.get('/statuses?page[size]=100', wa.token)).body.data.find((row: Json) => row.attributes.code === 'shipment-concept').id;
      for (const [w, name] of [
        [wa, 'a'],
        [wb, 'b'],
      ] as const) {
        const organizationId = (await sandbox.get('/organizations', w.token)).body.data[0].id;
        const hook = await sandbox.request('POST', '/hooks', {
          token: w.token,
          body: {
            data: {
              type: 'hooks',
              attributes: {
                name: 'Notify',
                order: 100,
                active: true,
                trigger: {
                  resource_type: 'shipment-statuses',
                  resource_action: 'create',
                  predicates: [{ pointer: '/relationships/status/data/id', operator: '==', value: concept }],
                },
                action: { action_type: 'send-resource', values: [{ url: `${url}?tenant=${name}`, tries: 2, retry_delay: 60 }] },
              },
              relationships: { owner: { data: { type: 'organizations', id: organizationId } } },
            },
          },
        });
        expect(hook.status, hook.text).toBe(201);
        await createShipment(sandbox, w.token, deliverable(w, TEST_NOW + 9 * DAY));
      }
      await move(sandbox, { advance: 0 });
      expect(received.sort()).toEqual(['a', 'b']);
      await move(sandbox, { advance: 60 }, wa.token);
      expect(received).toEqual(['a', 'b', 'a']);
      await move(sandbox, { advance: 60 }, wb.token);
      expect(received).toEqual(['a', 'b', 'a', 'b']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("offers collection time slots that can still be booked on the caller's clock", async () => {
    const sandbox = await testSandbox();
    const [a, b] = await twoTenants(sandbox);
    const postnl = (await sandbox.read('/carriers')).body.data.find((carrier: Json) => carrier.attributes.code === 'postnl');
    const firstSlot = async (token: string) =>
      (await sandbox.get(`/carriers/${postnl.id}/collection-time-slots?country_code=NL&postal_code=1012AB&date_from=2026-01-12&date_to=2026-01-18`, token)).body
        .data[0].attributes.from;
    // TEST_NOW is Sunday 00:00 UTC. At 22:00 on A's clock PostNL's Monday slots are closed for A only.
    await move(sandbox, { advance: 22 * 3600 }, a.token);
    expect(await firstSlot(a.token)).toBe(TEST_NOW + 2 * DAY + 9 * 3600);
    expect(await firstSlot(b.token)).toBe(TEST_NOW + DAY + 9 * 3600);
  });

  it('keeps the replay window of Idempotency-Key on the tenant clock', async () => {
    const sandbox = await testSandbox();
    const [wa, wb] = [await world(sandbox, 'sandbox-client'), await world(sandbox, 'other-client')];
    const post = (w: World, body: Json) => sandbox.request('POST', '/shipments', { token: w.token, body, headers: { 'idempotency-key': 'nightly-run' } });
    const [mine, theirs] = [deliverable(wa, TEST_NOW + 9 * DAY), deliverable(wb, TEST_NOW + 9 * DAY)];
    expect((await post(wa, mine)).status).toBe(201);
    expect((await post(wb, theirs)).status).toBe(201);

    await move(sandbox, { advance: DAY }, wa.token);
    const changed = { ...mine, data: { ...mine.data, attributes: { ...mine.data.attributes, description: 'another parcel' } } };
    // A's key is free again after 24 hours on A's clock; B's key still replays and refuses another body.
    const again = await post({ ...wa, token: await sandbox.token('sandbox-client') }, changed);
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotency-replay')).toBeNull();
    expect((await post(wb, theirs)).headers.get('idempotency-replay')).toBe('true');
    const refused = await post(wb, { ...theirs, data: { ...theirs.data, attributes: { ...theirs.data.attributes, description: 'another parcel' } } });
    expect(refused.status).toBe(422);
  });

  it('keeps tenant clocks in the data file across a restart', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'tenant-clocks-')), 'sandbox.json');
    const first = await testSandbox({ persistence: filePersistence(file) });
    const [a, b] = await twoTenants(first);
    await move(first, { advance: 3 * 3600 }, a.token);
    await move(first, { advance: 600 });
    await first.store.close();

    const second = await testSandbox({ persistence: filePersistence(file) });
    expect(await clockOf(second, a.token)).toEqual({ now: TEST_NOW + 3 * 3600, offset: 3 * 3600, organization_id: a.organizationId, follows_global: false });
    expect(await clockOf(second, b.token)).toEqual({ now: TEST_NOW + 600, offset: 600, organization_id: b.organizationId, follows_global: true });
    expect(await clockOf(second)).toEqual({ now: TEST_NOW + 600, offset: 600 });
  });

  it("forgets every tenant's clock on a full reset, and leaves it on a tenant reset", async () => {
    const sandbox = await testSandbox();
    const [a] = await twoTenants(sandbox);
    await move(sandbox, { advance: 3600 }, a.token);
    const tenantReset = await sandbox.request('POST', '/_sandbox/reset', { token: a.token, body: {}, headers: { 'content-type': 'application/json' } });
    expect(tenantReset.status, tenantReset.text).toBe(200);
    expect(await clockOf(sandbox, a.token)).toMatchObject({ now: TEST_NOW + 3600, follows_global: false });

    const reset = await sandbox.request('POST', '/_sandbox/reset', { body: {}, headers: { 'content-type': 'application/json' } });
    expect(reset.status, reset.text).toBe(200);
    expect(await clockOf(sandbox, a.token)).toEqual({ now: TEST_NOW, offset: 0, organization_id: a.organizationId, follows_global: true });
  });

  it('forgets the clock of a removed organization, and a clock of no organization is the global clock', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.request('POST', '/_sandbox/tenants', { body: {}, headers: { 'content-type': 'application/json' } });
    const token = (
      await sandbox.request('POST', '/access-token', {
        body: { grant_type: 'client_credentials', client_id: created.body.client_id, client_secret: created.body.client_secret },
        headers: { 'content-type': 'application/json' },
      })
    ).body.access_token;
    expect(await move(sandbox, { advance: 600 }, token)).toMatchObject({ organization_id: created.body.organization_id, follows_global: false });
    expect(sandbox.store.get('tenantClocks', created.body.organization_id)).toBeDefined();

    const removed = await sandbox.request('DELETE', `/organizations/${created.body.organization_id}`, { token });
    expect(removed.status, removed.text).toBe(204);
    expect(sandbox.store.get('tenantClocks', created.body.organization_id)).toBeUndefined();
    expect((await sandbox.get('/_sandbox/clock', token)).status).toBe(401);
    // Jobs of a tenant that is gone are due on a clock that reads as the global one: nothing breaks.
    await sandbox.store.transact((tx) =>
      tx.insert('jobs', { id: 'orphan', kind: 'verify-contract', subject: 'no-such-contract', due_ms: TEST_NOW * 1000, organization_id: 'gone' }),
    );
    await move(sandbox, { advance: 1 });
    expect(sandbox.store.get('jobs', 'orphan')).toBeUndefined();
  });
});

describe('the tenant clock control refuses', () => {
  it('to move a tenant clock backwards (422, pointing at /now or /advance), also to the global time it ran ahead of', async () => {
    const sandbox = await testSandbox();
    const [a] = await twoTenants(sandbox);
    await move(sandbox, { advance: 3600 }, a.token);
    const post = (body: Json) => sandbox.request('POST', '/_sandbox/clock', { token: a.token, body, headers: { 'content-type': 'application/json' } });
    for (const [body, pointer] of [
      [{ now: TEST_NOW }, '/now'],
      [{ now: TEST_NOW + 3599 }, '/now'],
      [{ advance: -1 }, '/advance'],
    ] as const) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer } });
    }
    expect(firstError(await post({ now: TEST_NOW })).detail).toContain(`already at ${TEST_NOW + 3600}`);
    expect((await post({})).status).toBe(400);
    expect((await clockOf(sandbox, a.token)).now).toBe(TEST_NOW + 3600);
  });

  it("to let a tenant read or move another tenant's clock", async () => {
    const sandbox = await testSandbox();
    const [a, b] = await twoTenants(sandbox);
    // The body names no tenant: a member for one is refused, and so is a query parameter for one.
    const named = await sandbox.request('POST', '/_sandbox/clock', {
      token: a.token,
      body: { advance: 60, organization_id: b.organizationId },
      headers: { 'content-type': 'application/json' },
    });
    expect(named.status).toBe(400);
    expect(await clockOf(sandbox, b.token)).toMatchObject({ now: TEST_NOW, follows_global: true });
    const query = await sandbox.get(`/_sandbox/clock?organization_id=${b.organizationId}`, a.token);
    expect(query.status).toBe(400);
    expect(firstError(query)).toMatchObject({ source: { parameter: 'organization_id' } });
    await move(sandbox, { advance: 60 }, a.token);
    expect(await clockOf(sandbox, b.token)).toMatchObject({ now: TEST_NOW, follows_global: true });
  });

  it('to let anything but the admin token move the global clock where one is configured', async () => {
    const admin = 'ci-admin-clock';
    const sandbox = await testSandbox({ config: { adminToken: admin } });
    const [a, b] = await twoTenants(sandbox);
    expect((await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 60 }, headers: { 'content-type': 'application/json' } })).status).toBe(401);
    await move(sandbox, { advance: 60 }, a.token);
    expect(await clockOf(sandbox, admin)).toEqual({ now: TEST_NOW, offset: 0 });
    expect(await move(sandbox, { advance: 3600 }, admin)).toEqual({ now: TEST_NOW + 3600, offset: 3600 });
    expect((await clockOf(sandbox, a.token)).now).toBe(TEST_NOW + 3600);
    expect((await clockOf(sandbox, b.token)).now).toBe(TEST_NOW + 3600);
  });
});

describe('the library', () => {
  it("moves one tenant's clock with advanceClock(seconds, { token }) and reads it with now(organizationId)", async () => {
    const sandbox = await createSandbox({ now: TEST_NOW });
    const token = await sandbox.token('other-client');
    const organizationId = ((await (await sandbox.request('/organizations', { headers: { authorization: `Bearer ${token}` } })).json()) as Json).data[0].id;
    expect(await sandbox.advanceClock(3600, { token })).toBe(TEST_NOW + 3600);
    expect(sandbox.now(organizationId)).toBe(TEST_NOW + 3600);
    expect(sandbox.now()).toBe(TEST_NOW);
    expect(await sandbox.advanceClock(60)).toBe(TEST_NOW + 60);
    expect(sandbox.now(organizationId)).toBe(TEST_NOW + 3600);
    expect(sandbox.now('no-such-organization')).toBe(TEST_NOW + 60);
    await sandbox.close();
  });
});
