/**
 * A member production does not know, in an object production's contract leaves open. Where
 * production's schema closes an object (`additionalProperties: false`) an unknown member is a
 * schema failure there and the sandbox refuses it too; where it leaves one open, production takes
 * the member and so must the sandbox (it drops it): for every operation both serve, each open
 * object of its request body (reference/production-contract.json, as deep as the digest goes) that
 * body of the matrices' populated world can hold gets one member more, and the answer must not be a
 * refusal that points at it. The body is a valid one where test/support/matrix.ts knows one, with
 * the missing objects on the way made empty: a schema reports every member it refuses at once, so
 * the required members such an object then lacks are refused beside it, never in its place.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../src/http/endpoint.js';
import { testSandbox, type Json } from './support/app.js';
import { openRequestObjects, withProductionRequest } from './support/contract/production-schema.js';
import { endpoints, jsonRequest, nameOf, populate, send, type Populated } from './support/matrix.js';
import { wellMeantRequest } from './support/well-meant.js';

let p: Populated;
beforeAll(async () => {
  p = await populate(await testSandbox());
});

/** Served operations with a request body production documents, and the open objects of that body. */
const cases = withProductionRequest(endpoints()).flatMap(({ endpoint, doc }) => {
  const objects = openRequestObjects(doc);
  return objects.length > 0 ? [{ endpoint, objects }] : [];
});

const UNKNOWN = 'member_production_does_not_know';

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `body` with one member more in the object at `path`, the objects missing on the way made empty;
 * undefined where that cannot be done: an array item would have to be made, or a value that is not
 * an object is in the way.
 */
function withUnknown(body: Json, path: string[]): Json | undefined {
  const copy = structuredClone(body);
  let node: Json = copy;
  for (const [index, key] of path.entries()) {
    if (node[key] === undefined) {
      if (/^\d+$/.test(key) || /^\d+$/.test(path[index + 1] ?? '')) return undefined;
      node[key] = {};
    }
    node = node[key];
    if (/^\d+$/.test(path[index + 1] ?? '') ? !Array.isArray(node) : !isObject(node)) return undefined;
  }
  node[UNKNOWN] = 'sent by a client that knows more than the schema';
  return copy;
}

const pointerOf = (path: string[]) => `/${[...path, UNKNOWN].join('/')}`;

/** Members sent, over all operations. */
let sentInAll = 0;

describe("a member production does not know, where production's contract leaves the object open", () => {
  it('finds open objects in a good share of the served operations', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(cases.map(({ endpoint, objects }) => [nameOf(endpoint), endpoint, objects] as const))(
    '%s takes an unknown member in every object production leaves open',
    async (_name, endpoint: Endpoint, objects: string[][]) => {
      const { params, path: filled, body: valid } = wellMeantRequest(p, endpoint);
      expect(params, 'the populated world has what the path needs').toBeDefined();
      const refused: string[] = [];
      for (const path of objects) {
        const body = withUnknown(valid, path);
        if (!body) continue;
        sentInAll += 1;
        const answer = await send(p.sandbox, jsonRequest(endpoint.method, filled, p.a.token, body));
        const at = pointerOf(path);
        const errors = ((answer.body as Json)?.errors ?? []) as Json[];
        const blamed = errors.filter((error) => error.source?.pointer === at);
        if (blamed.length > 0) refused.push(`${at}: ${answer.status} ${blamed.map((error) => error.detail).join('; ')}`);
        await p.restore();
      }
      expect(refused).toEqual([]);
    },
  );

  it('sent an unknown member into a good number of open objects', () => {
    expect(sentInAll).toBeGreaterThan(40);
  });
});
