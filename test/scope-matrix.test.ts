/**
 * Scope matrix: every declared endpoint (from `allEndpoints()`, so new endpoints are covered
 * without touching this file) is called without a token and with a token for each scope set that
 * tells whether it checks what it declares (`scopeSetsFor`): none, every scope, each of the
 * seed's three alone, each accepted requirement alone (and, for scopes held together, with one
 * missing), and every scope but the accepted ones.
 *
 * - `{anyOf}` endpoints answer 403/14004 exactly when the token meets none of the accepted
 *   requirements, and never 401 or 403 otherwise (broker-level ones: 403/10013 for a tenant's
 *   token that passes, only the broker acts there);
 * - `'token'` endpoints never answer 403 (nor 401 to a valid token);
 * - `'none'` endpoints answer the same with and without a token;
 * - `'control'` endpoints (with no admin token configured) answer a tenant's token as they answer
 *   no token (acting on that tenant only), or refuse it with 403/10013 where only the admin may act;
 *   never 401 to a valid token.
 *
 * The tokens are signed with the sandbox's own `signToken` and key: exactly the tokens the server
 * would issue for those grants (the empty one cannot be asked of POST /access-token: no scope means
 * every scope of the client). Each call starts from the same populated data (restored before every
 * call), with real ids in the path and a valid body where the operation is known (`validBody`);
 * other bodies are `{}`, which still passes through the scope check first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../src/http/endpoint.js';
import type { Scope } from '../src/model/tenancy.js';
import { accessText, buildOpenApi } from '../src/openapi/build.js';
import { testSandbox, type Answer } from './support/app.js';
import {
  SCOPES,
  answerProblems,
  endpoints,
  fillPath,
  jsonRequest,
  nameOf,
  ownParams,
  populate,
  satisfies,
  scopeSetsFor,
  send,
  storeDiff,
  tokenWithScopes,
  validBody,
  validQuery,
  type Populated,
} from './support/matrix.js';
import { preferredReturnParams, requiredQuery } from './support/matrix-returns.js';

const all = endpoints();

let p: Populated;
const tokens = new Map<string, string>();
const label = (subset: readonly string[]) =>
  subset.length === 0
    ? '{}'
    : subset.length === SCOPES.length
      ? '{every scope}'
      : subset.length > 4
        ? `{all but ${SCOPES.filter((s) => !subset.includes(s)).join(' ')}}`
        : `{${subset.join(' ')}}`;

/** A token of the full client with exactly `subset` (signed once per set). */
async function tokenFor(subset: readonly Scope[]): Promise<string> {
  const key = label(subset);
  if (!tokens.has(key)) tokens.set(key, await tokenWithScopes(p.sandbox, 'sandbox-client', subset));
  return tokens.get(key)!;
}

beforeAll(async () => {
  p = await populate(await testSandbox());
});

/** The path and body organization A would send: its own ids, a concept shipment for writes. */
function requestFor(endpoint: Endpoint) {
  const { store } = p.sandbox;
  // Writes take what they can succeed on: a concept shipment, the shop and contract made through the API (no shipments use them), a surcharge added by hand.
  const prefer: Record<string, string> =
    endpoint.method === 'get'
      ? {}
      : { shipment_id: p.a.conceptShipmentId, shop_id: p.a.apiShopId, contract_id: p.a.contractId, shipment_surcharge_id: p.a.manualSurchargeId };
  // Returns actions need a return in the right state (open, failed, approved, waiting for a payment).
  const params = ownParams(store, endpoint, p.a.organizationId, { ...prefer, ...preferredReturnParams(endpoint, p.a.returns) });
  if (!params) throw new Error(`${nameOf(endpoint)}: organization A has nothing to put in its path`);
  const known = endpoint.body ? validBody(store, endpoint, p.a, params) : undefined;
  const query = [validQuery(endpoint), requiredQuery(store, endpoint, params).replace(/^\?/, '')].filter(Boolean).join('&');
  const path = fillPath(endpoint.path, params) + (query ? `?${query}` : '');
  return { path, body: endpoint.body ? (known ?? {}) : undefined, valid: !endpoint.body || known !== undefined };
}

/** Whether the request the matrix sends is a valid one, judged on the populated data (restored first). */
async function validBeforeCall(endpoint: Endpoint): Promise<boolean> {
  await p.restore();
  return requestFor(endpoint).valid;
}

async function call(endpoint: Endpoint, token: string | undefined): Promise<Answer> {
  await p.restore();
  const { path, body } = requestFor(endpoint);
  return send(p.sandbox, jsonRequest(endpoint.method, path, token, body));
}

/** What the declaration means for this sandbox: controls are open to no token when no admin token is set. */
function effectiveAuth(endpoint: Endpoint): 'open' | 'token' | 'scoped' | 'control' | 'admin-token' {
  const { auth } = endpoint;
  if (typeof auth === 'object') return 'scoped';
  if (auth === 'control') return p.sandbox.config.adminToken === undefined ? 'control' : 'admin-token';
  if (auth === 'none') return 'open';
  return auth;
}

/** Valid requests the populated data refuses by a business rule, with the status expected instead of success. */
const REFUSED_ON_PURPOSE: Record<string, { status: number; why: string }> = {
  'DELETE /organizations/{organization_id}': { status: 422, why: 'organization A has shipments, and an organization with shipments cannot be deleted' },
  'DELETE /_sandbox/tenants/{tenant}': { status: 422, why: 'organization A is seeded; only tenants made through the controls can be deleted' },
  'POST /_sandbox/visitor': { status: 404, why: 'the matrix sandbox runs without --tenant-per-visitor' },
};

/** The refusal of a tenant's token on what only the broker may do (it passed the scope check). */
const brokerOnly = (answer: Answer) => answer.status === 403 && answer.body?.errors?.[0]?.code === '10013';

const brief = (answer: Answer) => `${answer.status} ${answer.body?.errors?.[0]?.code ?? ''} ${answer.text.slice(0, 160)}`;

describe('scope matrix: every endpoint x the scope sets that tell', () => {
  it('covers every endpoint, and for each accepted requirement a set that passes and one that does not', () => {
    expect(all.length).toBeGreaterThan(50);
    const kinds = new Set(all.map((endpoint) => (typeof endpoint.auth === 'object' ? 'anyOf' : endpoint.auth)));
    expect([...kinds].sort()).toEqual(['anyOf', 'control', 'none', 'token']);
    for (const endpoint of all.filter((e) => typeof e.auth === 'object')) {
      const sets = scopeSetsFor(endpoint);
      expect(
        sets.some((set) => satisfies(endpoint, set)),
        nameOf(endpoint),
      ).toBe(true);
      expect(
        sets.some((set) => set.length > 0 && !satisfies(endpoint, set)),
        nameOf(endpoint),
      ).toBe(true);
    }
  });

  it.each(all.map((endpoint) => [nameOf(endpoint), endpoint] as const))('%s', async (_name, endpoint) => {
    const failures: string[] = [];
    const auth = effectiveAuth(endpoint);
    // Whether the request is valid is judged on the populated data, before a DELETE has run.
    const valid = await validBeforeCall(endpoint);
    const refusal = REFUSED_ON_PURPOSE[nameOf(endpoint)];
    const anonymous = await call(endpoint, undefined);
    failures.push(...answerProblems(endpoint.method, anonymous).map((problem) => `no token: ${problem}`));
    // The broker's operations take no token as the broker on this sandbox, which has no admin token.
    const broker = typeof endpoint.auth === 'object' && endpoint.auth.admin === true;
    if (auth === 'token' || (auth === 'scoped' && !broker)) {
      if (anonymous.status !== 401 || anonymous.body?.errors?.[0]?.code !== '14003') failures.push(`no token: expected 401/14003, got ${brief(anonymous)}`);
    }
    if (broker && (anonymous.status === 401 || anonymous.status === 403)) failures.push(`no token acts as the broker here, got ${brief(anonymous)}`);

    for (const subset of scopeSetsFor(endpoint)) {
      const who = label(subset);
      const answer = await call(endpoint, await tokenFor(subset));
      // With every scope the request is valid and succeeds, so the matrix runs handlers, not only validation.
      // (Whether it is valid is asked of the data as it was: the call may have deleted what it names.)
      // Success is a 2xx, or the redirect an endpoint documents (a checkout URL answers 302).
      const adminOnly = auth === 'control' && answer.status === 403;
      const succeeded =
        (answer.status >= 200 && answer.status <= 299) || (answer.status >= 300 && answer.status <= 399 && String(answer.status) in endpoint.responses);
      const every = subset.length === SCOPES.length;
      if (every && refusal && answer.status !== refusal.status) failures.push(`${who}: expected ${refusal.status} (${refusal.why}), got ${brief(answer)}`);
      if (every && valid && !refusal && !adminOnly && !brokerOnly(answer) && !succeeded)
        failures.push(`${who}: a valid request with every scope should succeed, got ${brief(answer)}`);
      failures.push(...answerProblems(endpoint.method, answer).map((problem) => `${who}: ${problem}`));
      const code = answer.body?.errors?.[0]?.code;
      if (auth === 'scoped') {
        const holds = satisfies(endpoint, subset);
        if (!holds && (answer.status !== 403 || code !== '14004'))
          failures.push(`${who}: meets no accepted requirement, expected 403/14004, got ${brief(answer)}`);
        if (holds && (answer.status === 401 || (answer.status === 403 && !(broker && brokerOnly(answer)))))
          failures.push(`${who}: meets an accepted requirement, got ${brief(answer)}`);
      } else if (auth === 'token') {
        if (answer.status === 401 || answer.status === 403) failures.push(`${who}: any valid token will do here, got ${brief(answer)}`);
      } else if (auth === 'control') {
        const refused = answer.status === 403 && code === '10013';
        if (answer.status === 401 || (answer.status !== anonymous.status && !refused))
          failures.push(`${who}: a tenant's token answers like no token or 403/10013, got ${brief(answer)} (no token: ${anonymous.status})`);
      } else if (auth === 'open') {
        if (answer.status !== anonymous.status) failures.push(`${who}: answers ${answer.status} with the token but ${anonymous.status} without`);
        // GETs must answer the very same document; writes (new tokens, tenants) differ by nature.
        const comparable = endpoint.method === 'get' && !endpoint.path.startsWith('/_sandbox/');
        if (comparable && answer.text !== anonymous.text) failures.push(`${who}: the body differs from the answer without a token`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the document says who may call each operation from its declaration, and no description says it by hand', () => {
    const operations = buildOpenApi(all, 'http://sandbox.test').paths!;
    const problems = all.flatMap((endpoint) => {
      const found: string[] = [];
      const claim = /\b(Takes|Any valid token|any valid token)\b|\(production: [a-z_]+\.[a-z]+/.exec(endpoint.description ?? '');
      if (claim) found.push(`${nameOf(endpoint)}: the description says "${claim[0]}" by hand`);
      const text = accessText(endpoint);
      const documented = operations[endpoint.path]?.[endpoint.method]?.description ?? '';
      if (text && !endpoint.internal && !documented.endsWith(text)) found.push(`${nameOf(endpoint)}: the document does not end with "${text}"`);
      return found;
    });
    expect(problems).toEqual([]);
  });

  it('a refused scope check changes nothing', async () => {
    const token = await tokenFor([]);
    const changed: string[] = [];
    for (const endpoint of all.filter((e) => typeof e.auth === 'object' && e.method !== 'get')) {
      await p.restore();
      const before = p.sandbox.store.snapshot();
      const { path, body } = requestFor(endpoint);
      const answer = await send(p.sandbox, jsonRequest(endpoint.method, path, token, body));
      expect(answer.status, nameOf(endpoint)).toBe(403);
      changed.push(...storeDiff(before, p.sandbox.store.snapshot()).map((diff) => `${nameOf(endpoint)}: ${diff}`));
    }
    expect(changed).toEqual([]);
  });
});
