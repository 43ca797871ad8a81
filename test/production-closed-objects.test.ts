/**
 * A member production does not know, in an object production's contract closes
 * (`additionalProperties: false`): production's validator refuses it, so code that sends one
 * (a misspelt attribute, a member of a newer client) fails there, and the sandbox must refuse it
 * too rather than drop it silently. The mirror of test/production-open-objects.test.ts: for every
 * operation both serve, each closed object of its request body (reference/production-contract.json,
 * as deep as the digest goes) that a valid body of the matrices' populated world holds gets one
 * member more, and the answer must be a 400 that points at that member.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../src/http/endpoint.js';
import { testSandbox, type Json } from './support/app.js';
import { closedRequestObjects, withProductionRequest } from './support/contract/production-schema.js';
import { endpoints, jsonRequest, nameOf, populate, send, type Populated } from './support/matrix.js';
import { wellMeantRequest } from './support/well-meant.js';

let p: Populated;
beforeAll(async () => {
  p = await populate(await testSandbox());
});

const cases = withProductionRequest(endpoints()).flatMap(({ endpoint, doc }) => {
  const objects = closedRequestObjects(doc);
  return objects.length > 0 ? [{ endpoint, objects }] : [];
});

const UNKNOWN = 'member_production_does_not_know';

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `body` with one member more in the object at `path`; undefined where the valid body holds no object there. */
function withUnknown(body: Json, path: string[]): Json | undefined {
  const copy = structuredClone(body);
  let node: unknown = copy;
  for (const key of path) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[key];
  }
  if (!isObject(node)) return undefined;
  node[UNKNOWN] = 'sent by a client that knows more than the schema';
  return copy;
}

let sentInAll = 0;

describe("a member production does not know, where production's contract closes the object", () => {
  it.each(cases.map(({ endpoint, objects }) => [nameOf(endpoint), endpoint, objects] as const))(
    '%s refuses an unknown member in every object production closes',
    async (_name, endpoint: Endpoint, objects: string[][]) => {
      const { params, path: filled, body: valid } = wellMeantRequest(p, endpoint);
      expect(params, 'the populated world has what the path needs').toBeDefined();
      const taken: string[] = [];
      for (const path of objects) {
        const body = withUnknown(valid, path);
        if (!body) continue;
        sentInAll += 1;
        const answer = await send(p.sandbox, jsonRequest(endpoint.method, filled, p.a.token, body));
        const at = `/${[...path, UNKNOWN].join('/')}`;
        const errors = ((answer.body as Json)?.errors ?? []) as Json[];
        if (answer.status !== 400 || !errors.some((error) => error.source?.pointer === at)) taken.push(`${at}: ${answer.status}`);
        await p.restore();
      }
      expect(taken).toEqual([]);
    },
  );

  it('sent an unknown member into a good number of closed objects', () => {
    expect(sentInAll).toBeGreaterThan(20);
  });
});
