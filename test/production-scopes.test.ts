/**
 * Tokens and scopes as production grants them. Every endpoint serving a production operation
 * checks production's scopes (the contract's `security`), except the operations the seed names
 * scopes for (parcel-api.md, section 4), which keep the seed's: the seed's scope rules win where
 * the two disagree. Every request but the open pages carries a token, and a request without one
 * is answered 401 before anything else about it is looked at. The full seeded client holds every
 * scope; `limited-client` only shipments.manage, so it is refused (403) wherever production
 * would refuse it, save where the seed lets shipments.manage in.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Endpoint, ScopeRequirement } from '../src/http/endpoint.js';
import { scopes, seedScopes } from '../src/model/tenancy.js';
import { JournalPersistence } from '../src/store/journal-persistence.js';
import { writeSnapshot } from '../src/store/snapshot.js';
import { firstError, seededState, testSandbox, type TestSandbox } from './support/app.js';
import { productionOperations } from './support/contract/production-schema.js';
import { endpoints, fillPath, jsonRequest, nameOf, pathParams, send } from './support/matrix.js';

/** What the seed says each operation it lists takes: its scopes (any of them), or `[]` for "no scope required". */
const SEED_SCOPES: Record<string, readonly string[]> = {
  'GET /shops': ['organizations.manage', 'shipments.manage'],
  'GET /shops/{shop_id}': ['organizations.manage', 'shipments.manage'],
  'POST /shops': ['shops.manage'],
  'PATCH /shops/{shop_id}': ['shops.manage'],
  'GET /contracts': ['shipments.manage', 'organizations.manage'],
  'GET /contracts/{contract_id}': ['shipments.manage', 'organizations.manage'],
  'GET /carriers/{carrier_id}/contracts': ['shipments.manage', 'organizations.manage'],
  'POST /contracts': ['organizations.manage'],
  'PATCH /contracts/{contract_id}': ['organizations.manage'],
  // "All require the scope organizations.manage": the seed's hooks, deleting one too.
  'GET /hooks': ['organizations.manage'],
  'GET /hooks/{hook_id}': ['organizations.manage'],
  'POST /hooks': ['organizations.manage'],
  'PATCH /hooks/{hook_id}': ['organizations.manage'],
  'DELETE /hooks/{hook_id}': ['organizations.manage'],
  'GET /services': [],
  'GET /services/{service_id}': [],
  'GET /carriers': [],
  'GET /carriers/{carrier_id}': [],
  'GET /service-options': [],
  'GET /service-options/{service_option_id}': [],
  'GET /service-rates': ['organizations.manage', 'shipments.manage'],
  'GET /service-rates/{service_rate_id}': ['organizations.manage'],
  'GET /liability-coverages/{liability_coverage_id}': ['shipments.manage', 'organizations.manage'],
  'GET /shipments': ['shipments.manage'],
  'GET /shipments/{shipment_id}': ['shipments.manage'],
  'POST /shipments': ['shipments.manage'],
};

const normalize = (key: string) => key.replace(/\?.*$/, '').replace(/\{[^}]+\}/g, '{}');
const production = new Map(productionOperations().map((operation) => [normalize(operation.key), operation]));
const operationOf = (endpoint: Endpoint) => production.get(normalize(nameOf(endpoint)));
const seedKey = (endpoint: Endpoint) => Object.keys(SEED_SCOPES).find((key) => normalize(key) === normalize(nameOf(endpoint)));

/** Alternatives as sorted, comparable strings: `a+b` for scopes held together. */
const alternatives = (list: readonly (readonly string[])[]) => list.map((alternative) => [...alternative].sort().join('+')).sort();
const declared = (endpoint: Endpoint): string[] => {
  const { auth } = endpoint;
  if (auth === 'token') return [''];
  if (typeof auth !== 'object') return [];
  return alternatives(auth.anyOf.map((requirement: ScopeRequirement) => (typeof requirement === 'string' ? [requirement] : requirement)));
};
/** Whether a token holding `held` passes the endpoint's scope check. */
const passes = (endpoint: Endpoint, held: readonly string[]) =>
  declared(endpoint).some((alternative) => alternative.split('+').every((scope) => scope === '' || held.includes(scope)));

const served = endpoints().filter((endpoint) => operationOf(endpoint) !== undefined);
const scoped = served.filter((endpoint) => endpoint.auth !== 'none');

describe("the scopes every operation checks are production's, the seed's where the seed names them", () => {
  it.each(scoped.map((endpoint) => [nameOf(endpoint), endpoint] as const))('%s', (_name, endpoint) => {
    const seed = seedKey(endpoint);
    const expected = seed
      ? SEED_SCOPES[seed]!.length === 0
        ? ['']
        : alternatives(SEED_SCOPES[seed]!.map((scope) => [scope]))
      : alternatives(operationOf(endpoint)!.security);
    expect(declared(endpoint)).toEqual(expected);
  });

  it('every production operation served takes a token, save none', () => {
    expect(served.filter((endpoint) => endpoint.auth === 'none').map(nameOf)).toEqual([]);
    expect(scoped.filter((endpoint) => endpoint.auth === 'control').map(nameOf)).toEqual([]);
  });

  it('a client can hold every scope an endpoint checks, and no other', () => {
    const checked = new Set(scoped.flatMap((endpoint) => declared(endpoint).flatMap((alternative) => alternative.split('+'))).filter(Boolean));
    expect([...checked].sort()).toEqual([...scopes].sort());
  });
});

describe('clients hold them', () => {
  it('the full seeded client gets every scope with *, limited-client only shipments.manage', async () => {
    const sandbox = await testSandbox();
    const claims = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
        .scope.split(' ')
        .sort();
    expect(claims(await sandbox.token('sandbox-client'))).toEqual([...scopes].sort());
    expect(claims(await sandbox.token('other-client', 'returns.manage finance.manage'))).toEqual(['finance.manage', 'returns.manage']);
    expect(claims(await sandbox.token('limited-client'))).toEqual(['shipments.manage']);
    const refused = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: 'limited-client', client_secret: 'limited-secret', scope: 'returns.manage' },
      headers: { 'content-type': 'application/json' },
    });
    expect(firstError(refused)).toMatchObject({ status: '400', code: '14001', source: { pointer: '/scope' } });
  });

  it('a data file written when the seed had three scopes: a client that held all three holds every scope, one with fewer keeps them', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-scopes-')), 'sandbox.json');
    const state = seededState();
    state.tables.clients = state.tables.clients!.map((client) => ({
      ...client,
      scopes: client.id === 'limited-client' ? ['shipments.manage'] : [...seedScopes],
    }));
    await writeSnapshot(file, state);
    const sandbox = await testSandbox({ persistence: new JournalPersistence(file) });
    expect([...sandbox.store.get('clients', 'sandbox-client')!.scopes].sort()).toEqual([...scopes].sort());
    expect([...sandbox.store.get('clients', 'other-client')!.scopes].sort()).toEqual([...scopes].sort());
    expect(sandbox.store.get('clients', 'limited-client')!.scopes).toEqual(['shipments.manage']);
    await sandbox.store.close();
  });

  it("a client a pack gave just the seed's three scopes keeps just them after a restart, refused where it was refused before", async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-scopes-')), 'sandbox.json');
    const pack = {
      organizations: [{ key: 'org', broker: 'broker', country_code: 'NL', name: 'Drie Scopes B.V.' }],
      users: [{ key: 'user', organization: 'org' }],
      clients: [{ id: 'three-scopes', secret: 'three-scopes-secret', user: 'user', scopes: [...seedScopes] }],
    };
    const first = await testSandbox({ persistence: new JournalPersistence(file) });
    const made = await first.request('POST', '/_sandbox/tenants', { body: { pack } });
    expect(made.status).toBe(201);
    const client = made.body.clients[0] as { client_id: string; client_secret: string };
    /** What the pack's client may do: the scopes its token carries, and GET /collections (collections.view, not one of the three). */
    const reach = async (sandbox: TestSandbox) => {
      const token = await sandbox.request('POST', '/access-token', {
        body: { grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, scope: '*' },
        headers: { 'content-type': 'application/json' },
      });
      const accessToken = token.body.access_token as string;
      const claims = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString('utf8')) as { scope: string };
      const collections = await sandbox.get('/collections', accessToken);
      return { scope: claims.scope.split(' ').sort(), collections: collections.status };
    };
    const before = await reach(first);
    expect(before).toEqual({ scope: [...seedScopes].sort(), collections: 403 });
    await first.store.close();
    const again = await testSandbox({ persistence: new JournalPersistence(file) });
    expect(await reach(again)).toEqual(before);
    await again.store.close();
  });
});

/** A path with every parameter filled with an id of nothing: the checks run before any lookup. */
const anyPath = (endpoint: Endpoint) =>
  fillPath(endpoint.path, Object.fromEntries(pathParams(endpoint.path).map((name) => [name, '00000000-0000-4000-8000-000000000000'])));

describe('a client with only shipments.manage', () => {
  it("is refused (403/14004) wherever production's scopes refuse it, save where the seed lets shipments.manage in", async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token('limited-client');
    const lacking = scoped.filter(
      (endpoint) => !operationOf(endpoint)!.security.some((alternative) => alternative.every((scope) => scope === 'shipments.manage')),
    );
    const refused: string[] = [];
    const served: string[] = [];
    for (const endpoint of lacking) {
      const answer = await send(sandbox, jsonRequest(endpoint.method, anyPath(endpoint), token, endpoint.body ? {} : undefined));
      const code = answer.body?.errors?.[0]?.code;
      (answer.status === 403 && code === '14004' ? refused : served).push(nameOf(endpoint));
      expect(answer.status === 403 && code === '14004', `${nameOf(endpoint)}: ${answer.status} ${answer.text.slice(0, 200)}`).toBe(
        !passes(endpoint, ['shipments.manage']),
      );
    }
    // Every operation production refuses shipments.manage that the sandbox serves (with a token) was sent, each once.
    const lacksScope = (operation: { security: readonly (readonly string[])[] }) =>
      !operation.security.some((alternative) => alternative.every((scope) => scope === 'shipments.manage'));
    const servedKeys = new Set(scoped.map((endpoint) => operationOf(endpoint)!.key));
    const expected = [...production.values()].filter((operation) => servedKeys.has(operation.key) && lacksScope(operation));
    expect(lacking.map((endpoint) => operationOf(endpoint)!.key).sort()).toEqual(expected.map((operation) => operation.key).sort());
    // The seed's rules let shipments.manage read shipments, contracts and shops, and any token the catalogue.
    expect(served.sort()).toEqual(
      [
        'GET /carriers',
        'GET /carriers/{carrier_id}',
        'GET /carriers/{carrier_id}/contracts',
        'GET /contracts',
        'GET /contracts/{contract_id}',
        'GET /services',
        'GET /services/{service_id}',
        'GET /shipments',
        'GET /shipments/{shipment_id}',
        'GET /shops',
        'GET /shops/{shop_id}',
      ].sort(),
    );
    expect(refused.length).toBe(lacking.length - served.length);
  });
});

describe('401 before any other check', () => {
  it.each(scoped.map((endpoint) => [nameOf(endpoint), endpoint] as const))('%s without a token', async (_name, endpoint) => {
    // With an admin token configured, the broker's operations need a token too.
    const sandbox = await testSandbox({ config: { adminToken: 'the-admin-token' } });
    // Everything else about the request is wrong: what it accepts, its query, its body.
    const request = jsonRequest(endpoint.method, `${anyPath(endpoint)}?filter[nothing]=1&include=nothing`, undefined, endpoint.body ? '{"data":' : undefined);
    request.headers = { ...request.headers, accept: 'text/html' };
    const answer = await send(sandbox, request);
    expect(answer.status, answer.text).toBe(401);
    expect(firstError(answer)).toMatchObject({ code: '14003' });
  });

  it('a file download without a token is 401, not 406, whatever it accepts', async () => {
    const sandbox = await testSandbox();
    for (const accept of ['application/pdf', 'text/html', 'image/png']) {
      const answer = await send(sandbox, { method: 'GET', path: '/files/00000000-0000-4000-8000-000000000000', headers: { accept } });
      expect(answer.status, accept).toBe(401);
    }
  });

  it('the catalogue without a token is 401 (the seed: every request carries a bearer token), with a token 200', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token('limited-client');
    for (const path of ['/carriers', '/services', '/service-options', '/regions', '/statuses']) {
      expect(firstError(await sandbox.get(path)), path).toMatchObject({ status: '401', code: '14003' });
      expect((await sandbox.get(path, token)).status, path).toBe(200);
    }
  });
});
