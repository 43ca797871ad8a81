/**
 * What an integrator reads in an error, over every endpoint: every member of every endpoint's
 * valid body is in turn left out, sent as a value of each other JSON type, empty, too long, or
 * given an unknown member beside it, and every declared query parameter is sent with a wrong
 * value. Each error of each answer must
 *
 * - speak the API's words, never the validation library's or JavaScript's ("Invalid input:
 *   expected string, received object", "Too big: expected string to have <=255 characters",
 *   `undefined`, `NaN`, `[object Object]`): test/validation-messages.test.ts pins the words of the
 *   request layer's schema errors, this checks that no other check (a domain rule, a hook value)
 *   falls back on the library's;
 * - point at a place the request has: the members above a `source.pointer` are objects or arrays
 *   of the body as sent (the member named may be one left out, never one under a `null`).
 *
 * One test per area of the API, so that a failure names its area and each stays short.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../src/http/endpoint.js';
import type { Json } from './support/app.js';
import { testSandbox } from './support/app.js';
import { bearer, endpoints, populate, send, type Populated, type RawRequest } from './support/matrix.js';
import { wellMeantRequest } from './support/well-meant.js';

let p: Populated;
beforeAll(async () => {
  p = await populate(await testSandbox());
});

type Path = (string | number)[];

function pathsOf(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (Array.isArray(value)) value.forEach((item, index) => out.push(...pathsOf(item, [...at, index])));
  else if (value !== null && typeof value === 'object') for (const key of Object.keys(value)) out.push(...pathsOf((value as Json)[key], [...at, key]));
  return out;
}

const valueAt = (value: unknown, path: Path): unknown => path.reduce<unknown>((node, key) => (node as Json)?.[key], value);

/** A copy of `value` with the member at `path` replaced (`undefined` removes it). */
function replaceAt(value: Json, path: Path, replacement: unknown): Json {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...Path];
  const copy: Json = Array.isArray(value) ? [...value] : { ...value };
  if (rest.length > 0 || replacement !== undefined) copy[head] = replaceAt(copy[head], rest, replacement);
  else if (Array.isArray(copy)) copy.splice(head as number, 1);
  else delete copy[head];
  return copy;
}

/** The wrong values a member is sent as: left out, each JSON type it is not, empty and too long. */
function wrongValues(value: unknown): [string, unknown][] {
  const out: [string, unknown][] = [
    ['left out', undefined],
    ['null', null],
    ['an object', { unknown: 1 }],
    ['an array', [1]],
  ];
  if (typeof value !== 'string') out.push(['a string', 'text']);
  if (typeof value !== 'number') out.push(['a number', 42]);
  if (typeof value === 'string') out.push(['empty', ''], ['300 characters', 'x'.repeat(300)]);
  if (typeof value === 'number') out.push(['negative', -1], ['a fraction', 1.5], ['huge', 1e20]);
  return out;
}

/** Library or JavaScript wording that reached an error text. */
const INTERNAL_WORDING =
  /Invalid input|\bexpected [\w ]+, received\b|\bexpected \w+ to (?:have|be)\b|\bToo (?:big|small): |\bundefined\b|\bNaN\b|\[object \w+\]|\bInvalid (?:string|option|element|key|union|discriminator)/;

/** Why the pointer names no place of `body`: a member above it is missing or not an object or array. */
function pointerProblem(pointer: string, body: unknown): string | undefined {
  if (pointer === '') return undefined;
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = body;
  for (const token of tokens.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return `nothing at '${token}' of ${pointer}`;
    node = (node as Json)[token];
  }
  return node !== null && typeof node === 'object' ? undefined : `the member above ${pointer} is ${JSON.stringify(node)}, not an object`;
}

const baseline = (endpoint: Endpoint) => wellMeantRequest(p, endpoint);

interface Case {
  label: string;
  request: RawRequest;
  body?: unknown;
}

function* cases(endpoint: Endpoint): Generator<Case> {
  const { path, body } = baseline(endpoint);
  const headers = { ...bearer(p.a.token), 'content-type': endpoint.bodyFormat === 'json-or-form' ? 'application/json' : 'application/vnd.api+json' };
  const text = body === undefined ? undefined : JSON.stringify(body);
  for (const key of Object.keys(endpoint.query?.shape ?? {})) {
    for (const value of ['abc', '-1', '', '1e20', 'not-a-uuid']) {
      yield { label: `${key}=${value}`, request: { method: endpoint.method, path: `${path}?${encodeURIComponent(key)}=${value}`, headers, body: text }, body };
    }
  }
  if (body === undefined || body === null || typeof body !== 'object') return;
  for (const at of pathsOf(body)) {
    const value = valueAt(body, at);
    const wrong = at.length === 0 ? [] : wrongValues(value);
    const variants: [string, Json][] = wrong.map(([what, replacement]) => [`${what} at /${at.join('/')}`, replaceAt(body, at, replacement)]);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      variants.push([`an unknown member in /${at.join('/')}`, replaceAt(body, at, { ...value, zz_unknown: 1 })]);
    for (const [label, sent] of variants) yield { label, request: { method: endpoint.method, path, headers, body: JSON.stringify(sent) }, body: sent };
  }
}

const areaOf = (endpoint: Endpoint): string => {
  const segments = endpoint.path.split('/').filter(Boolean);
  return `/${segments.slice(0, /^(returns|shipping)$/.test(segments[0] ?? '') ? 3 : 1).join('/')}`;
};

const areas = new Map<string, Endpoint[]>();
for (const endpoint of endpoints()) if (endpoint.body || endpoint.query) areas.set(areaOf(endpoint), [...(areas.get(areaOf(endpoint)) ?? []), endpoint]);

describe('error wording: what every error over every endpoint says, and where', () => {
  for (const [area, share] of areas) {
    it(`speaks the API's words and points into the request: ${area}`, async () => {
      const problems = new Map<string, string>();
      let sent = 0;
      for (const endpoint of share) {
        for (const { label, request, body } of cases(endpoint)) {
          sent += 1;
          const version = p.sandbox.store.version;
          const answer = await send(p.sandbox, request);
          if (p.sandbox.store.version !== version) await p.restore();
          if (answer.status < 400) continue;
          for (const error of answer.body?.errors ?? []) {
            const where = `${endpoint.method.toUpperCase()} ${endpoint.path} [${label}]`;
            const text = JSON.stringify({ title: error.title, detail: error.detail, meta: error.meta });
            const wording = INTERNAL_WORDING.exec(text);
            if (wording) problems.set(`wording '${wording[0]}' in ${error.detail}`, where);
            const pointer = error.source?.pointer;
            if (typeof pointer === 'string') {
              const problem = body === undefined ? `a pointer (${pointer}) in an answer to a request without a body` : pointerProblem(pointer, body);
              if (problem) problems.set(`${problem}: ${error.detail}`, where);
            }
          }
        }
      }
      expect(sent).toBeGreaterThan(0);
      expect([...problems].map(([problem, where]) => `${problem}\n    e.g. ${where}`)).toEqual([]);
    });
  }
});
