import crypto, { createECDH, createHash } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { format } from 'prettier';
import { allEndpoints, createApp, createServices } from '../src/app.js';
import { importKeys, TOKEN_ALG, type KeyMaterial } from '../src/auth/keys.js';
import { fixedClock } from '../src/clock.js';
import { testConfig } from '../src/config.js';
import { defaultTenant, exampleRequest, examplesInPageOrder, makeExampleRows } from '../src/docs/examples/index.js';
import { tenantExampleIds } from '../src/docs/served-document.js';
import { generateState } from '../src/fixtures/generate.js';
import { FIXTURE_EPOCH } from '../src/fixtures/people.js';
import { RateLimiter } from '../src/http/rate-limiter.js';
import { JSONAPI_MEDIA_TYPE } from '../src/jsonapi/document.js';
import { ANSWERS_SERVER_URL, type DocumentedAnswers } from '../src/openapi/documented-answers.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { openStore } from '../src/store/store.js';

/**
 * The answers the API reference documents as its response examples: every operation's example
 * (src/docs/examples) executed once, in the order the page lists them, on a fresh sandbox with
 * the default seed, and each 2xx JSON answer kept. Written to src/openapi/documented-answers.json
 * by `npm run docs:answers`; test/documented-answers.test.ts fails when that file is not what this
 * makes.
 */

export const ANSWERS_FILE = new URL('../src/openapi/documented-answers.json', import.meta.url);

/** The capture's clock: ten days after the fixture epoch, as the tests run. */
const NOW = FIXTURE_EPOCH + 10 * 86400;
const ADMIN = 'documented-answers-admin';
/** A list answer keeps this many entries: enough to show its shape, small enough for the document. */
const LISTED = 2;
/** An access token in an answer is random (ES256 signs with a random nonce): shown as this instead. */
const TOKEN_SHOWN = 'eyJhbGciOiJFUzI1NiJ9.an-access-token.signature';
/** Members whose values follow the wall clock (the request log's durations), shown as these. */
const WALL_CLOCK: Record<string, unknown> = { duration_ms: 1.5 };
const JWT = /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/;
/** A file's contents in an answer (a label's PDF, base64): tens of KB, shown by their first 64 characters (still base64). */
const BASE64 = /^[A-Za-z0-9+/]{256,}={0,2}$/;
const BASE64_SHOWN = 64;

/** The answers as the committed file holds them (prettier-formatted JSON). */
export async function answersSource(): Promise<string> {
  return format(JSON.stringify(await captureAnswers()), { parser: 'json', printWidth: 160 });
}

/** Bytes that follow from `label` alone. */
const fixedBytes = (label: string) => createHash('sha256').update(`parcel-sandbox documented answers: ${label}`).digest();

/**
 * Runs `work` with node:crypto's randomUUID and randomBytes drawing from a counter instead of the
 * CSPRNG (what the sandbox makes at random: a new tenant's client id and secret, a logo's or a
 * payment's public id), so that the same examples capture the same file each time. Restored after.
 */
async function withFixedRandomness<T>(work: () => Promise<T>): Promise<T> {
  const { randomUUID, randomBytes } = crypto;
  let drawn = 0;
  const bytes = (size: number) => {
    const out = Buffer.alloc(size);
    for (let at = 0; at < size; at += 32) fixedBytes(`random ${drawn++}`).copy(out, at);
    return out;
  };
  crypto.randomBytes = ((size: number) => bytes(size)) as typeof crypto.randomBytes;
  crypto.randomUUID = (() => {
    const hex = bytes(16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }) as typeof crypto.randomUUID;
  // Updates the named exports every `import { randomUUID } from 'node:crypto'` binds to.
  syncBuiltinESMExports();
  try {
    return await work();
  } finally {
    crypto.randomUUID = randomUUID;
    crypto.randomBytes = randomBytes;
    syncBuiltinESMExports();
  }
}

/** Key material that is the same each run: a P-256 signing key and a credentials key from fixed bytes. */
function fixedKeyMaterial(): KeyMaterial {
  const d = fixedBytes('signing key');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  const publicJwk = { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') };
  const kid = createHash('sha256').update(JSON.stringify(publicJwk)).digest('base64url').slice(0, 16);
  return {
    format: 'parcel-sandbox-keys',
    signing: { alg: TOKEN_ALG, kid, privateJwk: { ...publicJwk, d: d.toString('base64url') }, publicJwk },
    credentialsKey: fixedBytes('credentials key').toString('base64'),
  };
}

/** Executes every example on a fresh sandbox and keeps each operation's 2xx JSON answer, trimmed. */
async function captureAnswers(): Promise<DocumentedAnswers> {
  return withFixedRandomness(capture);
}

async function capture(): Promise<DocumentedAnswers> {
  const store = await openStore({ persistence: memoryPersistence(), seed: 1, initial: () => generateState(1, NOW) });
  // Fixed keys: what they key (public ids, tracking codes, the JWKS) comes out the same each run.
  const keys = await importKeys(fixedKeyMaterial());
  const config = testConfig({ seed: 1, adminToken: ADMIN });
  const services = createServices({ store, clock: fixedClock(NOW), keys, config });
  // The rate limit's minute stopped (it runs on real time): its headers in the request log come out the same however long the capture takes.
  services.limiter = new RateLimiter(() => NOW * 1000);
  const app = createApp(services);
  const tenant = defaultTenant(store);
  const ids = tenantExampleIds(services, tenant);
  const made = await makeExampleRows(services, services.dispatch!, ids, ANSWERS_SERVER_URL);
  if (made.failed.length > 0) throw new Error(`example rows not made: ${made.failed.join(', ')}`);
  const token = await clientToken(app, tenant.clientId, tenant.clientSecret);
  const answers: DocumentedAnswers = {};
  for (const { endpoint, example } of examplesInPageOrder(allEndpoints(), ids)) {
    // Only a sandbox with --tenant-per-visitor makes visitors; the document does not show itself.
    if (endpoint.operationId === 'createSandboxVisitorTenant' || endpoint.operationId === 'getOpenApiDocument') continue;
    const { url, init } = exampleRequest(endpoint, example, ANSWERS_SERVER_URL, { client: token, admin: ADMIN });
    const answer = await app.request(url, init);
    const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const text = await answer.text();
    if (answer.status === 302) continue; // a page that sends the browser on (a payment checkout)
    if (answer.status < 200 || answer.status >= 300) throw new Error(`${endpoint.operationId} answered ${answer.status}: ${text.slice(0, 300)}`);
    // Only a JSON answer the document gives a schema for has a place to be shown (the API root has none).
    if (!/^application\/(.+\+)?json$/.test(type) || text === '' || !endpoint.responses[answer.status]?.schema) continue;
    answers[endpoint.operationId] = { status: answer.status, type, body: trimmed(scrubbed(JSON.parse(text)), type) };
  }
  return answers;
}

/** A token of the default client, asked for as the page's button asks. */
async function clientToken(app: ReturnType<typeof createApp>, clientId: string, clientSecret: string): Promise<string> {
  const answer = await app.request(`${ANSWERS_SERVER_URL}/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: '*' }),
  });
  if (answer.status !== 200) throw new Error(`token request failed: ${await answer.text()}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/**
 * The answer with what differs from run to run as fixed stand-ins (access tokens: ES256 signs with
 * a random nonce; what follows the wall clock), and file contents cut short.
 */
function scrubbed(value: unknown): unknown {
  if (typeof value === 'string') return JWT.test(value) ? TOKEN_SHOWN : BASE64.test(value) ? value.slice(0, BASE64_SHOWN) : value;
  if (Array.isArray(value)) return value.map(scrubbed);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, Object.hasOwn(WALL_CLOCK, key) ? WALL_CLOCK[key] : scrubbed(entry)]));
  return value;
}

/** Every list in `value` cut to its first LISTED entries. */
function listsCut(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, LISTED).map(listsCut);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, listsCut(entry)]));
  return value;
}

type Resource = { type?: unknown; id?: unknown; relationships?: Record<string, { data?: unknown }> };

/**
 * A list answer's first entries: a JSON:API list's `data` cut to LISTED resources and `included`
 * to those they name (the resources themselves stay whole); in a plain JSON answer (the controls'),
 * every list. `meta` and `links` stay as answered: the total and the pages of the whole list.
 */
function trimmed(body: unknown, type: string): unknown {
  if (type !== JSONAPI_MEDIA_TYPE) return listsCut(body);
  if (!body || typeof body !== 'object') return body;
  const document = body as { data?: unknown; included?: Resource[] };
  if (!Array.isArray(document.data) || document.data.length <= LISTED) return body;
  const data = (document.data as Resource[]).slice(0, LISTED);
  const out: Record<string, unknown> = { ...document, data };
  if (document.included) {
    // The included resources the kept entries name, and those these name in turn.
    const named = new Set<string>();
    const name = (resource: Resource) => {
      for (const relationship of Object.values(resource.relationships ?? {})) {
        const linkage = relationship?.data;
        for (const ref of Array.isArray(linkage) ? linkage : linkage ? [linkage] : []) named.add(`${(ref as Resource).type} ${(ref as Resource).id}`);
      }
    };
    data.forEach(name);
    let kept: Resource[] = [];
    for (let size = -1; size !== named.size;) {
      size = named.size;
      kept = document.included.filter((resource) => named.has(`${resource.type} ${resource.id}`));
      kept.forEach(name);
    }
    out.included = kept;
  }
  return out;
}
