import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { REPORT_TIMEOUT_MS, runReport, type ReportIo } from '../src/report/command.js';
import { PRODUCTION_OPERATIONS } from '../src/fixtures/reference/production-operations.js';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { shipmentBody, world, type World } from './support/shipments.js';

/*
 * GET /_sandbox/report and `parcel-sandbox report` over a scripted client session: a tenant made
 * for the test calls production's operations (some refused, some with deprecated members, one
 * with a sandbox trigger tag), a sandbox control and a path nothing serves; the report says all
 * of it, in JSON, Markdown and JUnit (valid against test/junit.xsd).
 */

const JUNIT_XSD = readFileSync(new URL('./junit.xsd', import.meta.url), 'utf8');

let sandbox: TestSandbox;
let tenant: { client_id: string; client_secret: string; organization_id: string; shop_id: string };
let token: string;
let seeded: World;

/** The command, run against the in-process sandbox; what it wrote and its exit code. */
async function command(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const io: ReportIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    fetch: ((input: URL | string, init?: RequestInit) => sandbox.app.request(String(input), init)) as typeof fetch,
    now: () => new Date('2026-07-01T12:00:00Z'),
  };
  const code = await runReport(['--url', 'http://sandbox.test', ...args], env, io);
  return { code, stdout, stderr };
}

async function junitProblems(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: JUNIT_XSD }] });
  return result.errors.map((error) => error.message);
}

beforeAll(async () => {
  sandbox = await testSandbox();
  seeded = await world(sandbox);
  const created = await sandbox.request('POST', '/_sandbox/tenants', { body: { name: 'ci job' } });
  tenant = created.body;
  const answer = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: tenant.client_id, client_secret: tenant.client_secret, scope: '*' },
    headers: { 'content-type': 'application/json' },
  });
  token = answer.body.access_token;

  // The client session under test.
  const shop = (await sandbox.get(`/shops/${tenant.shop_id}`, token)).body.data;
  expect((await sandbox.get('/carriers', token)).status).toBe(200);
  expect((await sandbox.request('POST', '/shipments', { token, body: shipmentBody({ shop, attributes: { tags: ['sandbox:auto-deliver'] } }) })).status).toBe(
    201,
  );
  expect((await sandbox.request('POST', '/shipments', { token, body: shipmentBody({ shop, attributes: { recipient_tax_number: 'NL1' } }) })).status).toBe(201);
  const bad = await sandbox.request('POST', '/shipments', { token, body: shipmentBody({ shop, attributes: { physical_properties: { weight: 0 } } }) });
  expect(firstError(bad)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/physical_properties/weight' } });
  await sandbox.request('POST', '/shipments', { token, body: shipmentBody({ shop, attributes: { physical_properties: { weight: -5 } } }) });
  expect((await sandbox.get('/shipments?filter[date_from]=2020-01-01', token)).status).toBe(200);
  expect((await sandbox.get('/shipments/00000000-0000-4000-8000-000000000000', token)).status).toBe(404);
  expect((await sandbox.get('/shipments?filter[colour]=red', token)).status).toBe(400);
  expect((await sandbox.request('POST', '/_sandbox/clock', { token, body: { advance: 60 } })).status).toBe(200);
  expect((await sandbox.get('/no-such-thing', token)).status).toBe(404);
  expect((await sandbox.get('/shops', 'not-a-token')).status).toBe(401);
});

describe('GET /_sandbox/report', () => {
  it("gives a tenant's token its own requests: operations called, refused, deprecated, sandbox-only and never called", async () => {
    const answer = await sandbox.get('/_sandbox/report', token);
    expect(answer.status).toBe(200);
    const report = answer.body;
    expect(report).toMatchObject({ scope: 'tenant', organization_id: tenant.organization_id });
    // The token request, the shop, the carriers, 4 creates, 2 lists and a read, the clock, the unknown path: 12.
    expect(report.requests).toEqual({ counted: 12, in_request_log: 12, no_longer_in_request_log: 0, request_log_capacity: 500 });
    const called = Object.fromEntries(report.operations.map((operation: Json) => [operation.operation, operation]));
    expect(called['POST /shipments']).toEqual({
      operation: 'POST /shipments',
      operation_id: 'createShipment',
      production: true,
      sandbox_only: false,
      count: 4,
      statuses: { 201: 2, 400: 2 },
    });
    expect(called['GET /shipments']).toMatchObject({ count: 2, statuses: { 200: 1, 400: 1 } });
    expect(called['GET /shipments/{shipment_id}']).toMatchObject({ count: 1, statuses: { 404: 1 } });
    // Production's auth server is outside its contract, and no sandbox-only operation either.
    expect(called['POST /access-token']).toMatchObject({ production: false, sandbox_only: false, count: 1, statuses: { 200: 1 } });
    expect(called['POST /_sandbox/clock']).toMatchObject({ production: false, sandbox_only: true, operation_id: 'moveSandboxClock' });
    expect(called['(no endpoint)']).toMatchObject({ operation_id: null, production: false, sandbox_only: false, statuses: { 404: 1 } });
    // The request with a token nobody issued is no tenant's.
    expect(called['GET /shops']).toBeUndefined();

    expect(report.production).toMatchObject({ operations: PRODUCTION_OPERATIONS.length, called: 5 });
    expect(report.never_called).toContainEqual({ operation: 'GET /addresses', served: true });
    expect(report.never_called).toContainEqual({ operation: 'GET /invoices', served: false });
    expect(report.never_called).toHaveLength(PRODUCTION_OPERATIONS.length - 5);

    // Two requests with a bad weight are one cause; a 404 and an unknown filter are others.
    expect(report.refused).toContainEqual({
      operation: 'POST /shipments',
      status: 400,
      code: '10003',
      title: 'Invalid JSON Schema',
      source: { pointer: '/data/attributes/physical_properties/weight' },
      count: 2,
      last_request_id: expect.any(Number),
    });
    expect(report.refused).toContainEqual(
      expect.objectContaining({ operation: 'GET /shipments', status: 400, source: { parameter: 'filter[colour]' }, count: 1 }),
    );
    expect(report.refused).toContainEqual(expect.objectContaining({ operation: 'GET /shipments/{shipment_id}', status: 404, code: '10002', count: 1 }));
    expect(report.refused).toContainEqual(expect.objectContaining({ operation: '(no endpoint)', status: 404, code: '10000', source: null }));

    expect(report.deprecated).toEqual([
      {
        id: 'shipments.recipient_tax_number',
        kind: 'attribute',
        instead: '`recipient_tax_identification_numbers`',
        count: 1,
        operations: { 'POST /shipments': 1 },
        last_request_id: expect.any(Number),
      },
      {
        id: 'GET /shipments filter[date_from]',
        kind: 'query',
        instead: '`filter[created_at][date_from]`',
        count: 1,
        operations: { 'GET /shipments': 1 },
        last_request_id: expect.any(Number),
      },
    ]);
    expect(report.sandbox_only.operations).toEqual([{ operation: 'POST /_sandbox/clock', operation_id: 'moveSandboxClock', count: 1 }]);
    expect(report.sandbox_only.uses).toEqual([
      { what: 'shipment tag sandbox:auto-deliver', count: 1, operations: { 'POST /shipments': 1 }, last_request_id: expect.any(Number) },
    ]);
  });

  it('gives the admin every request, also those of no tenant, or one tenant by id', async () => {
    const all = (await sandbox.get('/_sandbox/report')).body;
    expect(all.scope).toBe('all');
    expect(all.tenants).toContain(tenant.organization_id);
    expect(all.requests.without_tenant).toBeGreaterThanOrEqual(2); // the tenant's creation and the refused token
    const unattributed = all.operations.find((operation: Json) => operation.operation === 'GET /shops');
    expect(unattributed.statuses).toMatchObject({ 401: 1 });
    const one = (await sandbox.get(`/_sandbox/report?client_id=${tenant.client_id}`)).body;
    expect(one).toMatchObject({ scope: 'tenant', organization_id: tenant.organization_id, requests: { counted: 12 } });
    // A seeded organization that called little is a tenant too.
    const seededOrganization = seeded.shopIn('NL').relationships.organization.data.id;
    expect((await sandbox.get(`/_sandbox/report?organization_id=${seededOrganization}`)).body.operations.map((o: Json) => o.operation)).toContain('GET /shops');
  });

  it('answers 404 for an unknown tenant, and for another tenant asked with a tenant token', async () => {
    const unknown = await sandbox.get('/_sandbox/report?organization_id=no-such-organization');
    expect(unknown.status).toBe(404);
    expect(firstError(unknown)).toMatchObject({ code: '10002', source: { parameter: 'organization_id' } });
    const unknownClient = await sandbox.get('/_sandbox/report?client_id=no-such-client');
    expect(firstError(unknownClient)).toMatchObject({ code: '10002', source: { parameter: 'client_id' } });
    const seededOrganization = seeded.shopIn('NL').relationships.organization.data.id;
    const another = await sandbox.get(`/_sandbox/report?organization_id=${seededOrganization}`, token);
    expect(another.status).toBe(404);
    expect(firstError(another)).toMatchObject({ code: '10002', source: { parameter: 'organization_id' } });
    expect((await sandbox.get('/_sandbox/report?client_id=sandbox-client', token)).status).toBe(404);
    expect((await sandbox.get('/_sandbox/report?colour=red', token)).status).toBe(400);
  });

  it('says how many of its requests the request log no longer holds once the ring rotated', async () => {
    const own = await testSandbox();
    const ownToken = await own.token();
    for (let i = 0; i < 520; i++) await own.get('/carriers', ownToken);
    const report = (await own.get('/_sandbox/report?client_id=sandbox-client')).body;
    // 520 reads and the token request, counted; the log keeps the last 500.
    expect(report.requests).toEqual({ counted: 521, in_request_log: 500, no_longer_in_request_log: 21, request_log_capacity: 500 });
    expect(report.operations.find((operation: Json) => operation.operation === 'GET /carriers')).toMatchObject({ count: 520, statuses: { 200: 520 } });
  });
});

describe('the request record', () => {
  it("counts a route that serves two of production's operations under the one a request is, and sandbox-only parameters", async () => {
    const own = await testSandbox();
    const ownToken = await own.token();
    const carrier = (await own.get('/carriers', ownToken)).body.data[0].id;
    expect((await own.get(`/carriers/${carrier}/pickup-dropoff-locations/52.3728/4.8936`, ownToken)).status).toBe(200);
    expect((await own.get(`/carriers/${carrier}/pickup-dropoff-locations/NL/1012AB`, ownToken)).status).toBe(200);
    expect((await own.get('/shipments?filter[tags]=gift', ownToken)).status).toBe(200);
    const report = (await own.get('/_sandbox/report?client_id=sandbox-client')).body;
    const called = report.operations.map((operation: Json) => `${operation.operation} ${operation.count}`);
    expect(called).toContain('GET /carriers/{carrier_id}/pickup-dropoff-locations/{latitude}/{longitude} 1');
    expect(called).toContain('GET /carriers/{carrier_id}/pickup-dropoff-locations/{country_code}/{postal_code} 1');
    expect(report.sandbox_only.uses).toEqual([
      { what: 'parameter filter[tags] of GET /shipments', count: 1, operations: { 'GET /shipments': 1 }, last_request_id: expect.any(Number) },
    ]);
  });

  it("names the sandbox's operationId for both searches its pick-up location route serves (the coordinates' was null)", async () => {
    const own = await testSandbox();
    const ownToken = await own.token();
    const carrier = (await own.get('/carriers', ownToken)).body.data[0].id;
    expect((await own.get(`/carriers/${carrier}/pickup-dropoff-locations/52.3728/4.8936`, ownToken)).status).toBe(200);
    expect((await own.get(`/carriers/${carrier}/pickup-dropoff-locations/NL/1012AB`, ownToken)).status).toBe(200);
    const report = (await own.get('/_sandbox/report?client_id=sandbox-client')).body;
    const ids = Object.fromEntries(
      report.operations
        .filter((operation: Json) => operation.operation.includes('pickup-dropoff'))
        .map((operation: Json) => [operation.operation, operation.operation_id]),
    );
    expect(ids).toEqual({
      'GET /carriers/{carrier_id}/pickup-dropoff-locations/{latitude}/{longitude}': 'listPickupDropoffLocations',
      'GET /carriers/{carrier_id}/pickup-dropoff-locations/{country_code}/{postal_code}': 'listPickupDropoffLocations',
    });
  });

  it("lists bearer tokens taken from a header not written 'Bearer <token>' as sandbox-only: production refuses them", async () => {
    const own = await testSandbox();
    const ownToken = await own.token();
    const read = (authorization: string) => own.request('GET', '/shops', { headers: { authorization } });
    const statuses = [];
    for (const header of [
      `bearer ${ownToken}`,
      `BEARER ${ownToken}`,
      `Bearer  ${ownToken}`,
      `Bearer\t${ownToken}`,
      `Bearer ${ownToken}`,
      'bearer not-a-token',
    ]) {
      statuses.push((await read(header)).status);
    }
    // The sandbox takes the first five (RFC 9110); a refused token is a refusal, not a sandbox-only use.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 401]);
    const report = (await own.get('/_sandbox/report?client_id=sandbox-client')).body;
    expect(report.sandbox_only.uses).toEqual([
      {
        what: "Authorization not written 'Bearer <token>' (another case of Bearer, or more than one space)",
        count: 4,
        operations: { 'GET /shops': 4 },
        last_request_id: expect.any(Number),
      },
    ]);
  });

  it("forgets a removed tenant's counters with it", async () => {
    const own = await testSandbox();
    const made = (await own.request('POST', '/_sandbox/tenants', { body: {} })).body;
    const answer = await own.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: made.client_id, client_secret: made.client_secret, scope: '*' },
      headers: { 'content-type': 'application/json' },
    });
    const tenantToken = answer.body.access_token;
    expect((await own.get('/shops', tenantToken)).status).toBe(200);
    expect((await own.get(`/_sandbox/report?organization_id=${made.organization_id}`)).body.requests.counted).toBe(2);
    expect((await own.request('DELETE', `/_sandbox/tenants/${made.organization_id}`)).status).toBe(200);
    expect((await own.get(`/_sandbox/report?organization_id=${made.organization_id}`)).status).toBe(404);
    expect((await own.get('/_sandbox/report')).body.tenants).not.toContain(made.organization_id);
  });

  /** A tenant made through the controls, with an access token of its client and one request made. */
  async function madeTenant(own: TestSandbox, body: Json = {}) {
    const made = (await own.request('POST', '/_sandbox/tenants', { body })).body;
    const answer = await own.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: made.client_id, client_secret: made.client_secret, scope: '*' },
      headers: { 'content-type': 'application/json' },
    });
    const tenantToken: string = answer.body.access_token;
    expect((await own.get('/shops', tenantToken)).status).toBe(200);
    return { made, tenantToken };
  }

  /** Neither the report nor the request log holds anything of a tenant that is gone. */
  async function forgotten(own: TestSandbox, made: Json) {
    expect((await own.get(`/_sandbox/report?organization_id=${made.organization_id}`)).status).toBe(404);
    expect((await own.get('/_sandbox/report')).body.tenants).not.toContain(made.organization_id);
    expect((await own.get(`/_sandbox/requests?client_id=${made.client_id}`)).body.data).toEqual([]);
    const log = (await own.get('/_sandbox/requests?limit=500')).body.data;
    expect(log.filter((entry: Json) => entry.client_id === made.client_id)).toEqual([]);
  }

  it('forgets the tenants a full reset removes, as a deletion does', async () => {
    const own = await testSandbox();
    const { made } = await madeTenant(own);
    expect((await own.request('POST', '/_sandbox/reset', { body: {} })).status).toBe(200);
    await forgotten(own, made);
  });

  it('forgets a tenant removed by its own request: the request that deleted it, or moved its clock past its ttl, counts for no one', async () => {
    const own = await testSandbox();
    const deleting = await madeTenant(own);
    expect((await own.request('DELETE', `/_sandbox/tenants/${deleting.made.client_id}`, { token: deleting.tenantToken })).status).toBe(200);
    await forgotten(own, deleting.made);

    const expiring = await madeTenant(own, { ttl: 60 });
    const moved = await own.request('POST', '/_sandbox/clock', { token: expiring.tenantToken, body: { advance: 61 } });
    expect(moved.body).toMatchObject({ removed: true });
    await forgotten(own, expiring.made);
    // The admin still sees both requests, as requests of no tenant.
    const log = (await own.get('/_sandbox/requests?limit=500')).body.data;
    expect(log.filter((entry: Json) => entry.path.startsWith('/_sandbox/tenants/tenant-') || entry.path === '/_sandbox/clock')).toHaveLength(2);
  });

  it('forgets the other organizations a pack made with the tenant', async () => {
    const own = await testSandbox();
    const made = (await own.request('POST', '/_sandbox/tenants', { body: { pack: 'broker-three-organizations' } })).body;
    const other = made.organizations[0];
    const answer = await own.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: other.client_id, client_secret: other.client_secret, scope: '*' },
      headers: { 'content-type': 'application/json' },
    });
    expect((await own.get('/shops', answer.body.access_token)).status).toBe(200);
    expect((await own.get('/_sandbox/report')).body.tenants).toContain(other.organization_id);
    expect((await own.request('DELETE', `/_sandbox/tenants/${made.organization_id}`)).status).toBe(200);
    await forgotten(own, other);
  });
});

describe('parcel-sandbox report', () => {
  it('writes the JSON report as the sandbox answers it', async () => {
    const { code, stdout, stderr } = await command(['--token', token, '--format', 'json']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toEqual((await sandbox.get('/_sandbox/report', token)).body);
  });

  it('writes Markdown with every section', async () => {
    const { code, stdout } = await command(['--token', token, '--format', 'markdown']);
    if (process.env.REPORT_SAMPLES) writeFileSync(`${process.env.REPORT_SAMPLES}/report.md`, stdout);
    expect(code).toBe(0);
    expect(stdout).toContain(`Tenant \`${tenant.organization_id}\`: 12 requests counted`);
    expect(stdout).toContain("**Production's contract:** 5 of its 225 operations called");
    expect(stdout).toMatch(/^\| `POST \/shipments` \| createShipment \| yes \| 4 \| 201 × 2, 400 × 2 \|$/m);
    expect(stdout).toMatch(
      /^\| `POST \/shipments` \| 400 \| 10003 \| Invalid JSON Schema \| pointer \/data\/attributes\/physical_properties\/weight \| 2 \| \d+ \|$/m,
    );
    expect(stdout).toContain('| `GET /shipments filter[date_from]` | query |');
    expect(stdout).toContain('| shipment tag sandbox:auto-deliver | `POST /shipments` | 1 |');
    expect(stdout).toMatch(/## Production's operations never called \(220\)/);
    expect(stdout).toContain('`GET /invoices`');
  });

  it('counts refused requests in the Markdown heading once each, however many errors named them', async () => {
    const made = (await sandbox.request('POST', '/_sandbox/tenants', { body: { name: 'many errors' } })).body;
    const answer = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: made.client_id, client_secret: made.client_secret, scope: '*' },
      headers: { 'content-type': 'application/json' },
    });
    const own = answer.body.access_token;
    const refused = await sandbox.request('POST', '/shipments', { token: own, body: { data: { type: 'shipments', attributes: {} } } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.length).toBeGreaterThan(1);
    const { code, stdout } = await command(['--token', own, '--format', 'markdown']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\| `POST \/shipments` \| createShipment \| yes \| 1 \| 400 × 1 \|$/m);
    expect(stdout).toContain('## Refused requests, by cause (1)');
  });

  it('keeps what clients sent from breaking the Markdown: names with a line break or a `<` stay text on one line', async () => {
    const made = (await sandbox.request('POST', '/_sandbox/tenants', { body: { name: 'hostile names' } })).body;
    const answer = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: made.client_id, client_secret: made.client_secret, scope: '*' },
      headers: { 'content-type': 'application/json' },
    });
    const own = answer.body.access_token;
    expect((await sandbox.get('/carriers?filter[%3C!--]=1', own)).status).toBe(400);
    const body = { data: { type: 'shipments', attributes: { 'a\n## injected': 1 } } };
    expect((await sandbox.request('POST', '/shipments', { token: own, body })).status).toBe(400);
    const { code, stdout } = await command(['--token', own, '--format', 'markdown', '--fail-on', 'refused']);
    expect(code).toBe(1);
    expect(stdout).not.toContain('<!--');
    expect(stdout).not.toMatch(/^## injected/m);
    expect(stdout).toMatch(/^- `GET \/carriers` \(refused\): .*parameter filter\[&lt;!--\]/m);
    expect(stdout).toMatch(/^\| `GET \/carriers` \| 400 \| 10003 \| Invalid JSON Schema \| parameter filter\[&lt;!--\] \| 1 \| \d+ \|$/m);
    expect(stdout).toMatch(/^\| `POST \/shipments` \| 400 \| 10003 \| Invalid JSON Schema \| pointer \/data\/attributes\/a ## injected \| 1 \| \d+ \|$/m);
  });

  it('says 1 operation and 1 request in the singular', async () => {
    const own = await testSandbox();
    expect((await own.get('/shops', 'not-a-token')).status).toBe(401);
    let stdout = '';
    let stderr = '';
    const code = await runReport(
      ['--url', 'http://sandbox.test', '--format', 'markdown', '--fail-on', 'refused'],
      {},
      {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        fetch: ((input: URL | string, init?: RequestInit) => own.app.request(String(input), init)) as typeof fetch,
        now: () => new Date(),
      },
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/^Every tenant \(\d+\), and 1 request without one: 1 request counted since/m);
    expect(stdout).toContain('**Fails on refused:** 1 operation.');
    expect(stderr).toBe('parcel-sandbox report: 1 operation fails on refused: GET /shops\n');
  });

  it('writes JUnit valid against its XSD: one test case per operation called, failing only for the kinds --fail-on names', async () => {
    const plain = await command(['--token', token, '--format', 'junit']);
    expect(plain.code).toBe(0);
    expect(await junitProblems(plain.stdout)).toEqual([]);
    // The schema does hold the format: a suite without its count of tests is refused.
    expect(await junitProblems(plain.stdout.replace(/(<testsuite name="[^"]*") tests="8"/, '$1'))).not.toEqual([]);
    const cases = [...plain.stdout.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map(([, classname, name]) => `${classname} ${name}`);
    expect(cases).toHaveLength(8);
    expect(cases).toContain('parcel-sandbox.production POST /shipments');
    expect(cases).toContain('parcel-sandbox.sandbox-only POST /_sandbox/clock');
    expect(cases).toContain('parcel-sandbox.auth-server POST /access-token');
    expect(cases).toContain('parcel-sandbox.no-endpoint (no endpoint)');
    expect(plain.stdout).not.toContain('<failure');
    expect(plain.stdout).toContain(
      '<testsuite name="parcel-sandbox: production&apos;s contract" tests="8" failures="0" errors="0" skipped="0" time="0" timestamp="2026-07-01T12:00:00">',
    );

    const failing = await command(['--token', token, '--format', 'junit', '--fail-on', 'refused,deprecated']);
    if (process.env.REPORT_SAMPLES) writeFileSync(`${process.env.REPORT_SAMPLES}/report.xml`, failing.stdout);
    expect(failing.code).toBe(1);
    expect(await junitProblems(failing.stdout)).toEqual([]);
    const failed = [...failing.stdout.matchAll(/name="([^"]+)" time="0">\n\s+<failure type="([^"]+)"/g)].map(([, name, type]) => `${name}: ${type}`);
    expect(failed.sort()).toEqual([
      '(no endpoint): refused',
      'GET /shipments/{shipment_id}: refused',
      'GET /shipments: refused,deprecated',
      'POST /shipments: refused,deprecated',
    ]);
    expect(failing.stdout).toContain('tests="8" failures="4"');
    expect(failing.stderr).toMatch(/4 operations fail on refused, deprecated/);

    const deprecatedOnly = await command(['--token', token, '--format', 'junit', '--fail-on', 'deprecated']);
    expect(deprecatedOnly.stdout).toContain('tests="8" failures="2"');
    const none = await command(['--token', token, '--format', 'junit', '--fail-on', '5xx']);
    expect({ code: none.code, failures: none.stdout.includes('<failure') }).toEqual({ code: 0, failures: false });
  });

  it('asks for the report under the path of a --url behind a proxy, and takes the endpoint URL given whole', async () => {
    // A proxy serving the sandbox under /sandbox/, and nothing else.
    const proxy = ((input: URL | string, init?: RequestInit) => {
      const target = new URL(String(input));
      if (!target.pathname.startsWith('/sandbox/')) return Promise.resolve(new Response('not here', { status: 404 }));
      return sandbox.app.request(`http://sandbox.test${target.pathname.slice('/sandbox'.length)}${target.search}`, init);
    }) as typeof fetch;
    const expected = (await sandbox.get('/_sandbox/report', token)).body;
    for (const url of ['https://ci.example/sandbox', 'https://ci.example/sandbox/', 'https://ci.example/sandbox/_sandbox/report']) {
      let stdout = '';
      let stderr = '';
      const code = await runReport(
        ['--url', url, '--token', token],
        {},
        { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), fetch: proxy, now: () => new Date() },
      );
      expect({ url, code, stderr }).toEqual({ url, code: 0, stderr: '' });
      expect(JSON.parse(stdout)).toEqual(expected);
    }
  });

  it('gives up at its time limit on a server that takes the connection and never answers: one line, exit 3', async () => {
    vi.useFakeTimers();
    try {
      const stderr: string[] = [];
      // Answers nothing, ever: only the command's own deadline ends the request.
      const silent = ((_input: URL | string, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))) as typeof fetch;
      const run = runReport(
        ['--url', 'http://127.0.0.1:8080'],
        {},
        { stdout: () => {}, stderr: (text) => stderr.push(text), fetch: silent, now: () => new Date() },
      );
      await vi.advanceTimersByTimeAsync(REPORT_TIMEOUT_MS);
      expect(await run).toBe(3);
      expect(stderr.join('')).toBe('parcel-sandbox report: no report from http://127.0.0.1:8080 within 60 s; is --url the sandbox, and is it up?\n');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a --url written without its scheme (suggesting it with http://) or with a query, with exit 2', async () => {
    const io = (into: string[]): ReportIo => ({ stdout: () => {}, stderr: (text) => into.push(text), fetch, now: () => new Date() });
    for (const url of ['127.0.0.1:8080', 'localhost:8080']) {
      const stderr: string[] = [];
      expect(await runReport(['--url', url], {}, io(stderr))).toBe(2);
      expect(stderr.join('')).toBe(`parcel-sandbox report: --url: '${url}' is not a URL (did you mean http://${url}?)\n`);
    }
    const query: string[] = [];
    expect(await runReport(['--url', 'http://127.0.0.1:8080/_sandbox/report?organization_id=x'], {}, io(query))).toBe(2);
    expect(query.join('')).toBe(
      "parcel-sandbox report: --url: 'http://127.0.0.1:8080/_sandbox/report?organization_id=x' has a query; give the sandbox's URL and name a tenant with --organization-id or --client-id\n",
    );
    const stderr: string[] = [];
    expect(await runReport(['--url', 'ftp://sandbox.example'], {}, io(stderr))).toBe(2);
    expect(stderr.join('')).toBe("parcel-sandbox report: --url: 'ftp://sandbox.example' is not an http or https URL\n");
  });

  it('refuses an unknown --fail-on kind or format, or an option left without its value, with exit 2', async () => {
    const kind = await command(['--fail-on', 'refused,warnings']);
    expect(kind).toEqual({
      code: 2,
      stdout: '',
      stderr: "parcel-sandbox report: --fail-on: unknown kind 'warnings'; the kinds are refused, deprecated, 5xx\n",
    });
    // A CI variable that is empty leaves its option without a value.
    expect(await command(['--token', '--format', 'junit'])).toEqual({
      code: 2,
      stdout: '',
      stderr: "parcel-sandbox report: --token has no value: it is followed by '--format' (an empty variable?); see parcel-sandbox report --help\n",
    });
    const format = await command(['--format', 'html']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('the formats are json, markdown, junit');
    expect((await runReport([], {}, { stdout: () => {}, stderr: () => {}, fetch, now: () => new Date() })).valueOf()).toBe(2);
  });

  it('exits 3 with the reason when no report can be had', async () => {
    const refused = await command(['--organization-id', 'no-such-organization']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toBe("parcel-sandbox report: http://sandbox.test answered 404: No tenant with organization_id 'no-such-organization' exists.\n");
    let stderr = '';
    const unreachable = await runReport(
      ['--url', 'http://127.0.0.1:9'],
      {},
      {
        stdout: () => {},
        stderr: (text) => (stderr += text),
        fetch: (() => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }))) as typeof fetch,
        now: () => new Date(),
      },
    );
    expect({ unreachable, stderr }).toEqual({ unreachable: 3, stderr: 'parcel-sandbox report: no report from http://127.0.0.1:9: ECONNREFUSED\n' });
  });

  it('exits 3, not 1 with a stack trace, when --url answers 200 with JSON or a page that is no report', async () => {
    for (const [body, says] of [
      ['{"data": []}', 'answered JSON that is not a sandbox report'],
      ['<!doctype html><title>proxy</title>', 'answered something that is not JSON'],
    ]) {
      for (const format of ['json', 'markdown', 'junit']) {
        let stdout = '';
        let stderr = '';
        const code = await runReport(
          ['--url', 'http://127.0.0.1:9', '--format', format, '--fail-on', '5xx'],
          {},
          {
            stdout: (text) => (stdout += text),
            stderr: (text) => (stderr += text),
            fetch: (() => Promise.resolve(new Response(body, { status: 200 }))) as typeof fetch,
            now: () => new Date(),
          },
        );
        expect({ code, stdout, stderr }).toEqual({
          code: 3,
          stdout: '',
          stderr: `parcel-sandbox report: http://127.0.0.1:9/_sandbox/report ${says}; is --url the sandbox?\n`,
        });
      }
    }
  });
});
