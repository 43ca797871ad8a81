import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../src/app.js';
import {
  defaultTenant,
  exampleIds,
  exampleRequest,
  examples,
  examplesInPageOrder,
  makeExampleRows,
  resolveExamples,
  type ExampleIds,
  type ExampleRequest,
} from '../src/docs/examples/index.js';
import type { Endpoint } from '../src/http/endpoint.js';
import { BASE, testSandbox, TEST_NOW, type TestSandbox } from './support/app.js';

const ADMIN = 'docs-examples-admin';

/** The operations in the order the API reference lists them (tags A-Z, paths A-Z), the closing ones last. */
function pageOrder(ids: ExampleIds): Endpoint[] {
  return examplesInPageOrder(allEndpoints(), ids).map(({ endpoint }) => endpoint);
}

function secretsOf(sandbox: TestSandbox) {
  return {
    publicId: (organizationId: string, name: string, draw: number) => sandbox.store.ids.examplePublicId(organizationId, name, draw),
    page: (kind: Parameters<TestSandbox['services']['rules']['capabilities']['token']>[0], id: string) => sandbox.services.rules.capabilities.token(kind, id),
  };
}

/** Every string of an example that `replacements` names swapped, as the page does for a visitor. */
function swapped(value: unknown, replacements: Record<string, string>): unknown {
  if (typeof value === 'string') return Object.hasOwn(replacements, value) ? replacements[value] : value;
  if (Array.isArray(value)) return value.map((entry) => swapped(entry, replacements));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, swapped(entry, replacements)]));
  return value;
}

/** Executes every example as the page would send it; resolves with the answers that were not 2xx. */
async function runAll(sandbox: TestSandbox, ids: ExampleIds, token: string, skip: Set<string>, replacements: Record<string, string> = {}) {
  const resolved = new Map([...resolveExamples(ids)].map(([id, example]) => [id, swapped(example, replacements) as ExampleRequest]));
  const failures: string[] = [];
  let count = 0;
  for (const endpoint of pageOrder(ids)) {
    if (skip.has(endpoint.operationId)) continue;
    count += 1;
    const example = resolved.get(endpoint.operationId) ?? {};
    const { url, init } = exampleRequest(endpoint, example, BASE, { client: token, admin: ADMIN });
    const answer = await sandbox.app.request(url, init);
    const text = await answer.text();
    if (answer.status >= 300 && answer.status !== 302) failures.push(`${endpoint.operationId} ${answer.status} ${text.slice(0, 300)}`);
  }
  return { count, failures };
}

describe('the examples of the API reference', () => {
  it('has one for every operation that takes path parameters or a body, and none for an unknown operation', () => {
    const ids = new Set(allEndpoints().map((endpoint) => endpoint.operationId));
    expect(Object.keys(examples).filter((id) => !ids.has(id))).toEqual([]);
    const needing = allEndpoints().filter((endpoint) => !endpoint.internal && (endpoint.path.includes('{') || (endpoint.body && !endpoint.bodyOptional)));
    expect(needing.map((endpoint) => endpoint.operationId).filter((id) => !(id in examples) && id !== 'createSandboxVisitorTenant')).toEqual([]);
  });

  it('all succeed, executed unchanged in the order the page lists them, in the default tenant', async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
    const ids = exampleIds(sandbox.store, { ...defaultTenant(sandbox.store) }, TEST_NOW, secretsOf(sandbox));
    expect((await makeExampleRows(sandbox.services, sandbox.services.dispatch!, ids, BASE)).failed).toEqual([]);
    const token = await sandbox.token();
    const { count, failures } = await runAll(sandbox, ids, token, new Set(['createSandboxVisitorTenant']));
    console.log(`examples: ${count - failures.length} of ${count} succeed\n${failures.join('\n')}`);
    expect(failures).toEqual([]);
  }, 60000);

  it('are made again after a reset of the tenant, which removed them', async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
    const token = await sandbox.token();
    const ids = exampleIds(sandbox.store, { ...defaultTenant(sandbox.store) }, TEST_NOW, secretsOf(sandbox));
    const shipment = `/shipments/${ids.made('shipment')}`;
    expect((await sandbox.request('POST', '/_sandbox/examples', { token, body: {}, headers: { 'content-type': 'application/json' } })).body).toMatchObject({
      made: true,
      failed: [],
    });
    expect((await sandbox.get(shipment, token)).status).toBe(200);
    const reset = await sandbox.request('POST', '/_sandbox/reset', { token, body: { client_id: ids.client }, headers: { 'content-type': 'application/json' } });
    expect(reset.status, reset.text).toBe(200);
    expect((await sandbox.get(shipment, token)).status).toBe(404);
    expect((await sandbox.request('POST', '/_sandbox/examples', { token, body: {}, headers: { 'content-type': 'application/json' } })).body).toMatchObject({
      made: true,
      failed: [],
    });
    expect((await sandbox.get(shipment, token)).status).toBe(200);
  }, 60000);

  it("are made in a tenant whose own clock runs two days ahead of the global one, with a token of the tenant's clock (one of the global clock has expired there)", async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
    const json = { 'content-type': 'application/json' };
    const moved = await sandbox.request('POST', '/_sandbox/clock', { token: await sandbox.token(), body: { advance: 2 * 86400 }, headers: json });
    expect(moved.body.follows_global, moved.text).toBe(false);
    // The token of before the move has expired on the tenant's clock; a new one is issued on it.
    const made = await sandbox.request('POST', '/_sandbox/examples', { token: await sandbox.token(), body: {}, headers: json });
    expect(made.body).toMatchObject({ made: true, failed: [] });
  }, 60000);

  it("are dated on the clock of a tenant that runs two days ahead of the global one, whatever the weekday and late in the evening (after PostNL's 22:00 cut-off)", async () => {
    const json = { 'content-type': 'application/json' };
    const failures: string[] = [];
    for (let day = 0; day < 7; day++) {
      const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
      const global = await sandbox.request('POST', '/_sandbox/clock', { token: ADMIN, body: { advance: day * 86400 + 22.5 * 3600 }, headers: json });
      expect(global.status, global.text).toBe(200);
      expect((await sandbox.request('POST', '/_sandbox/clock', { token: await sandbox.token(), body: { advance: 2 * 86400 }, headers: json })).status).toBe(
        200,
      );
      const token = await sandbox.token();
      const when = new Date(global.body.now * 1000).toUTCString();
      // The rows the examples name, made with the tenant's token (among them collections booked three working days ahead).
      const made = await sandbox.request('POST', '/_sandbox/examples', { token, body: {}, headers: json });
      if (made.body.failed?.length !== 0) failures.push(`${when}: examples not made: ${made.text}`);
      // The page's example of delivery dates, as the served document holds it: from tomorrow on.
      const document = (await sandbox.get('/openapi.json')).body;
      const example = document.paths['/shipping/v2/available-delivery-dates'].post.requestBody.content['application/json'].example;
      const dates = await sandbox.request('POST', '/shipping/v2/available-delivery-dates', { token, body: example, headers: json });
      if (dates.status !== 200) failures.push(`${when}: getAvailableDeliveryDates ${dates.status} ${dates.text}`);
    }
    expect(failures).toEqual([]);
  }, 60000);

  it('book their collections on working days, whatever the day of the week the page is opened', async () => {
    const sandbox = await testSandbox();
    const weekdays: number[] = [];
    for (let day = 0; day < 7; day++) {
      if (day > 0) await sandbox.advance(86400);
      const now = sandbox.clock.now();
      weekdays.push(new Date(now * 1000).getUTCDay());
      const ids = exampleIds(sandbox.store, { ...defaultTenant(sandbox.store) }, now, secretsOf(sandbox));
      const example = resolveExamples(ids).get('createCollection') as ExampleRequest;
      const answer = await sandbox.request('POST', '/collections', {
        token: await sandbox.token(),
        body: example.body,
        headers: { 'content-type': 'application/vnd.api+json' },
      });
      expect(answer.status, `${new Date(now * 1000).toUTCString()}: ${answer.text}`).toBe(201);
    }
    expect(new Set(weekdays).size).toBe(7);
  });

  it("all succeed in a fresh visitor tenant, with the visitor's values in place of the default tenant's", async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN, tenantPerVisitor: true, visitorTtl: 900 } });
    const answer = await sandbox.request('POST', '/_sandbox/visitor', { headers: { origin: 'http://sandbox.test' } });
    expect(answer.status).toBe(201);
    const visitor = answer.body;
    // The page shows the default tenant's examples with the visitor's values swapped in.
    const ids = exampleIds(sandbox.store, { ...defaultTenant(sandbox.store) }, TEST_NOW, secretsOf(sandbox));
    expect(visitor.examples[ids.shop]).toBe(visitor.shop_id);
    // Its rows are made, but not the admin's (the scratch tenants among them): the page's first
    // Execute with the admin token has them made, naming the visitor's client.
    const organizations = sandbox.store.count('organizations');
    const admins = await sandbox.request('POST', '/_sandbox/examples', {
      token: ADMIN,
      body: { client_id: visitor.client_id },
      headers: { 'content-type': 'application/json' },
    });
    expect(admins.body).toMatchObject({ organization_id: visitor.organization_id, failed: [], needs_admin_token: [] });
    expect(sandbox.store.count('organizations')).toBe(organizations + 3);
    const { count, failures } = await runAll(sandbox, ids, visitor.access_token, new Set(['createSandboxVisitorTenant']), visitor.examples);
    console.log(`visitor examples: ${count - failures.length} of ${count} succeed\n${failures.join('\n')}`);
    expect(failures).toEqual([]);
  }, 60000);
});
