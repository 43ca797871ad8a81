import { seededSecret } from '../../src/auth/shared-secrets.js';
import type { Libraries } from '../../src/domain/libraries.js';
import { createApp, createServices } from '../../src/app.js';
import { randomUUID } from 'node:crypto';
import { generateKeys, type Keys } from '../../src/auth/keys.js';
import { signToken } from '../../src/auth/tokens.js';
import { fixedClock, type Clock } from '../../src/clock.js';
import { testConfig, type Config } from '../../src/config.js';
import type { Persistence } from '../../src/store/persistence.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { StateData } from '../../src/store/tables.js';
import { deepFreeze } from '../../src/store/rows.js';
import type { Logger, Services } from '../../src/http/services.js';
import { generateState } from '../../src/fixtures/generate.js';
import { FIXTURE_EPOCH } from '../../src/fixtures/people.js';
import type { StartPack } from '../../src/fixtures/world.js';
import { contractProblems } from './contract/response-check.js';
import { undoJournal, type UndoJournal } from './undo-journal.js';

/** Tests start their clock ten days after the fixture epoch. */
export const TEST_NOW = FIXTURE_EPOCH + 10 * 86400;
export const BASE = 'http://sandbox.test';

const seeded = new Map<number, StateData>();
let sharedKeys: Promise<Keys> | undefined;

/** Seeded data, generated once per seed and frozen: never changed, so every test's store can start from the same rows. */
function frozenSeededState(seed: number): StateData {
  let state = seeded.get(seed);
  if (!state) seeded.set(seed, (state = deepFreeze(generateState(seed, TEST_NOW))));
  return state;
}

/** Seeded data, generated once per seed and copied for each caller (who may change it). */
export function seededState(seed = 1): StateData {
  return structuredClone(frozenSeededState(seed));
}

export type Json = any;

/** The `type:id` of each resource, sorted: what a document's `included` holds, compared regardless of order. */
export const resourceKeys = (resources: Json[] = []): string[] => resources.map((resource) => `${resource.type}:${resource.id}`).sort();

export interface Answer {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

export interface TestSandbox {
  app: ReturnType<typeof createApp>;
  /** What the app was built on: its scheduler, caches and request log. */
  services: Services;
  store: Store;
  /** Takes back writes row by row (`populate`'s restore); absent when the test gave its own persistence. */
  journal: UndoJournal | undefined;
  clock: Clock;
  keys: Keys;
  config: Config;
  /** Sends a request; `body` objects are sent as JSON. */
  request(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<Answer>;
  get(path: string, token?: string): Promise<Answer>;
  /**
   * A GET with a token of the full seeded client (`sandbox-client`, every scope), signed by the
   * sandbox's key as the token endpoint would sign it, so reading the catalogue (which needs a
   * token, like every request) leaves no token request in the log or the rate limit.
   */
  read(path: string): Promise<Answer>;
  /** Moves the sandbox clock forward through the control API, running what becomes due. */
  advance(seconds: number): Promise<void>;
  /** An access token of a fixture client (default `sandbox-client`, all its scopes). */
  token(clientId?: string, scope?: string): Promise<string>;
}

/** A sandbox app on an in-memory store with a frozen clock, as a user would call it. */
export async function testSandbox(
  options: {
    seed?: number;
    config?: Partial<Config>;
    keys?: Keys;
    logger?: Logger;
    persistence?: Persistence;
    libraries?: Libraries;
    /** A start pack (`--fixtures`, read with `loadStartPack`): seeded over the base set, and again by a sandbox reset. */
    fixtures?: StartPack;
  } = {},
): Promise<TestSandbox> {
  const seed = options.seed ?? 1;
  const journal = options.persistence ? undefined : undoJournal();
  // The store keeps its rows frozen and replaces rather than changes them, so it takes the shared
  // frozen rows as they are: a copy for each sandbox the suite makes was ~2 s of its CPU.
  const store = await openStore({
    persistence: options.persistence ?? journal!.persistence,
    seed,
    initial: () => (options.fixtures ? generateState(seed, TEST_NOW, options.fixtures) : frozenSeededState(seed)),
  });
  sharedKeys ??= generateKeys();
  const keys = options.keys ?? (await sharedKeys);
  const clock = fixedClock(TEST_NOW);
  // Tests reach the app as http://sandbox.test, a host the controls answer only when told (as compose.yaml tells it `sandbox`).
  const config = testConfig({ seed, allowedHosts: 'sandbox.test', ...options.config });
  const services = createServices({
    store,
    clock,
    keys,
    config,
    logger: options.logger,
    ...(options.libraries ? { libraries: options.libraries } : {}),
    ...(options.fixtures ? { fixtures: options.fixtures } : {}),
  });
  const app = createApp(services);
  const secrets: Record<string, string> = { 'sandbox-client': 'sandbox-secret', 'other-client': 'other-secret', 'limited-client': 'limited-secret' };

  const request: TestSandbox['request'] = async (method, path, { body, token, headers = {} } = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (token) (init.headers as Record<string, string>).authorization = `Bearer ${token}`;
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/vnd.api+json';
    }
    const response = await app.request(BASE + path, init);
    const text = await response.text();
    let parsed: Json = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const problems = contractProblems({
      method,
      path: path.split('?')[0]!,
      status: response.status,
      contentType: response.headers.get('content-type') ?? undefined,
      body: parsed,
      text,
    });
    if (problems.length > 0) reportProblems(`${method} ${path} -> ${response.status}`, problems);
    return { status: response.status, headers: response.headers, body: parsed, text };
  };

  return {
    app,
    services,
    store,
    journal,
    clock,
    keys,
    config,
    request,
    get: (path, token) => request('GET', path, { token }),
    read: async (path) => request('GET', path, { token: await signedToken(services, 'sandbox-client') }),
    advance: async (seconds) => {
      const answer = await request('POST', '/_sandbox/clock', { body: { advance: seconds } });
      if (answer.status !== 200) throw new Error(`clock move failed: ${answer.text}`);
    },
    token: async (clientId = 'sandbox-client', scope = '*') => {
      const answer = await request('POST', '/access-token', {
        body: {
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: seededSecret(config, { id: clientId, secret: secrets[clientId] ?? '' }),
          scope,
        },
        headers: { 'content-type': 'application/json' },
      });
      if (answer.status !== 200) throw new Error(`token request failed: ${answer.text}`);
      return answer.body.access_token as string;
    },
  };
}

/** A token of `clientId` with every scope it holds, signed as POST /access-token would sign it. */
async function signedToken(services: Services, clientId: string): Promise<string> {
  const client = services.store.get('clients', clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  const organizationId = services.store.get('users', client.user_id)?.organization_id;
  const clock = organizationId === undefined ? services.clock : services.clocks.of(organizationId);
  const signed = await signToken(services.keys, clock, services.config, {
    clientId,
    scopes: client.scopes,
    jti: randomUUID(),
    generation: client.token_generation,
  });
  return signed.token;
}

/** The first error of an errors document, for terse assertions. */
export function firstError(answer: Answer): Json {
  return answer.body?.errors?.[0];
}

import { appendFileSync } from 'node:fs';
function reportProblems(request: string, problems: string[]): void {
  if (process.env.CONTRACT_REPORT) {
    appendFileSync(process.env.CONTRACT_REPORT, JSON.stringify({ request, problems }) + '\n');
    return;
  }
  throw new Error(`${request} departs from the contract:\n  - ${problems.join('\n  - ')}`);
}

/**
 * A tenant made by `POST /_sandbox/tenants` with `body` (a pack, a name, ...), checked to be 201,
 * and an access token of its client with every scope, requested as a user would.
 */
export async function tenantWithToken(sandbox: TestSandbox, body: Json = {}): Promise<{ made: Answer; token: string }> {
  const json = { 'content-type': 'application/json' };
  const made = await sandbox.request('POST', '/_sandbox/tenants', { body, headers: json });
  if (made.status !== 201) throw new Error(`tenant not made: ${made.text}`);
  const answer = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: made.body.client_id, client_secret: made.body.client_secret, scope: '*' },
    headers: json,
  });
  if (answer.status !== 200) throw new Error(`token request failed: ${answer.text}`);
  return { made, token: answer.body.access_token as string };
}
