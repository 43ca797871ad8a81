/**
 * Tenant matrix: organizations A (`sandbox-client`) and B (`other-client`) each own, made
 * through the API, shops (one with a logo), contracts, hooks, hook logs, collections, collection
 * schedules, manifests and shipments with statuses and files; a service rate and a liability
 * coverage are inserted on each own contract (no endpoint creates them). Then, generated from `allEndpoints()`, in both
 * directions:
 *
 * - every endpoint with a path parameter naming a tenant-owned resource answers 404/10002 (never
 *   200, never 403) when the caller puts the other tenant's id there, and changes nothing;
 * - every list (and every GET that can `include`) shows none of the other tenant's ids, also
 *   with every include path and with the other tenant's ids in id filters;
 * - an id of the other tenant in a request body answers exactly like an id that does not exist.
 *
 * The param -> resource mapping is derived from the path (`/shops/{shop_id}` -> shops) with a
 * small table for nested parameters (test/support/matrix.ts); an endpoint with a parameter the
 * table does not know fails the first test, so new endpoints must be classified. Logos and
 * tracking codes are public by design (see RESOURCES) and only checked to be reachable.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../src/http/endpoint.js';
import { testSandbox, type Answer, type Json } from './support/app.js';
import { recipients, shipmentBody } from './support/shipments.js';
import {
  RESOURCES,
  classifiedTwice,
  addressBody,
  answerProblems,
  classify,
  collectionBody,
  contractBody,
  endpoints,
  fillPath,
  hookBody,
  jsonRequest,
  manifestBody,
  nameOf,
  ownedIds,
  ownParams,
  pathParams,
  populate,
  scheduleBody,
  send,
  storeDiff,
  tenantIds,
  validBody,
  validQuery,
  type Populated,
  type ResourceClass,
  type Tenant,
} from './support/matrix.js';
import { preferredReturnParams, requiredQuery } from './support/matrix-returns.js';

const all = endpoints();
let p: Populated;

beforeAll(async () => {
  p = await populate(await testSandbox());
});

type Direction = { name: string; caller: () => Tenant; owner: () => Tenant };
const directions: Direction[] = [
  { name: 'A with B ids', caller: () => p.a, owner: () => p.b },
  { name: 'B with A ids', caller: () => p.b, owner: () => p.a },
];

const tenantParams = (endpoint: Endpoint) =>
  pathParams(endpoint.path).flatMap((param) => {
    const found = classify(endpoint, param);
    return typeof found !== 'string' && found.resource.kind === 'tenant' ? [{ param, type: found.type, resource: found.resource }] : [];
  });

const withTenantParams = all.filter((endpoint) => tenantParams(endpoint).length > 0);

/** Ids of the other tenant to try: the preferred (editable) ones first, then every other one. */
function candidateIds(resource: Extract<ResourceClass, { kind: 'tenant' }>, owner: Tenant): string[] {
  const ids = ownedIds(p.sandbox.store, resource, owner.organizationId);
  return [...new Set([owner.conceptShipmentId, ...ids].filter((id) => ids.includes(id)))];
}

const brief = (answer: Answer) => `${answer.status} ${answer.body?.errors?.[0]?.code ?? ''} ${answer.text.slice(0, 160)}`;

async function attempt(endpoint: Endpoint, caller: Tenant, params: Record<string, string>): Promise<string[]> {
  await p.restore();
  const before = p.sandbox.store.snapshot();
  const body = endpoint.body ? (validBody(p.sandbox.store, endpoint, caller, params) ?? {}) : undefined;
  const path = fillPath(endpoint.path, params) + requiredQuery(p.sandbox.store, endpoint, params);
  const answer = await send(p.sandbox, jsonRequest(endpoint.method, path, caller.token, body));
  const failures = answerProblems(endpoint.method, answer);
  if (answer.status !== 404 || answer.body?.errors?.[0]?.code !== '10002') failures.push(`expected 404/10002, got ${brief(answer)}`);
  failures.push(...storeDiff(before, p.sandbox.store.snapshot()).map((diff) => `changed the store: ${diff}`));
  return failures.map((failure) => `${endpoint.method.toUpperCase()} ${path}: ${failure}`);
}

describe('tenant matrix: ids in the path', () => {
  it('classifies every path parameter of every endpoint', () => {
    const unknown = all.flatMap((endpoint) =>
      pathParams(endpoint.path)
        .map((param) => classify(endpoint, param))
        .filter((found) => typeof found === 'string'),
    );
    expect(unknown).toEqual([]);
    expect(withTenantParams.length).toBeGreaterThanOrEqual(15);
  });

  it('classifies by hand only the types no read or write declaration names', () => {
    expect(classifiedTwice()).toEqual([]);
  });

  it.each(withTenantParams.map((endpoint) => [nameOf(endpoint), endpoint] as const))('%s answers 404/10002 for the other tenant', async (_name, endpoint) => {
    const failures: string[] = [];
    let attempts = 0;
    for (const direction of directions) {
      const caller = direction.caller();
      const owner = direction.owner();
      const prefer = { shipment_id: caller.conceptShipmentId, ...preferredReturnParams(endpoint, caller.returns) };
      const own = ownParams(p.sandbox.store, endpoint, caller.organizationId, prefer);
      if (!own) throw new Error(`${nameOf(endpoint)}: ${direction.name}: the caller owns nothing to fill the path with`);
      // One parameter at a time is the other tenant's (every one of its ids), the rest the caller's own.
      for (const { param, resource } of tenantParams(endpoint)) {
        const ids = candidateIds(resource, owner);
        if (ids.length === 0) throw new Error(`${nameOf(endpoint)}: ${direction.name}: the owner has no ${param}`);
        for (const id of ids) {
          attempts += 1;
          failures.push(...(await attempt(endpoint, caller, { ...own, [param]: id })).map((f) => `${direction.name}: ${f}`));
        }
      }
      // And a path that is the other tenant's throughout.
      const theirs = ownParams(p.sandbox.store, endpoint, owner.organizationId, {
        shipment_id: owner.conceptShipmentId,
        ...preferredReturnParams(endpoint, owner.returns),
      });
      if (!theirs) throw new Error(`${nameOf(endpoint)}: ${direction.name}: the owner has nothing to fill the path with`);
      attempts += 1;
      failures.push(...(await attempt(endpoint, caller, theirs)).map((f) => `${direction.name}: ${f}`));
    }
    expect(attempts).toBeGreaterThan(2);
    expect(failures).toEqual([]);
  });

  it('leaves out only resources that are public by design, and those are reachable without a token', async () => {
    const publicTypes = Object.entries(RESOURCES).filter(([, resource]) => resource.kind === 'public');
    expect(publicTypes.map(([type]) => type).sort()).toEqual(['logos', 'return-checkouts', 'return-portals', 'tracking-pages']);
    for (const endpoint of all.filter((e) =>
      pathParams(e.path).some((param) => (classify(e, param) as { resource: ResourceClass }).resource?.kind === 'public'),
    )) {
      expect(endpoint.auth, nameOf(endpoint)).toBe('none');
      const params = ownParams(p.sandbox.store, endpoint, p.b.organizationId)!;
      const answer = await send(p.sandbox, { method: endpoint.method, path: fillPath(endpoint.path, params) });
      expect(answer.status, nameOf(endpoint)).toBe(200);
    }
  });
});

// ---------------------------------------------------------------------------------------------

/** Every include path of a type up to two steps deep (`contract`, `contract.owner`, ...). */
/** The document without its top-level links (which echo the query string). */
const content = (body: Json) => JSON.stringify({ data: body?.data, included: body?.included, meta: body?.meta });

const readable = all.filter((endpoint) => endpoint.method === 'get' && (endpoint.paginated || endpoint.include) && endpoint.auth !== 'control');

describe('tenant matrix: what reads show', () => {
  it.each(readable.map((endpoint) => [nameOf(endpoint), endpoint] as const))("%s shows none of the other tenant's ids", async (_name, endpoint) => {
    await p.restore();
    const failures: string[] = [];
    for (const direction of directions) {
      const caller = direction.caller();
      const foreign = tenantIds(p.sandbox.store, direction.owner().organizationId);
      const params = ownParams(p.sandbox.store, endpoint, caller.organizationId);
      if (!params) throw new Error(`${nameOf(endpoint)}: nothing to fill the path with`);
      const base = fillPath(endpoint.path, params);
      // The plain read and the one with every include must succeed; filter probes may be refused (400), or
      // answered 404/10002 as ids that do not exist where production documents 404 (GET /returns/v1/tags).
      const required = validQuery(endpoint) ? [validQuery(endpoint)] : [];
      const queries: { query: string[]; mustSucceed: boolean }[] = [{ query: required, mustSucceed: true }];
      if (endpoint.include) queries.push({ query: [...required, `include=${endpoint.include.join(',')}`], mustSucceed: true });
      // Id filters given the other tenant's ids must not widen what the caller sees.
      for (const [key, schema] of Object.entries(endpoint.query?.shape ?? {})) {
        const ids = [...foreign].filter((id) => /^[0-9a-f-]{36}$/.test(id));
        if ((schema as { safeParse(v: unknown): { success: boolean } }).safeParse(ids.join(',')).success) {
          queries.push({ query: [...required, `${encodeURIComponent(key)}=${ids.join(',')}`], mustSucceed: false });
        }
      }
      for (const { query, mustSucceed } of queries) {
        let url: string | undefined = `${base}?${[...query, 'page[size]=100'].join('&')}`;
        for (let page = 0; url && page < 20; page++) {
          const answer = await send(p.sandbox, { method: 'GET', path: url, headers: { authorization: `Bearer ${caller.token}` } });
          failures.push(...answerProblems('GET', answer).map((f) => `${direction.name}: ${url}: ${f}`));
          if (answer.status !== 200) {
            const unknownId = answer.status === 404 && answer.body?.errors?.[0]?.code === '10002';
            if (mustSucceed || (answer.status !== 400 && !unknownId))
              failures.push(`${direction.name}: GET ${url}: expected 200, got ${answer.status} ${answer.text.slice(0, 200)}`);
            break;
          }
          const text = content(answer.body);
          const leaked = [...foreign].filter((id) => text.includes(id));
          if (leaked.length > 0) failures.push(`${direction.name}: GET ${url} shows the other tenant's ${leaked.join(', ')}`);
          const next: string | undefined = answer.body?.links?.next;
          url = next ? new URL(next).pathname + new URL(next).search : undefined;
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('lists show each tenant its own resources (the leak check has something to look at)', async () => {
    await p.restore();
    for (const tenant of [p.a, p.b]) {
      const shipments = await send(p.sandbox, { method: 'GET', path: '/shipments?page[size]=100', headers: { authorization: `Bearer ${tenant.token}` } });
      expect(shipments.body.data.map((row: Json) => row.id)).toContain(tenant.registeredShipmentId);
      const hooks = await send(p.sandbox, { method: 'GET', path: '/hooks', headers: { authorization: `Bearer ${tenant.token}` } });
      expect(hooks.body.data.map((row: Json) => row.id).sort()).toEqual([tenant.organizationHookId, tenant.shopHookId].sort());
      const contracts = await send(p.sandbox, { method: 'GET', path: '/contracts?page[size]=100', headers: { authorization: `Bearer ${tenant.token}` } });
      expect(contracts.body.data.map((row: Json) => row.id)).toContain(tenant.contractId);
    }
  });
});

// ---------------------------------------------------------------------------------------------

type BodyCase = {
  name: string;
  method: string;
  path: (caller: Tenant) => string;
  body: (caller: Tenant, id: string) => Json;
  foreign: (owner: Tenant) => string;
};

const shopOf = (tenant: Tenant) => tenant.world.shops.find((shop: Json) => shop.id === tenant.shopId);
const withRelationship = (caller: Tenant, name: string, type: string, id: string) => {
  const shop = shopOf(caller);
  const body = shipmentBody({ shop, recipient: recipients[shop.attributes.sender_address.country_code as keyof typeof recipients] });
  body.data.relationships[name] = { data: { type, id } };
  return body;
};

/** Requests that name another resource in their body: a foreign id must look exactly like a missing one. */
const bodyCases: BodyCase[] = [
  {
    name: 'void a shipment',
    method: 'POST',
    path: () => '/void-shipment',
    body: (_c, id) => ({ data: { shipment_id: id } }),
    foreign: (o) => o.registeredShipmentId,
  },
  {
    name: 'simulate a carrier status',
    method: 'POST',
    path: () => '/update-shipment-status',
    body: (_c, id) => ({ data: { shipment_id: id, status_id: p.sandbox.store.find('statuses', 'code', 'shipment-delivered')[0]!.id } }),
    foreign: (o) => o.registeredShipmentId,
  },
  {
    name: 'ship from their shop',
    method: 'POST',
    path: () => '/shipments',
    body: (c, id) => withRelationship(c, 'shop', 'shops', id),
    foreign: (o) => o.shopId,
  },
  {
    name: 'ship on their contract',
    method: 'POST',
    path: () => '/shipments',
    body: (c, id) => withRelationship(c, 'contract', 'contracts', id),
    foreign: (o) => o.contractId,
  },
  {
    name: 'ship in their collection',
    method: 'POST',
    path: () => '/shipments',
    body: (c, id) => withRelationship(c, 'collection', 'collections', id),
    foreign: (o) => o.collectionId,
  },
  {
    name: 'insure with their coverage',
    method: 'POST',
    path: () => '/shipments',
    body: (c, id) => withRelationship(c, 'liability_coverage', 'liability-coverages', id),
    foreign: (o) => o.coverageId,
  },
  {
    name: 'move my shipment to their contract',
    method: 'PATCH',
    path: (c) => `/shipments/${c.conceptShipmentId}`,
    body: (c, id) => ({ data: { type: 'shipments', id: c.conceptShipmentId, relationships: { contract: { data: { type: 'contracts', id } } } } }),
    foreign: (o) => o.contractId,
  },
  {
    name: 'plan a collection at their shop',
    method: 'POST',
    path: () => '/collections',
    body: (c, id) => {
      const body = collectionBody(shopOf(c));
      body.data.relationships.shop.data.id = id;
      return body;
    },
    foreign: (o) => o.shopId,
  },
  {
    name: 'plan a collection on their contract',
    method: 'POST',
    path: () => '/collections',
    body: (c, id) => {
      const body = collectionBody(shopOf(c));
      body.data.relationships.contract = { data: { type: 'contracts', id } };
      return body;
    },
    foreign: (o) => o.contractId,
  },
  {
    name: 'schedule collections at their shop',
    method: 'POST',
    path: () => '/collection-schedules',
    body: (c, id) => {
      const body = scheduleBody(shopOf(c));
      body.data.relationships.shop.data.id = id;
      return body;
    },
    foreign: (o) => o.shopId,
  },
  {
    name: 'schedule collections on their contract',
    method: 'POST',
    path: () => '/collection-schedules',
    body: (c, id) => {
      const body = scheduleBody(shopOf(c));
      body.data.relationships.contract = { data: { type: 'contracts', id } };
      return body;
    },
    foreign: (o) => o.contractId,
  },
  {
    name: 'add my shipment to their collection',
    method: 'POST',
    path: () => '/add-shipments-to-collection',
    body: (c, id) => ({ data: { collection_id: id, shipment_ids: [c.conceptShipmentId] } }),
    foreign: (o) => o.manifestCollectionId,
  },
  {
    name: 'add their shipment to my collection',
    method: 'POST',
    path: () => '/add-shipments-to-collection',
    body: (c, id) => ({ data: { collection_id: c.manifestCollectionId, shipment_ids: [id] } }),
    foreign: (o) => o.conceptShipmentId,
  },
  {
    name: 'manifest of their collection',
    method: 'POST',
    path: () => '/create-manifest-for-collection',
    body: (_c, id) => ({ data: { collection_id: id } }),
    foreign: (o) => o.manifestCollectionId,
  },
  {
    name: 'manifest of their shipment',
    method: 'POST',
    path: () => '/manifests',
    body: (c, id) => manifestBody(shopOf(c), id),
    foreign: (o) => o.registeredShipmentId,
  },
  {
    name: 'manifest owned by their shop',
    method: 'POST',
    path: () => '/manifests',
    body: (c, id) => {
      const body = manifestBody(shopOf(c), c.registeredShipmentId);
      body.data.relationships.owner = { data: { type: 'shops', id } };
      return body;
    },
    foreign: (o) => o.shopId,
  },
  {
    name: 'hook owned by their organization',
    method: 'POST',
    path: () => '/hooks',
    body: (_c, id) => hookBody({ type: 'organizations', id }),
    foreign: (o) => o.organizationId,
  },
  { name: 'hook owned by their shop', method: 'POST', path: () => '/hooks', body: (_c, id) => hookBody({ type: 'shops', id }), foreign: (o) => o.shopId },
  {
    name: 'shop in their organization',
    method: 'POST',
    path: () => '/shops',
    body: (_c, id) => ({ data: { type: 'shops', attributes: { name: 'Intruder' }, relationships: { organization: { data: { type: 'organizations', id } } } } }),
    foreign: (o) => o.organizationId,
  },
  {
    name: 'contract owned by their organization',
    method: 'POST',
    path: () => '/contracts',
    body: (c, id) => contractBody(c.world.services[0].relationships.carrier.data.id, id),
    foreign: (o) => o.organizationId,
  },
  {
    name: 'address in their organization',
    method: 'POST',
    path: () => '/addresses',
    body: (c, id) => addressBody(id, shopOf(c).attributes.sender_address),
    foreign: (o) => o.organizationId,
  },
  {
    name: 'rate on their contract',
    method: 'POST',
    path: () => '/service-rates',
    body: (c, id) => ({
      data: {
        type: 'service-rates',
        attributes: { weight_min: 0, weight_max: 100, price: { amount: 1, currency: 'EUR' } },
        relationships: { contract: { data: { type: 'contracts', id } }, service: { data: { type: 'services', id: c.world.services[0].id } } },
      },
    }),
    foreign: (o) => o.contractId,
  },
  {
    name: 'dynamic rates on their contract',
    method: 'POST',
    path: () => '/get-dynamic-service-rates',
    body: (c, id) => ({
      data: {
        type: 'shipments',
        attributes: {
          sender_address: shopOf(c).attributes.sender_address,
          recipient_address: shopOf(c).attributes.sender_address,
          physical_properties: { weight: 1000 },
        },
        relationships: { contract: { data: { type: 'contracts', id } }, shop: { data: { type: 'shops', id: c.shopId } } },
      },
    }),
    foreign: (o) => o.contractId,
  },
];

/** The answer with the id in question replaced, to compare a foreign id's answer with a missing one's. */
const normalized = (answer: Answer, id: string) => ({ status: answer.status, body: JSON.parse(answer.text.split(id).join('<id>') || 'null') });

describe('tenant matrix: ids in request bodies', () => {
  it.each(bodyCases.map((c) => [c.name, c] as const))('%s: a foreign id answers like a missing one', async (_name, c) => {
    for (const direction of directions) {
      const caller = direction.caller();
      const foreign = c.foreign(direction.owner());
      const missing = randomUUID();
      const answers: Answer[] = [];
      for (const id of [foreign, missing]) {
        await p.restore();
        const before = p.sandbox.store.snapshot();
        const answer = await send(p.sandbox, jsonRequest(c.method, c.path(caller), caller.token, c.body(caller, id)));
        expect(answerProblems(c.method, answer), `${direction.name}`).toEqual([]);
        expect(answer.status, `${direction.name}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
        expect(storeDiff(before, p.sandbox.store.snapshot()), direction.name).toEqual([]);
        answers.push(answer);
      }
      expect(normalized(answers[0]!, foreign), `${direction.name}: the other tenant's id must answer like a missing id`).toEqual(
        normalized(answers[1]!, missing),
      );
    }
  });
});
