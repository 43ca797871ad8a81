import { beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../src/http/endpoint.js';
import { testSandbox, type Json } from './support/app.js';
import { bearer, endpoints, fillPath, nameOf, ownParams, populate, send, type Populated } from './support/matrix.js';

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
