/**
 * `null` wherever production's contract lets a request member be null. Official clients send
 * `null` for a value they do not have (the PHP SDK serialises every unset property), so a member
 * production types as nullable must not be refused here: for every operation both serve, each
 * nullable member of its request body (reference/production-contract.json, as deep as the digest
 * goes) is set to `null` in a valid body of the matrices' populated world, and the answer must not
 * be a refusal that points at that member. What the sandbox then does with the null (a member
 * left out, a value removed) is each resource's own tests' business.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../src/http/endpoint.js';
import { testSandbox, type Json } from './support/app.js';
import { nullableRequestMembers, withProductionRequest, type NullableMember } from './support/contract/production-schema.js';
import { endpoints, fillPath, jsonRequest, nameOf, ownParams, populate, send, validBody, type Populated } from './support/matrix.js';
import { preferredReturnParams } from './support/matrix-returns.js';

let p: Populated;
beforeAll(async () => {
  p = await populate(await testSandbox());
});

/** Served operations with a request body production documents, and the nullable members of that body. */
const cases = withProductionRequest(endpoints()).flatMap(({ endpoint, doc }) => {
  const members = nullableRequestMembers(doc);
  return members.length > 0 ? [{ endpoint, members }] : [];
});

/** An item for an array the valid body leaves out, so that a null can be put in one of its members. */
const tin = { type: 'vat', country_code: 'NL', number: 'NL000099998B57' };
const SAMPLE_ITEMS: Record<string, Json> = {
  tax_identification_numbers: tin,
  sender_tax_identification_numbers: tin,
  recipient_tax_identification_numbers: tin,
};

/**
 * `body` with the member at `path` set to null, its missing parent objects made empty; undefined
 * where that cannot make a valid body: an array item would have to be made, or the object holding
 * the member requires others (an address of which the valid body has none).
 */
function withNull(body: Json, { path, parentRequires, branch }: NullableMember): Json | undefined {
  // A member of one alternative of a union (reject-return's message) goes only into a body of that alternative.
  if (branch && branch.at.reduce((node: Json, key) => node?.[key], body)?.[branch.name] !== branch.value) return undefined;
  const copy = structuredClone(body);
  let parent = copy;
  for (const [index, key] of path.entries()) {
    if (index === path.length - 1) {
      parent[key] = null;
      return copy;
    }
    if (parent[key] === undefined || parent[key] === null) {
      const sample = SAMPLE_ITEMS[key];
      if (/^\d+$/.test(path[index + 1]!)) {
        if (!sample) return undefined;
        parent[key] = [structuredClone(sample)];
      } else if (parentRequires && index === path.length - 2) {
        return undefined;
      } else {
        parent[key] = {};
      }
    }
    parent = parent[key];
  }
  return copy;
}

const pointerOf = (path: string[]) => `/${path.join('/')}`;

/** Nulls production's schema takes that the sandbox refuses on purpose, and why (README, "Where the sandbox differs from production"). */
const REFUSED_ON_PURPOSE: Record<string, string> = {
  'POST /returns/v1/demo-orders /data/attributes/recipient_address/email':
    'production requires the member but lets it be null; the return portal finds an order by its reference and e-mail address, so a demo order needs one',
  'POST /returns/v1/returns /data/attributes/consumer_address/email':
    'production requires the member but lets it be null; the sandbox matches the consumer to the order by it',
};

/** Null members sent, over all operations (each operation's own test may find none it can send: PATCH /hooks' are in array items). */
let sentInAll = 0;
/** The entries of REFUSED_ON_PURPOSE that were refused (each must be, or it is stale). */
const refusedOnPurpose = new Set<string>();

describe("null where production's contract lets a request member be null", () => {
  it('finds nullable members in a good share of the served operations', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(cases.map(({ endpoint, members }) => [nameOf(endpoint), endpoint, members] as const))(
    '%s takes null in every member production lets be null',
    async (name, endpoint: Endpoint, members: NullableMember[]) => {
      const params = ownParams(p.sandbox.store, endpoint, p.a.organizationId, {
        shipment_id: p.a.conceptShipmentId,
        ...preferredReturnParams(endpoint, p.a.returns),
      });
      expect(params, 'the populated world has what the path needs').toBeDefined();
      const valid = validBody(p.sandbox.store, endpoint, p.a, params!);
      expect(valid, 'test/support/matrix.ts knows a valid body').toBeDefined();
      const refused: string[] = [];
      let sent = 0;
      for (const member of members) {
        const body = withNull(valid!, member);
        const { path } = member;
        if (!body) continue;
        sent += 1;
        const answer = await send(p.sandbox, jsonRequest(endpoint.method, fillPath(endpoint.path, params!), p.a.token, body));
        // A 400 refuses the form of the body; a 422 after the null was taken as left out is a rule that needs the member (a registration needs a contract).
        if (answer.status === 400) {
          const at = pointerOf(path);
          const errors = ((answer.body as Json)?.errors ?? []) as Json[];
          const blamed = errors.filter((error) => {
            const pointer = String(error.source?.pointer ?? '');
            return pointer === at || pointer.startsWith(`${at}/`);
          });
          if (blamed.length > 0 && REFUSED_ON_PURPOSE[`${name} ${at}`]) refusedOnPurpose.add(`${name} ${at}`);
          else if (blamed.length > 0) refused.push(`${at}: ${answer.status} ${blamed.map((error) => error.detail).join('; ')}`);
        }
        await p.restore();
      }
      sentInAll += sent;
      expect(refused).toEqual([]);
    },
  );

  it('sent a null into each member it could make a valid body around', () => {
    expect(sentInAll).toBeGreaterThan(100);
    expect([...refusedOnPurpose].sort()).toEqual(Object.keys(REFUSED_ON_PURPOSE).sort());
  });
});
