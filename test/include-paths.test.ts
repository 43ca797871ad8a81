import { beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../src/http/endpoint.js';
import { testSandbox, type Json } from './support/app.js';
import { bearer, endpoints, fillPath, jsonRequest, nameOf, ownParams, populate, send, validBody, type Populated } from './support/matrix.js';
import { preferredReturnParams } from './support/matrix-returns.js';

/**
 * Every include path an endpoint offers (production's list for the operation) is honoured: the
 * answer embeds exactly the resources the path reaches through the relationships, each once.
 * Run on a populated tenant (shipments with statuses, files, surcharges, hook logs; contracts
 * with coverages; collections), so most paths reach something.
 */

let p: Populated;

beforeAll(async () => {
  p = await populate(await testSandbox());
});

const key = (linkage: { type: string; id: string }) => `${linkage.type}:${linkage.id}`;
const linkages = (data: unknown): { type: string; id: string }[] => (data == null ? [] : Array.isArray(data) ? data : [data as { type: string; id: string }]);

/** The identifiers `path` reaches from `primary`, following the relationships of included resources past the first step. */
function reachable(primary: Json[], included: Json[], path: string): Set<string> {
  const byKey = new Map([...primary, ...included].map((resource: Json) => [key(resource), resource]));
  let frontier: Json[] = primary;
  const found = new Set<string>();
  for (const segment of path.split('.')) {
    const next: Json[] = [];
    for (const resource of frontier) {
      for (const linkage of linkages(resource.relationships?.[segment]?.data)) {
        found.add(key(linkage));
        const resolved = byKey.get(key(linkage));
        if (resolved) next.push(resolved);
      }
    }
    frontier = next;
  }
  return found;
}

const withIncludes = (): Endpoint[] => endpoints().filter((endpoint) => endpoint.method === 'get' && (endpoint.include?.length ?? 0) > 0);

describe('include paths', () => {
  it('are offered by the read endpoints production documents them for', () => {
    expect(withIncludes().map(nameOf).length).toBeGreaterThanOrEqual(15);
  });

  it.each(withIncludes().map((endpoint) => [nameOf(endpoint), endpoint] as const))('%s embeds what each path reaches', async (_name, endpoint) => {
    const caller = p.a;
    const params = ownParams(p.sandbox.store, endpoint, caller.organizationId, { shipment_id: caller.registeredShipmentId });
    expect(params, 'a resource of the tenant to read').toBeDefined();
    const base = fillPath(endpoint.path, params!);
    let reached = 0;
    for (const path of endpoint.include!) {
      const answer = await send(p.sandbox, { method: 'GET', path: `${base}?include=${path}&page[size]=100`, headers: bearer(caller.token) });
      expect(answer.status, `${path}: ${answer.text}`).toBe(200);
      const primary: Json[] = Array.isArray(answer.body.data) ? answer.body.data : [answer.body.data];
      const included: Json[] = answer.body.included ?? [];
      const primaryKeys = new Set(primary.map(key));
      const expected = [...reachable(primary, included, path)].filter((id) => !primaryKeys.has(id));
      // Resources of a type the sandbox does not emulate (zones, manifests, templates) are never related, so never missing.
      expect(included.map(key).sort(), path).toEqual([...new Set(expected)].sort());
      reached += expected.length;
    }
    // Each endpoint's paths reach something on the populated tenant, except where every target is not emulated yet.
    const emptyByNature = endpoint.include!.every((path) =>
      ['zone_from', 'zone_to', 'manifest', 'contract_template', 'colli', 'consolidation_shipment'].includes(path),
    );
    if (!emptyByNature) expect(reached, 'resources embedded over all paths').toBeGreaterThan(0);
  });
});

/** The resource type an endpoint's success answer holds one of (from its declared schema), if any. */
function answeredType(endpoint: Endpoint): string | undefined {
  for (const [status, spec] of Object.entries(endpoint.responses)) {
    if (!status.startsWith('2') || !spec.schema) continue;
    const data = (spec.schema as any).shape?.data;
    const type = data?.shape?.type;
    if (type?.def?.type === 'literal') return String(type.def.values[0]);
    if (type?.def?.type === 'enum') return Object.values(type.def.entries as Record<string, string>)[0];
  }
  return undefined;
}

/** The include paths of the GETs of one resource of `type`. */
function readIncludes(type: string): string[] {
  const reads = endpoints().filter((endpoint) => endpoint.method === 'get' && !endpoint.paginated && answeredType(endpoint) === type);
  return [...new Set(reads.flatMap((endpoint) => endpoint.include ?? []))].sort();
}

/** Include paths a write takes beyond those of the GET of its resource: the multi-colli create answers its colli's documents too (production's PHP SDK asks for include=colli,colli.files). */
const beyondReads: Record<string, string[]> = { 'POST /multi-colli-shipments': ['colli.files'] };

const writes = (): Endpoint[] => endpoints().filter((endpoint) => endpoint.method !== 'get' && answeredType(endpoint) !== undefined);

describe('include on writes', () => {
  it('every write answering a resource takes the include paths of the GET of that resource', () => {
    const found = writes().map((endpoint) => [nameOf(endpoint), [...(endpoint.include ?? [])].sort()] as const);
    const expected = writes().map((endpoint) => [
      nameOf(endpoint),
      [...readIncludes(answeredType(endpoint)!), ...(beyondReads[nameOf(endpoint)] ?? [])].sort(),
    ]);
    expect(found).toEqual(expected);
    expect(found.filter(([, paths]) => paths.length > 0).length).toBeGreaterThanOrEqual(20);
  });

  it('POST /registered-shipments?include=files embeds the label file (the PHP SDK asks for it)', async () => {
    await p.restore();
    const endpoint = endpoints().find((e) => e.operationId === 'createRegisteredShipment')!;
    const body = validBody(p.sandbox.store, endpoint, p.a, {});
    const answer = await send(p.sandbox, jsonRequest('POST', '/registered-shipments?include=files', p.a.token, body));
    expect(answer.status, answer.text).toBe(201);
    const files = answer.body.data.relationships.files.data.map(key);
    expect(files.length).toBeGreaterThan(0);
    expect(answer.body.included.map(key).sort()).toEqual(files.sort());
    expect(answer.body.included[0].attributes.document_type).toBe('label');
  });

  it('a path the GET does not offer is still a 400 naming include, and nothing is written', async () => {
    await p.restore();
    const before = p.sandbox.store.all('shipments').length;
    const endpoint = endpoints().find((e) => e.operationId === 'createShipment')!;
    const body = validBody(p.sandbox.store, endpoint, p.a, {});
    const answer = await send(p.sandbox, jsonRequest('POST', '/shipments?include=owner', p.a.token, body));
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].source).toEqual({ parameter: 'include' });
    expect(p.sandbox.store.all('shipments').length).toBe(before);
  });

  const withPaths = writes().filter((endpoint) => (endpoint.include?.length ?? 0) > 0);
  it.each(withPaths.map((endpoint) => [nameOf(endpoint), endpoint] as const))('%s embeds what its include paths reach', async (_name, endpoint) => {
    await p.restore();
    const { store } = p.sandbox;
    const prefer = {
      shipment_id: p.a.conceptShipmentId,
      shop_id: p.a.apiShopId,
      contract_id: p.a.contractId,
      shipment_surcharge_id: p.a.manualSurchargeId,
      ...preferredReturnParams(endpoint, p.a.returns),
    };
    const params = ownParams(store, endpoint, p.a.organizationId, prefer);
    expect(params, 'a resource of the tenant to write').toBeDefined();
    const body = validBody(store, endpoint, p.a, params!);
    expect(body, 'a valid body for the write').toBeDefined();
    const paths = endpoint.include!;
    // A broker-level write is the broker's: no token on this sandbox, which has no admin token.
    const broker = endpoint.auth === 'control' || (typeof endpoint.auth === 'object' && endpoint.auth.admin === true);
    const token = broker ? undefined : p.a.token;
    const answer = await send(p.sandbox, jsonRequest(endpoint.method, `${fillPath(endpoint.path, params!)}?include=${paths.join(',')}`, token, body));
    expect(answer.status, answer.text).toBeLessThan(300);
    const primary: Json[] = [answer.body.data];
    const included: Json[] = answer.body.included;
    expect(Array.isArray(included), 'an included member').toBe(true);
    const expected = new Set(paths.flatMap((path) => [...reachable(primary, included, path)]).filter((id) => id !== key(answer.body.data)));
    expect(included.map(key).sort()).toEqual([...expected].sort());
  });
});
