/**
 * Hostile input, property-based (fast-check) and exhaustive where that is cheap. Every endpoint of
 * `allEndpoints()` gets generated paths (real ids of both tenants, random and hostile strings, raw
 * invalid escapes, trailing slashes), query strings (declared and undeclared keys, duplicates,
 * invalid UTF-8 escapes), headers (odd Content-Type, Accept, Authorization, Idempotency-Key) and
 * bodies (valid bodies with mutations: wrong types, deleted members, `__proto__`/`constructor`/
 * `prototype` keys at any level, 5,000-deep nesting, 1 MB strings, invalid UTF-8 bytes; random
 * JSON; broken JSON). For every answer:
 *
 * - never a 5xx;
 * - every 4xx is a JSON:API errors document (`application/vnd.api+json`, `errors[]` with string
 *   `status`/`code`/`title`/`detail`, `errors[0].status` = the HTTP status) with no stack trace;
 *   a 405's Allow header does not list the refused method;
 * - a refused request (4xx) changes no stored data (`store.snapshot()` before and after; only
 *   `idempotencyKeys` may change, and only when an Idempotency-Key was sent: refusals under a key
 *   are remembered and replayed for 24 hours by design, see src/domain/idempotency.ts). The
 *   request log is in memory, not in the store, so it is not compared;
 * - no prototype pollution: `({}).polluted` stays undefined and the built-in prototypes keep
 *   exactly their own properties.
 *
 * Next to the random property, sweeps put each hostile value in every member of every endpoint's
 * valid body (and in every free-form member its zod schema accepts), and targeted tests pin what
 * the fuzzing found: prototype names in hook JSON pointers, HTTP Basic credentials with broken
 * percent-escapes, clock moves out of the Date range, and the request log losing hostile bodies.
 *
 * After an answer that changed data on purpose (2xx), the populated state is restored, so every
 * run starts from the same world. Reproduce a failure with FUZZ_SEED=<seed printed below>; run
 * longer with FUZZ_RUNS=<n>.
 *
 * The work is bounded by count, never by time: the random property runs RUNS requests, and each
 * sweep is one test per area of the API (`areaOf`), so that every test stays far inside the test
 * timeout on a loaded machine; a last test checks that each sweep sent its requests.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../src/http/endpoint.js';
import type { Logger } from '../src/http/services.js';
import { testSandbox, type Answer, type Json, type TestSandbox } from './support/app.js';
import {
  answerProblems,
  bearer,
  canHaveBody,
  endpoints,
  errorDocumentProblem,
  fillPath,
  hookBody,
  ownParams,
  pathParams,
  pollution,
  populate,
  prototypeState,
  repairPrototypes,
  send,
  storeDiff,
  tokenWithScopes,
  validBody,
  type Populated,
  type RawRequest,
} from './support/matrix.js';
import { preferredReturnParams } from './support/matrix-returns.js';
import { wellMeantRequest } from './support/well-meant.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20260122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
// Bounded by count, never by time: the same requests on a fast machine and a loaded one.
const RANDOM_RUNS: fc.Parameters<unknown> = { seed: SEED, numRuns: RUNS };

const all = endpoints();
const withBody = all.filter((endpoint) => endpoint.body !== undefined);
let p: Populated;
let protos: ReturnType<typeof prototypeState>;

/** What the app logged as unexpected errors (the cause of a 500), to say where it threw. */
const thrown: unknown[] = [];
const logger: Logger = { error: (object) => thrown.push((object as { err?: unknown }).err ?? object), warn: () => {}, info: () => {}, debug: () => {} };

function whereThrown(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.includes('/src/'))
    .slice(0, 3)
    .map((line) =>
      line
        .trim()
        .replace(/^at /, '')
        .replace(/\(?\/[^)]*\/(src\/[^)]*)\)?/, '($1)'),
    );
  return `${error.name}: ${error.message.slice(0, 120)} at ${frames.join(' < ')}`;
}

/** Requests sent per test, printed at the end. */
const sent = new Map<string, number>();

afterAll(() => {
  console.log(`fuzz: requests per test ${JSON.stringify(Object.fromEntries(sent))}`);
});

beforeAll(async () => {
  console.log(`fuzz: seed ${SEED}, ${RUNS} runs (reproduce with FUZZ_SEED=${SEED})`);
  p = await populate(await testSandbox({ logger }));
  protos = prototypeState();
});

// ---------------------------------------------------------------------------------------------
// Building hostile JSON text

/** A value written into the JSON text as it is (deep nesting, invalid bytes). */
class Raw {
  constructor(readonly text: string) {}
}
const BAD_UTF8_MARK = 'ZQXBADUTF8ZQX';
/** Byte sequences that are not UTF-8: a stray byte, a bad continuation, a surrogate, overlong and truncated forms. */
const BAD_UTF8: readonly number[][] = [
  [0xff],
  [0xc3, 0x28],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0xfe, 0xfe, 0xff, 0xff],
];

/** JSON text of a value; own `__proto__` keys are kept and `Raw` values are written verbatim. */
function serialize(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(serialize).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .map((key) => `${JSON.stringify(key)}:${serialize((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The bytes of a JSON text, with each bad-UTF-8 mark replaced by an invalid sequence. */
function encode(text: string, variant = 0): string | Uint8Array {
  if (!text.includes(BAD_UTF8_MARK)) return text;
  const parts = text.split(BAD_UTF8_MARK);
  const chunks: Buffer[] = [];
  parts.forEach((part, index) => {
    chunks.push(Buffer.from(part, 'utf8'));
    if (index < parts.length - 1) chunks.push(Buffer.from(BAD_UTF8[(variant + index) % BAD_UTF8.length]!));
  });
  return new Uint8Array(Buffer.concat(chunks));
}

const deepText = (depth: number, kind: 'array' | 'object' | 'mixed' = 'mixed'): string => {
  if (kind === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  if (kind === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  return '{"a":['.repeat(depth / 2) + 'null' + ']}'.repeat(depth / 2);
};
const deep = (depth = 5000, kind: 'array' | 'object' | 'mixed' = 'mixed') => new Raw(deepText(depth, kind));

/** An object with own `__proto__`, `constructor` and `prototype` keys, as JSON.parse makes them. */
function prototypeKeys(into: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { ...into };
  for (const [key, value] of [
    ['__proto__', { polluted: 'yes', isAdmin: true }],
    ['constructor', { prototype: { polluted: 'yes' } }],
    ['prototype', { polluted: 'yes' }],
  ] as const) {
    Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  }
  return out;
}

type Path = (string | number)[];

/** Every path into a JSON value (the root included), objects and arrays before their members. */
function pathsOf(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(value)) value.forEach((item, index) => out.push(...pathsOf(item, [...at, index])));
  else if (value !== null && typeof value === 'object')
    for (const key of Object.keys(value)) out.push(...pathsOf((value as Record<string, unknown>)[key], [...at, key]));
  return out;
}

const valueAt = (value: unknown, path: Path): unknown => path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], value);

/** A copy of `value` with the member at `path` replaced (`undefined` removes it). */
function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && replacement === undefined) copy.splice(head as number, 1);
    else copy[head as number] = replaceAt(copy[head as number], rest, replacement);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value as object)) {
    Object.defineProperty(copy, key, { value: (value as Record<string, unknown>)[key], enumerable: true, configurable: true, writable: true });
  }
  if (rest.length === 0 && replacement === undefined) delete copy[head as string];
  else
    Object.defineProperty(copy, head as string, {
      value: replaceAt(copy[head as string], rest, replacement),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  return copy;
}

/**
 * Where a body schema takes anything (`z.unknown()`, records, catch-alls): the members a client
 * can fill with arbitrary JSON, found by walking the zod definition. Record members get a key
 * `extra`; array members index 0.
 */
function freeFormPaths(schema: unknown): Path[] {
  const out = new Map<string, Path>();
  const walk = (node: unknown, at: Path, depth: number) => {
    const def = (node as { _zod?: { def?: Record<string, any> } })?._zod?.def;
    if (!def || depth > 15) return;
    switch (def.type) {
      case 'unknown':
      case 'any':
        out.set(JSON.stringify(at), at);
        return;
      case 'record':
        out.set(JSON.stringify([...at, 'extra']), [...at, 'extra']);
        return;
      case 'object':
        for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) walk(value, [...at, key], depth + 1);
        if (def.catchall && ['unknown', 'any'].includes(def.catchall._zod?.def?.type)) out.set(JSON.stringify([...at, 'extra']), [...at, 'extra']);
        return;
      case 'array':
        walk(def.element, [...at, 0], depth + 1);
        return;
      case 'union':
        for (const option of def.options as unknown[]) walk(option, at, depth + 1);
        return;
      case 'intersection':
        walk(def.left, at, depth + 1);
        walk(def.right, at, depth + 1);
        return;
      case 'pipe':
        walk(def.in, at, depth + 1);
        return;
      case 'lazy':
        walk(def.getter(), at, depth + 1);
        return;
      default:
        if (def.innerType) walk(def.innerType, at, depth + 1);
    }
  };
  walk(schema, [], 0);
  return [...out.values()];
}

/** A copy of `value` with `replacement` at `path`, creating the objects and arrays on the way. */
function setDeep(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const container = value !== null && typeof value === 'object' && !(value instanceof Raw) ? value : typeof head === 'number' ? [] : {};
  const current = (container as Record<string | number, unknown>)[head!];
  return replaceAt(container, [head!], setDeep(current, rest, replacement));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Raw);

// ---------------------------------------------------------------------------------------------
// Sending and checking

interface Sent {
  request: RawRequest;
  answer: Answer;
  problems: string[];
}

const describeRequest = (request: RawRequest): string => {
  const tokens = new Map([
    [p.a.token, '<token of sandbox-client>'],
    [p.b.token, '<token of other-client>'],
    [p.limitedToken, '<token of limited-client>'],
  ]);
  const headers = Object.fromEntries(
    Object.entries(request.headers ?? {}).map(([key, value]) => [key, [...tokens].reduce((text, [token, name]) => text.split(token).join(name), value)]),
  );
  request = { ...request, headers };
  const body =
    request.body === undefined
      ? ''
      : typeof request.body === 'string'
        ? ` body ${request.body.length > 300 ? `${request.body.slice(0, 300)}... (${request.body.length} chars)` : request.body}`
        : ' body <bytes>';
  return `${request.method} ${request.path.length > 300 ? `${request.path.slice(0, 300)}...` : request.path} headers ${JSON.stringify(request.headers ?? {}).slice(0, 400)}${body}`;
};

/**
 * Sends one request and checks every invariant. State is restored after a 2xx (and after any
 * refused request that changed something, once the change is recorded), prototypes are repaired
 * after pollution, so one failure does not cascade.
 */
async function check(request: RawRequest, sandbox: TestSandbox = p.sandbox, restore = () => p.restore()): Promise<Sent> {
  const version = sandbox.store.version;
  const before = sandbox.store.snapshot();
  thrown.length = 0;
  const test = expect.getState().currentTestName ?? '?';
  sent.set(test.replace(/^.*> /, '').slice(0, 40), (sent.get(test.replace(/^.*> /, '').slice(0, 40)) ?? 0) + 1);
  let answer: Answer;
  try {
    answer = await send(sandbox, request);
  } catch (error) {
    // app.request itself failing means the app threw past its error handler.
    answer = { status: 599, headers: new Headers(), body: undefined, text: `app.request threw: ${(error as Error).stack}` };
  }
  const problems: string[] = [];
  const method = request.method.toUpperCase();
  if (method === 'HEAD') {
    if (answer.status >= 500) problems.push(`server error ${answer.status}`);
  } else {
    problems.push(...answerProblems(method, answer));
  }
  if (answer.status >= 500 && thrown.length > 0) problems[0] = `server error ${answer.status}, thrown: ${whereThrown(thrown[0])}`;
  // The store's version moves with every row written (or written and undone): an unchanged version
  // is an unchanged store, and the two snapshots need no comparing.
  const changed = sandbox.store.version !== version;
  const after = changed ? sandbox.store.snapshot() : before;
  if (changed && answer.status >= 400 && answer.status < 500) {
    const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    const allow = headers['idempotency-key'] !== undefined ? { idempotencyKeys: 'refusals under an Idempotency-Key are replayed by design' } : {};
    problems.push(...storeDiff(before, after, allow).map((diff) => `refused with ${answer.status} but changed the store: ${diff}`));
  }
  const polluted = pollution(protos);
  if (polluted.length > 0) {
    problems.push(...polluted.map((what) => `prototype pollution: ${what}`));
    repairPrototypes(protos);
  }
  // Back to the populated world after anything that changed data (on purpose or not).
  if (changed && storeDiff(before, after).length > 0) await restore();
  return { request, answer, problems };
}

/** A request of a sweep, with what was done to it (where the hostile value went). */
type Labelled = RawRequest & { label?: string };

/**
 * Checks many requests and reports each distinct problem once: grouped by what was done (the
 * label) and the problem, with the endpoints it happened on and one example request.
 */
async function sweep(requests: Iterable<Labelled>): Promise<{ count: number; failures: string[] }> {
  const groups = new Map<string, { problem: string; where: Set<string>; example: string }>();
  let count = 0;
  for (const request of requests) {
    count += 1;
    const result = await check(request);
    const where = `${request.method.toUpperCase()} ${request.path
      .split('?')[0]!
      .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}')
      .slice(0, 100)}`;
    for (const problem of result.problems) {
      const head = problem
        .split(': {')[0]!
        .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')
        .slice(0, 300);
      // A server error is one bug per place it throws (first frame); anything else, per problem and label.
      const site = /thrown: (.*? at [^<]*)/.exec(head)?.[1]?.replace(/:\d+\)\s*$/, ')');
      const kind = head.replace(/\b(GET|POST|PATCH|DELETE|PUT|OPTIONS|HEAD)\b/g, '<method>').replace(/\([^)]*\)/g, '(...)');
      const key = site ? `thrown :: ${site}` : kind;
      const group = groups.get(key) ?? {
        problem: site ? `server error: ${head.replace(/^server error \d+, thrown: /, '')}` : head,
        where: new Set<string>(),
        example: describeRequest(request).slice(0, 400),
      };
      group.where.add(request.label ? `${where} [${request.label}]` : where);
      groups.set(key, group);
    }
  }
  const failures = [...groups.values()].map((group) => {
    const places = [...group.where];
    return `${group.problem}\n    on ${places.length} request kind(s): ${places.slice(0, 6).join('; ')}${places.length > 6 ? '; ...' : ''}\n    e.g. ${group.example}`;
  });
  return { count, failures };
}

/** What each sweep sent, summed over its parts, and the least it must send. */
const sweepTotals = new Map<string, { count: number; least: number; parts: number; done: number }>();

/** The area of an endpoint: its path's first segment, or first three under /returns/v1 and /shipping/v2. */
function areaOf(endpoint: Endpoint): string {
  const segments = endpoint.path.split('/').filter(Boolean);
  return `/${segments.slice(0, /^(returns|shipping)$/.test(segments[0] ?? '') ? 3 : 1).join('/')}`;
}

/**
 * A sweep as one test per area of `endpoints` (`areaOf`): the same requests as one test, in pieces
 * that stay far inside the test timeout on a loaded machine, and a failure names its area.
 */
function sweepTests(name: string, endpoints: readonly Endpoint[], least: number, build: (endpoint: Endpoint) => Iterable<Labelled>): void {
  const areas = new Map<string, Endpoint[]>();
  for (const endpoint of endpoints) areas.set(areaOf(endpoint), [...(areas.get(areaOf(endpoint)) ?? []), endpoint]);
  const total = { count: 0, least, parts: areas.size, done: 0 };
  sweepTotals.set(name, total);
  for (const [area, share] of areas) {
    it(`${name}: ${area}`, async () => {
      function* requests(): Generator<Labelled> {
        for (const endpoint of share) yield* build(endpoint);
      }
      const { count, failures } = await sweep(requests());
      total.count += count;
      total.done += 1;
      expect(failures).toEqual([]);
    });
  }
}

const pointer = (path: Path) => (path.length === 0 ? '/' : '/' + path.join('/'));
const label = <T extends RawRequest>(request: T, text: string): Labelled => ({ ...request, label: text });

// ---------------------------------------------------------------------------------------------
// What organization A sends when it means well

const baseline = (endpoint: Endpoint) => wellMeantRequest(p, endpoint);

function jsonTo(endpoint: Endpoint, path: string, text: string | Uint8Array | undefined, extra: Record<string, string> = {}): RawRequest {
  const headers: Record<string, string> = { ...bearer(p.a.token), ...extra };
  if (text !== undefined) headers['content-type'] ??= endpoint.bodyFormat === 'json-or-form' ? 'application/json' : 'application/vnd.api+json';
  return { method: endpoint.method, path, headers, body: text };
}

/** The request once without and, for POSTs, once more under a fresh Idempotency-Key (a different code path). */
function bothWays(endpoint: Endpoint, path: string, text: string | Uint8Array, what: string): Labelled[] {
  const plain = label(jsonTo(endpoint, path, text), what);
  return endpoint.method === 'post'
    ? [plain, label(jsonTo(endpoint, path, text, { 'idempotency-key': randomUUID() }), `${what}, with Idempotency-Key`)]
    : [plain];
}

// ---------------------------------------------------------------------------------------------
// Generators

const HOSTILE_STRINGS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  '/attributes/constructor',
  '/attributes/__proto__/polluted',
  '/relationships/constructor/data/id',
  '/relationships/__proto__/data',
  '../../../../etc/passwd',
  '..',
  '.',
  '%00',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u0041',
  '🙂🚚📦',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  'true',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '${7*7}',
  '{{7*7}}',
  '*',
  ',',
  ' ',
  '',
  'a'.repeat(10_000),
];

const hostileString = fc.constantFrom(...HOSTILE_STRINGS);
const anyString = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 20 }), hostileString);
/** Any JSON value, hostile strings included: a wrong type for almost every member. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 1e308, Number.MAX_SAFE_INTEGER + 2, [], {}, [null], ''),
  anyString,
  fc.jsonValue({ maxDepth: 3 }),
);

type BodyMutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'delete'; at: number }
  | { kind: 'add'; at: number; key: string; value: unknown }
  | { kind: 'prototype-keys'; at: number }
  | { kind: 'deep'; at: number; depth: number; shape: 'array' | 'object' | 'mixed' }
  | { kind: 'huge'; at: number; size: number }
  | { kind: 'bad-utf8'; at: number };

const mutation: fc.Arbitrary<BodyMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: wrongValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), at: fc.nat(), key: anyString, value: wrongValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('prototype-keys' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      at: fc.nat(),
      depth: fc.constantFrom(100, 1000, 5000),
      shape: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('huge' as const), at: fc.nat(), size: fc.constantFrom(65_536, 1 << 20) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bad-utf8' as const), at: fc.nat() }) },
);

function mutate(body: unknown, mutations: readonly BodyMutation[]): unknown {
  let current = body;
  for (const m of mutations) {
    const paths = pathsOf(current);
    const path = paths[m.at % paths.length]!;
    const target = valueAt(current, path);
    switch (m.kind) {
      case 'replace':
        current = replaceAt(current, path, m.value);
        break;
      case 'delete':
        if (path.length > 0) current = replaceAt(current, path, undefined);
        break;
      case 'add':
        if (isObject(target)) current = replaceAt(current, path, { ...target, [m.key]: m.value });
        else current = replaceAt(current, path, m.value);
        break;
      case 'prototype-keys':
        current = replaceAt(current, path, prototypeKeys(isObject(target) ? target : {}));
        break;
      case 'deep':
        current = replaceAt(current, path, deep(m.depth, m.shape));
        break;
      case 'huge':
        current = replaceAt(current, path, 'x'.repeat(m.size));
        break;
      case 'bad-utf8':
        current = replaceAt(current, path, `${typeof target === 'string' ? target : ''}${BAD_UTF8_MARK}`);
        break;
    }
  }
  return current;
}

const RAW_BODIES = [
  '',
  ' ',
  'null',
  'true',
  '0',
  '"text"',
  '[]',
  '{}',
  '{',
  '{"data":',
  '{"data":{}}garbage',
  '\ufeff{}',
  '{"a":1,"a":2}',
  'a=b&__proto__[polluted]=1&constructor[prototype][polluted]=1',
  '\u0000',
];

const CONTENT_TYPES = [
  'application/vnd.api+json',
  'application/json',
  'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'text/plain',
  'text/html',
  '',
  ';;;',
  'application/',
  '*/*',
];
const ACCEPTS = [
  '*/*',
  'application/json',
  'application/vnd.api+json',
  'application/vnd.api+json; ext=x',
  'text/html',
  'image/png',
  'application/pdf',
  'application/zpl',
  'text/*',
  '',
  ',,,',
  'application/xml;q=0.9, */*;q=0.1',
  'x'.repeat(2000),
];
const QUERY_KEYS = [
  'include',
  'page[number]',
  'page[size]',
  'page',
  'sort',
  'filter',
  'filter[x]',
  'filter[__proto__]',
  'fields[shops]',
  '__proto__',
  '__proto__[polluted]',
  'constructor',
  'constructor[prototype][polluted]',
  'toString',
  'hasOwnProperty',
];
const RAW_ESCAPES = ['%', '%f', '%ff', '%c3%28', '%ed%a0%80', '%e2%82', '%00', '%2e%2e%2f', '%25', '+', '&', '=', '%26%3D', '%E0%A4%A'];
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD'];

/** An HTTP Basic authorization header for `id:secret`. */
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** Header values must be valid in a fetch Request: visible ASCII only here. */
const headerSafe = (value: string): string => value.replace(/[^\x20-\x7e]/g, '?').slice(0, 4000);

function arbitraries() {
  const { a, b, limitedToken } = p;
  const ids = [
    a.shopId,
    b.shopId,
    a.registeredShipmentId,
    b.registeredShipmentId,
    a.conceptShipmentId,
    b.conceptShipmentId,
    a.contractId,
    b.contractId,
    a.organizationHookId,
    b.organizationHookId,
    a.hookLogId,
    b.hookLogId,
    a.collectionId,
    b.collectionId,
    a.fileId,
    b.fileId,
    a.statusId,
    b.statusId,
    a.logoId,
    b.logoId,
    a.trackingCode,
    b.trackingCode,
    a.organizationId,
    b.organizationId,
  ];
  const authorization = fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${a.token}`) },
    { weight: 1, arbitrary: fc.constantFrom(`Bearer ${b.token}`, `Bearer ${limitedToken}`, `bearer ${a.token}`, `Bearer  ${a.token}  `) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Bearer garbage',
        'Bearer a b',
        `Bearer ${a.token}x`,
        `Bearer ${a.token.split('.').slice(0, 2).join('.')}.`,
        'Bearer eyJhbGciOiJub25lIn0.e30.',
        'Bearer e30.e30.e30',
        'Bearer ....',
        `Bearer ${'a'.repeat(8000)}`,
        'Basic c2FuZGJveC1jbGllbnQ6c2FuZGJveC1zZWNyZXQ=',
        'Basic %%%',
        'Token abc',
        '',
        ',',
        `Bearer ${a.token}, Bearer ${b.token}`,
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => headerSafe(s)) },
    // HTTP Basic client credentials (read by POST /access-token), with hostile ids and secrets.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.oneof(anyString, fc.constantFrom('sandbox-client', ...RAW_ESCAPES)), fc.oneof(anyString, fc.constantFrom(...RAW_ESCAPES)))
        .map(([id, secret]) => basic(id, secret)),
    },
  );
  const idLike = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ids) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: anyString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'))) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_ESCAPES, '..', '.', '%2F', 'a/b', 'a?b=c', 'a#b', 'x'.repeat(5000)) },
  );
  const queryValue = fc.oneof(
    fc.constantFrom(...ids).map((id) => id),
    anyString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'))),
    fc.constantFrom(...RAW_ESCAPES),
    fc.constantFrom('1', '0', '-1', '100', '101', '1e3', '99999999999999999999', 'true', 'false', 'a,b,,c', ids.slice(0, 6).join(',')),
  );

  const request = fc
    .record({
      target: fc.oneof({ weight: 19, arbitrary: fc.constantFrom(...all) }, { weight: 1, arbitrary: fc.constant(undefined) }),
      strayPath: fc.array(anyString, { minLength: 1, maxLength: 4 }),
      method: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      params: fc.array(idLike, { minLength: 4, maxLength: 4 }),
      ownParams: fc.boolean(),
      trailing: fc.oneof({ weight: 15, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('/', '//', '/.', '/..', '?', '%20', ';a=b') }),
      query: fc.oneof(
        { weight: 2, arbitrary: fc.constant([] as [string, string, boolean][]) },
        {
          weight: 3,
          arbitrary: fc.array(
            fc.tuple(
              fc.oneof(
                fc.constantFrom(...QUERY_KEYS),
                anyString.map((s) => s.replace(/[\ud800-\udfff]/g, '?')),
              ),
              queryValue,
              fc.boolean(),
            ),
            {
              minLength: 1,
              maxLength: 5,
            },
          ),
        },
      ),
      duplicate: fc.boolean(),
      declaredKey: fc.nat(),
      body: fc.oneof(
        { weight: 4, arbitrary: fc.record({ kind: fc.constant('mutated' as const), mutations: fc.array(mutation, { minLength: 1, maxLength: 1 }) }) },
        { weight: 2, arbitrary: fc.record({ kind: fc.constant('mutated' as const), mutations: fc.array(mutation, { minLength: 2, maxLength: 3 }) }) },
        { weight: 3, arbitrary: fc.record({ kind: fc.constant('valid' as const) }) },
        { weight: 2, arbitrary: fc.record({ kind: fc.constant('random' as const), value: fc.jsonValue({ maxDepth: 4 }) }) },
        {
          weight: 1,
          arbitrary: fc.record({ kind: fc.constant('raw' as const), text: fc.oneof(fc.constantFrom(...RAW_BODIES), fc.string({ maxLength: 50 })) }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('none' as const) }) },
      ),
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map(headerSafe) },
      ),
      accept: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...ACCEPTS) }),
      authorization,
      idempotencyKey: fc.oneof(
        { weight: 5, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.oneof(fc.uuid(), fc.constantFrom('', 'x'.repeat(256), 'key with spaces', '__proto__')) },
      ),
      badUtf8Variant: fc.nat(BAD_UTF8.length - 1),
    })
    .map((g): RawRequest => {
      const endpoint = g.target;
      const method = (g.method ?? endpoint?.method ?? 'GET').toUpperCase();
      let path: string;
      let body: unknown;
      if (endpoint) {
        const names = pathParams(endpoint.path);
        const own = baseline(endpoint);
        const values = Object.fromEntries(
          names.map((name, index) => [name, g.ownParams ? encodeURIComponent(own.params[name]!) : g.params[index % g.params.length]!]),
        );
        path = fillPath(endpoint.path, values, true);
        body = own.body ?? {};
      } else {
        path = '/' + g.strayPath.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'))).join('/');
        body = {};
      }
      const declared = Object.keys(endpoint?.query?.shape ?? {});
      const pairs = g.query.map(([key, value, raw]) => `${raw ? key : encodeURIComponent(key)}=${value}`);
      if (declared.length > 0) pairs.push(`${encodeURIComponent(declared[g.declaredKey % declared.length]!)}=${g.query[0]?.[1] ?? '%ff'}`);
      if (g.duplicate && pairs.length > 0) pairs.push(pairs[0]!, pairs[0]!.replace(/=.*/, '=other'));
      const url = path + g.trailing + (pairs.length > 0 ? `${g.trailing === '?' ? '' : '?'}${pairs.join('&')}` : '');

      let text: string | Uint8Array | undefined;
      switch (g.body.kind) {
        case 'mutated':
          text = encode(serialize(mutate(body, g.body.mutations)), g.badUtf8Variant);
          break;
        case 'valid':
          text = serialize(body);
          break;
        case 'random':
          text = serialize(g.body.value);
          break;
        case 'raw':
          text = g.body.text;
          break;
        case 'none':
          text = undefined;
      }
      const headers: Record<string, string> = {};
      if (g.authorization !== undefined) headers.authorization = g.authorization;
      if (text !== undefined) headers['content-type'] = g.contentType ?? 'application/vnd.api+json';
      else if (g.contentType !== undefined) headers['content-type'] = g.contentType;
      if (g.accept !== undefined) headers.accept = g.accept;
      if (g.idempotencyKey !== undefined) headers['idempotency-key'] = headerSafe(g.idempotencyKey);
      return { method, path: url, headers, body: canHaveBody(method) ? text : undefined };
    });
  return { request };
}

// ---------------------------------------------------------------------------------------------

describe('fuzz: every endpoint under hostile input', () => {
  it('covers every declared endpoint', () => {
    expect(all.length).toBeGreaterThan(50);
    expect(withBody.length).toBeGreaterThan(10);
  });

  it(`random requests (${RUNS} runs): no 5xx, JSON:API errors, no change on refusal, no pollution`, async () => {
    const { request } = arbitraries();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const { answer, problems } = await check(req);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (problems.length > 0) throw new Error(`${problems.join('\n')}\nrequest: ${describeRequest(req)}`);
      }),
      RANDOM_RUNS,
    );
    console.log(`fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([x], [y]) => x - y)))}`);
    // The generator must reach the handlers, not only the validation in front of them.
    expect([...statuses.keys()].some((status) => status >= 200 && status < 300)).toBe(true);
  });

  sweepTests('5,000-deep nesting in place of every member of every body, and under every object', withBody, 200, (endpoint) => {
    const { path, body } = baseline(endpoint);
    const requests: Labelled[] = [];
    for (const shape of ['array', 'object'] as const) requests.push(...bothWays(endpoint, path, deepText(5000, shape), `deep ${shape} as the body`));
    for (const at of pathsOf(body).slice(1)) {
      requests.push(...bothWays(endpoint, path, serialize(replaceAt(body, at, deep(5000))), `deep at ${pointer(at)}`));
      const target = valueAt(body, at);
      if (isObject(target))
        requests.push(...bothWays(endpoint, path, serialize(replaceAt(body, at, { ...target, extra: deep(5000) })), `deep at ${pointer([...at, 'extra'])}`));
    }
    for (const at of freeFormPaths(endpoint.body))
      requests.push(...bothWays(endpoint, path, serialize(setDeep(body, at, deep(5000))), `deep at free-form ${pointer(at)}`));
    return requests;
  });

  sweepTests('__proto__, constructor and prototype keys at every level of every body', withBody, 100, (endpoint) => {
    const { path, body } = baseline(endpoint);
    const requests: Labelled[] = [];
    for (const at of pathsOf(body)) {
      const target = valueAt(body, at);
      requests.push(
        ...bothWays(endpoint, path, serialize(replaceAt(body, at, prototypeKeys(isObject(target) ? target : {}))), `prototype keys at ${pointer(at)}`),
      );
    }
    for (const at of freeFormPaths(endpoint.body))
      requests.push(...bothWays(endpoint, path, serialize(setDeep(body, at, prototypeKeys())), `prototype keys at free-form ${pointer(at)}`));
    // And as a form body where forms are read.
    if (endpoint.bodyFormat === 'json-or-form') {
      requests.push(
        label(
          {
            ...jsonTo(endpoint, path, 'grant_type=client_credentials&__proto__[polluted]=1&constructor[prototype][polluted]=1&__proto__=x'),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          },
          'form with prototype keys',
        ),
      );
    }
    return requests;
  });

  // The body is written with a short mark where the 1 MB string goes, and its bytes are copied around
  // the string's: writing (and encoding) 1 MB of JSON text again for every request took 3/4 of the sweep.
  const HUGE_MARK = JSON.stringify('ZQXHUGEZQX');
  const hugeJson = Buffer.from(JSON.stringify('x'.repeat(1 << 20)));
  const withHuge = (text: string): Uint8Array => {
    const [before, after] = text.split(HUGE_MARK) as [string, string];
    return new Uint8Array(Buffer.concat([Buffer.from(before), hugeJson, Buffer.from(after)]));
  };
  // Made one at a time: hundreds of 1 MB bodies held at once cost more in GC than the requests.
  sweepTests('1 MB strings in every string member of every body', withBody, 50, function* (endpoint) {
    const { path, body } = baseline(endpoint);
    const mark = JSON.parse(HUGE_MARK) as string;
    for (const at of pathsOf(body))
      if (typeof valueAt(body, at) === 'string') yield label(jsonTo(endpoint, path, withHuge(serialize(replaceAt(body, at, mark)))), `1 MB at ${pointer(at)}`);
    for (const at of freeFormPaths(endpoint.body))
      yield label(jsonTo(endpoint, path, withHuge(serialize(setDeep(body, at, mark)))), `1 MB at free-form ${pointer(at)}`);
  });

  sweepTests('invalid UTF-8 in every string of every body, in path parameters and in query strings', all, 300, (endpoint) => {
    const requests: Labelled[] = [];
    const { path, body, params } = baseline(endpoint);
    if (endpoint.body) {
      let variant = 0;
      for (const at of pathsOf(body)) {
        if (typeof valueAt(body, at) === 'string')
          requests.push(
            label(
              jsonTo(endpoint, path, encode(serialize(replaceAt(body, at, `${valueAt(body, at) as string}${BAD_UTF8_MARK}`)), variant++)),
              `bad UTF-8 at ${pointer(at)}`,
            ),
          );
      }
      requests.push(label(jsonTo(endpoint, path, encode(`{"${BAD_UTF8_MARK}":1}`)), 'bad UTF-8 in a key'));
    }
    const bodyText = endpoint.body ? serialize(body) : undefined;
    for (const escape of ['%ff', '%c3%28', '%ed%a0%80', '%c0%af', '%e2%82', '%', '%zz']) {
      for (const name of pathParams(endpoint.path)) {
        const raw = { ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, encodeURIComponent(v)])), [name]: `x${escape}` };
        requests.push(label(jsonTo(endpoint, fillPath(endpoint.path, raw, true), bodyText), `{${name}} = x${escape}`));
      }
      const keys = [...Object.keys(endpoint.query?.shape ?? {}), 'include', 'page[number]', 'page[size]', 'filter[x]'];
      requests.push(
        label(
          jsonTo(endpoint, `${path}?${keys.map((key) => `${encodeURIComponent(key)}=a${escape}`).join('&')}&${escape}=1`, bodyText),
          `query values a${escape}`,
        ),
      );
    }
    return requests;
  });

  sweepTests('duplicate query keys, odd paths and other methods on every endpoint', all, 500, (endpoint) => {
    const requests: Labelled[] = [];
    const { path, body } = baseline(endpoint);
    const bodyText = endpoint.body ? serialize(body) : undefined;
    const keys = [...Object.keys(endpoint.query?.shape ?? {}), 'include', 'page[number]', 'page[size]'];
    requests.push(
      label(
        jsonTo(endpoint, `${path}?${keys.flatMap((key) => [`${encodeURIComponent(key)}=1`, `${encodeURIComponent(key)}=2`]).join('&')}`, bodyText),
        'duplicate query keys',
      ),
    );
    for (const suffix of ['/', '//', '/.', '/..', '/%2e%2e', '/%2F', '%20', ';x=1', '/x'])
      requests.push(label(jsonTo(endpoint, path + suffix, bodyText), `path + '${suffix}'`));
    for (const method of METHODS.filter((m) => m !== endpoint.method.toUpperCase())) {
      requests.push(label({ ...jsonTo(endpoint, path, canHaveBody(method) ? (bodyText ?? '{}') : undefined), method }, `as ${method}`));
    }
    return requests;
  });

  sweepTests('odd Content-Type, Accept and Authorization headers on every endpoint', all, 500, (endpoint) => {
    const odd = [
      'Bearer',
      'Bearer a b',
      'Bearer garbage',
      `Bearer ${p.a.token}x`,
      'Basic %%%',
      basic('%', 'x'),
      basic('sandbox-client', '%E0%A4%A'),
      basic('__proto__', 'constructor'),
      basic('', ''),
      `Bearer ${'a'.repeat(8000)}`,
      'Token x',
      '',
    ];
    const requests: Labelled[] = [];
    const { path, body } = baseline(endpoint);
    const bodyText = endpoint.body ? serialize(body) : undefined;
    for (const type of CONTENT_TYPES)
      if (bodyText !== undefined) requests.push(label(jsonTo(endpoint, path, bodyText, { 'content-type': type }), `Content-Type: ${type}`));
    for (const accept of ACCEPTS) requests.push(label(jsonTo(endpoint, path, bodyText, { accept }), `Accept: ${accept.slice(0, 40)}`));
    for (const authorization of odd) {
      requests.push(
        label(
          { ...jsonTo(endpoint, path, bodyText), headers: { ...(bodyText ? { 'content-type': 'application/json' } : {}), authorization } },
          `Authorization: ${authorization.slice(0, 20)}`,
        ),
      );
    }
    return requests;
  });

  it('sends each sweep at least the requests it is meant to', () => {
    for (const [name, total] of sweepTotals) if (total.done === total.parts) expect(total.count, name).toBeGreaterThan(total.least);
  });

  it("bodies over an endpoint's limit answer 413: before anything else on their Content-Length, as they are read without one", async () => {
    const small = await testSandbox({ config: { bodyLimit: 4096 } });
    const token = await small.token();
    const none = await tokenWithScopes(small, 'sandbox-client', []);
    const snapshot = small.store.snapshot();
    const restore = () => small.store.replace(snapshot);
    const big = JSON.stringify({ data: { type: 'x', attributes: { padding: 'x'.repeat(5000) } } });
    const length = { 'content-length': String(Buffer.byteLength(big)) };
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1000)));
          controller.close();
        },
      });
    const failures: string[] = [];
    let count = 0;
    for (const endpoint of all) {
      const method = endpoint.method.toUpperCase();
      if (method === 'GET') continue;
      const path = fillPath(endpoint.path, Object.fromEntries(pathParams(endpoint.path).map((name) => [name, randomUUID()])));
      for (const [label, headers, body] of [
        ['with a token', { ...bearer(token), 'content-type': 'application/json', ...length }, big],
        ['without a token', { 'content-type': 'application/json', ...length }, big],
        ['with a token holding no scope', { ...bearer(none), 'content-type': 'text/plain', ...length }, big],
        // Without a Content-Length only an endpoint that reads a body finds out how large it is.
        ...(endpoint.body ? [['streamed, no Content-Length', { ...bearer(token), 'content-type': 'application/json' }, stream()] as const] : []),
      ] as const) {
        count += 1;
        const { answer, problems } = await check({ method, path, headers: { ...headers }, body }, small, restore);
        failures.push(...problems.map((problem) => `${method} ${endpoint.path} ${label}: ${problem}`));
        if (answer.status !== 413) failures.push(`${method} ${endpoint.path} ${label}: expected 413, got ${answer.status} ${answer.text.slice(0, 160)}`);
        else if (!/^The request body is larger than [\d.]+ (KiB|MiB|bytes), the most [A-Z]+ \S+ takes\.$/.test(answer.body.errors[0].detail))
          failures.push(`${method} ${endpoint.path} ${label}: the 413 does not name the limit: ${answer.body.errors[0].detail}`);
      }
    }
    // A body within the limit is not refused for its size.
    const fits = await send(small, {
      method: 'POST',
      path: '/access-token',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
    });
    expect(fits.status).toBe(200);
    expect(count).toBeGreaterThan(60);
    expect(failures).toEqual([]);
  });

  it('prototype member names in hook JSON pointers are refused (422), never a 5xx or a hook', async () => {
    const names = Object.getOwnPropertyNames(Object.prototype);
    const owner = { type: 'organizations', id: p.a.organizationId };
    const outcomes = new Map<string, string[]>();
    let count = 0;
    for (const name of names) {
      for (const [template, value] of [
        ['/attributes/<name>', 'x'],
        ['/attributes/<name>/polluted', 'x'],
        ['/attributes/recipient_address/<name>', 'x'],
        ['/relationships/<name>/data/id', 'x'],
        ['/relationships/<name>/data', { type: 'x', id: 'x' }],
      ] as const) {
        const pointer = template.replace('<name>', name);
        const created = hookBody(owner);
        created.data.attributes.action.values = [{ pointer, value }];
        const changed = {
          data: {
            type: 'hooks',
            id: p.a.organizationHookId,
            attributes: { action: { action_type: 'update-resource', values: [{ pointer, value }] } },
            relationships: { owner: { data: { type: 'organizations', id: p.a.organizationId } } },
          },
        };
        for (const request of [
          { method: 'POST', path: '/hooks', headers: { ...bearer(p.a.token), 'content-type': 'application/vnd.api+json' }, body: JSON.stringify(created) },
          {
            method: 'PATCH',
            path: `/hooks/${p.a.organizationHookId}`,
            headers: { ...bearer(p.a.token), 'content-type': 'application/vnd.api+json' },
            body: JSON.stringify(changed),
          },
        ]) {
          count += 1;
          const { answer, problems } = await check(request);
          if (answer.status === 422 && problems.length === 0) continue;
          const why = problems[0] ?? `expected 422 (no writable shipment attribute or relationship), got ${answer.status}`;
          const key = `${request.method} ${request.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, '{id}')} pointer ${template}: ${why.split(': {')[0]}`;
          outcomes.set(key, [...(outcomes.get(key) ?? []), name]);
        }
      }
    }
    const failures = [...outcomes].map(([key, list]) => `${key}\n    for <name> = ${list.join(', ')}`);
    expect(count).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  });

  it('hooks that point at prototype members (where accepted) run on new shipments without harm', async () => {
    const failures: string[] = [];
    const hooks = (name: string) => {
      const predicates = hookBody({ type: 'organizations', id: p.a.organizationId });
      predicates.data.attributes.trigger.predicates = [
        { pointer: `/attributes/${name}`, operator: '!=', value: null },
        { pointer: `/attributes/recipient_address/${name}`, operator: 'contains', value: 'x' },
      ];
      const updates = hookBody({ type: 'organizations', id: p.a.organizationId });
      updates.data.attributes.action.values = [{ pointer: `/relationships/${name}/data/id`, value: 'x' }];
      return [predicates, updates];
    };
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf']) {
      for (const body of hooks(name)) {
        const hook = await send(p.sandbox, {
          method: 'POST',
          path: '/hooks',
          headers: { ...bearer(p.a.token), 'content-type': 'application/vnd.api+json' },
          body: JSON.stringify(body),
        });
        failures.push(...answerProblems('POST', hook).map((problem) => `hook on ${name}: ${problem}`));
      }
      const { path, body: shipment } = baseline(all.find((e) => e.operationId === 'createShipment')!);
      const { answer, problems } = await check({
        method: 'POST',
        path,
        headers: { ...bearer(p.a.token), 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify(shipment),
      });
      failures.push(...problems.map((problem) => `shipment after hooks on ${name}: ${problem}`));
      if (answer.status !== 201) failures.push(`shipment after hooks on ${name}: expected 201, got ${answer.status} ${answer.text.slice(0, 200)}`);
      await p.restore();
    }
    expect(failures).toEqual([]);
  });

  it('HTTP Basic client credentials with malformed percent-escapes are refused, not a 500', async () => {
    const failures: string[] = [];
    for (const [id, secret] of [
      ['%', 'x'],
      ['sandbox-client', '%'],
      ['%E0%A4%A', 'sandbox-secret'],
      ['sandbox-client', '%ff%fe'],
      ['%zz', '%zz'],
    ]) {
      const request = {
        method: 'POST',
        path: '/access-token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(id!, secret!) },
        body: 'grant_type=client_credentials',
      };
      const { answer, problems } = await check(request);
      failures.push(...problems.map((problem) => `Basic ${id}:${secret}: ${problem}`));
      if (problems.length === 0 && (answer.status !== 401 || answer.body?.errors?.[0]?.code !== '14000'))
        failures.push(`Basic ${id}:${secret}: expected 401/14000 (client authentication failed), got ${answer.status} ${answer.text.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });

  describe('a clock move the control API accepts leaves a working sandbox (tokens verify, nothing 5xx)', () => {
    // A world of its own, populated once and restored before each move: the far future a move
    // reaches stays out of the world the other tests share.
    let world: Populated;
    beforeAll(async () => {
      world = await populate(await testSandbox({ logger }));
    });

    const moves = [{ advance: Number.MAX_SAFE_INTEGER }, { now: Number.MAX_SAFE_INTEGER }, { now: 8.64e12 + 1 }, { advance: 1e11 }, { now: 253402300799 }];
    it.each(moves)('POST /_sandbox/clock %j', async (move) => {
      const failures: string[] = [];
      await world.restore();
      const moved = await send(world.sandbox, {
        method: 'POST',
        path: '/_sandbox/clock',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(move),
      });
      const what = `after POST /_sandbox/clock ${JSON.stringify(move)} (${moved.status})`;
      failures.push(...answerProblems('POST', moved).map((problem) => `${what}: ${problem}`));
      if (moved.status >= 400) {
        // Refused: fine, as long as the refusal is a proper one.
        expect(failures).toEqual([]);
        return;
      }
      const issued = await send(world.sandbox, {
        method: 'POST',
        path: '/access-token',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
      });
      const token = issued.body?.access_token as string | undefined;
      const used = token ? await send(world.sandbox, { method: 'GET', path: '/shipments', headers: bearer(token) }) : undefined;
      if (!used || used.status !== 200)
        failures.push(`${what}: a token issued now does not work: ${issued.status} then ${used?.status} ${used?.text.slice(0, 160)}`);
      const snapshot = world.sandbox.store.snapshot();
      const offset = world.sandbox.clock.offsetMs();
      const journal = world.sandbox.journal!;
      let mark = journal.mark();
      let version = world.sandbox.store.version;
      for (const endpoint of all) {
        // Back to the moved world when the last request wrote something (the store's version moved):
        // by taking back the rows it changed, or, when that cannot be exact, by reloading them all.
        if (world.sandbox.store.version !== version) {
          if (!journal.takeBack(world.sandbox.store, mark)) {
            await world.sandbox.store.replace(snapshot);
            mark = journal.mark();
          }
          version = world.sandbox.store.version;
        }
        world.sandbox.clock.setOffsetMs(offset);
        const prefer: Record<string, string> = {
          ...(endpoint.method === 'get' ? {} : { shipment_id: world.a.conceptShipmentId }),
          ...preferredReturnParams(endpoint, world.a.returns),
        };
        const params = ownParams(world.sandbox.store, endpoint, world.a.organizationId, prefer)!;
        const body = endpoint.body ? (validBody(world.sandbox.store, endpoint, world.a, params) ?? {}) : undefined;
        thrown.length = 0;
        const answer = await send(world.sandbox, {
          ...jsonTo(endpoint, fillPath(endpoint.path, params), body === undefined ? undefined : JSON.stringify(body)),
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? bearer(token) : {}) },
        });
        if (answer.status >= 500)
          failures.push(
            `${what}: ${endpoint.method.toUpperCase()} ${endpoint.path} answers ${answer.status}${thrown[0] ? `, thrown: ${whereThrown(thrown[0])}` : ''}`,
          );
      }
      expect(failures).toEqual([]);
    });
  });

  it('the request log keeps a request whose body nests deeply (the API refuses it, the log still shows it)', async () => {
    const marker = randomUUID();
    const refused = await send(p.sandbox, {
      method: 'POST',
      path: `/shops?deep=${marker}`,
      headers: { ...bearer(p.a.token), 'content-type': 'application/json' },
      body: `{"data":${deepText(4000, 'array')}}`,
    });
    expect(refused.status).toBe(400);
    const log = await send(p.sandbox, { method: 'GET', path: `/_sandbox/requests?path=${encodeURIComponent(`/shops?deep=${marker}`)}` });
    expect(log.status).toBe(200);
    expect(
      log.body.data.map((entry: Json) => entry.status),
      'the request is missing from GET /_sandbox/requests',
    ).toEqual([400]);
  });

  it('the request log keeps a __proto__ member of a body as a member (secrets in it redacted)', async () => {
    const marker = randomUUID();
    const body = '{"data":{"__proto__":{"note":"kept","client_secret":"s3cret"},"type":"shops"}}';
    await send(p.sandbox, { method: 'POST', path: `/shops?proto=${marker}`, headers: { ...bearer(p.a.token), 'content-type': 'application/json' }, body });
    const log = await send(p.sandbox, { method: 'GET', path: `/_sandbox/requests?path=${encodeURIComponent(`/shops?proto=${marker}`)}` });
    const entry = log.body.data[0];
    expect(entry).toBeDefined();
    const logged = JSON.parse(log.text).data[0].request.body;
    expect(Object.hasOwn(logged.data, '__proto__'), `logged body: ${JSON.stringify(entry.request.body)}`).toBe(true);
    expect(logged.data.__proto__).toEqual({ note: 'kept', client_secret: '[REDACTED]' });
    expect(log.text).not.toContain('s3cret');
  });

  it('error answers carry no internals, whatever the cause (sanity of the checker)', () => {
    const fake = (text: string): Answer => ({
      status: 400,
      headers: new Headers({ 'content-type': 'application/vnd.api+json' }),
      body: JSON.parse(text),
      text,
    });
    const good =
      '{"errors":[{"status":"400","code":"10003","title":"Invalid JSON Schema","detail":"The request body is not valid JSON: Unexpected end of JSON input."}]}';
    expect(errorDocumentProblem(fake(good))).toBeUndefined();
    expect(
      errorDocumentProblem(
        fake('{"errors":[{"status":"400","code":"10003","title":"x","detail":"TypeError: x is not a function\\n    at f (/work/main/src/a.ts:1:2)"}]}'),
      ),
    ).toBeDefined();
    expect(errorDocumentProblem(fake('{"errors":[{"status":400,"code":"10003","title":"x","detail":"y"}]}'))).toBeDefined();
    expect(errorDocumentProblem(fake('{"message":"Bad Request"}'))).toBeDefined();
  });
});
