/**
 * The request log never shows a secret (issue 14, finding 2), whatever the body: secrets under
 * any secret-like member name (also written with JSON escapes), at any depth, in bodies of any
 * size (within and past the 16 KiB the log keeps), sent to endpoints that accept, refuse or
 * cut them short. Generated with fast-check; each run sends one request through the whole app
 * and reads the log back.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_LOG_BODY_LIMIT } from '../src/requestlog/log.js';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';

const SECRET_NAMES = [
  'client_secret',
  'clientSecret',
  'api_key',
  'apiKey',
  'API-KEY',
  'api_secret',
  'dhl_api_secret',
  'password',
  'DHL_Password',
  'passphrase',
  'access_token',
  'refresh_token',
  'token',
  'x-auth-token',
  'secret',
  'webhookSecret',
  'private_key',
  'credentials',
  'authorization',
];

/** Writes a member name with some characters as \uXXXX escapes (or none), as JSON allows. */
function escapedName(name: string, mask: readonly boolean[]): string {
  return [...name]
    .map((char, i) => (mask.length > 0 && mask[i % mask.length] ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : JSON.stringify(char).slice(1, -1)))
    .join('');
}

/** JSON text of a value, with the members named in `escape` written with escapes. */
function stringify(value: unknown, escape: Map<string, readonly boolean[]>): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => stringify(item, escape)).join(',')}]`;
  const members = Object.entries(value as Record<string, unknown>).map(([key, item]) => {
    const mask = escape.get(key);
    return `"${mask ? escapedName(key, mask) : JSON.stringify(key).slice(1, -1)}":${stringify(item, escape)}`;
  });
  return `{${members.join(',')}}`;
}

interface Planted {
  /** Member names leading to the object that gets the secret; numbers step into a list. */
  path: (string | number)[];
  name: string;
  /** The secret as a string, or wrapped in an object or a list (still a secret). */
  shape: 'string' | 'object' | 'list';
  secret: string;
  mask: boolean[];
}

const planted: fc.Arbitrary<Planted> = fc.record({
  path: fc.array(fc.oneof(fc.stringMatching(/^[a-z][a-z_]{0,7}$/), fc.nat({ max: 3 })), { maxLength: 12 }),
  name: fc.constantFrom(...SECRET_NAMES),
  shape: fc.constantFrom('string', 'string', 'string', 'object', 'list'),
  // Long and distinctive, so it cannot turn up in the log by chance.
  secret: fc.stringMatching(/^[A-Za-z0-9]{14,30}$/).map((random) => `Sx${random}`),
  mask: fc.oneof(fc.constant([] as boolean[]), fc.array(fc.boolean(), { minLength: 1, maxLength: 7 })),
});

/** Puts the secret at its path, making objects and lists on the way. */
function plant(body: Record<string, unknown>, item: Planted): void {
  let at: any = body;
  for (const step of item.path) {
    if (typeof step === 'number') {
      if (!Array.isArray(at.list)) at.list = [];
      while (at.list.length <= step) at.list.push({});
      at = at.list[step];
    } else {
      if (at[step] === null || typeof at[step] !== 'object' || Array.isArray(at[step])) at[step] = {};
      at = at[step];
    }
  }
  at[item.name] = item.shape === 'string' ? item.secret : item.shape === 'object' ? { value: item.secret, kind: 'live' } : ['first', item.secret];
}

const target = fc.constantFrom('/_sandbox/clock', '/contracts', '/shipments', '/access-token', '/hooks');

describe('redaction in the request log (property)', () => {
  let sandbox: TestSandbox;
  let token: string;
  const everySecret: string[] = [];
  beforeAll(async () => {
    sandbox = await testSandbox();
    token = await sandbox.token();
  });

  it('never shows a planted secret, at any depth, under any secret name, escaped or not, whatever the size', async () => {
    let run = 0;
    let large = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
        fc.array(planted, { minLength: 1, maxLength: 4 }),
        fc.oneof(fc.constant(0), fc.nat({ max: 2_000 }), fc.integer({ min: REQUEST_LOG_BODY_LIMIT, max: 3 * REQUEST_LOG_BODY_LIMIT })),
        fc.nat({ max: 2 }),
        target,
        async (base, secrets, padding, where, path) => {
          run += 1;
          const body: Record<string, unknown> = { ...base };
          for (const item of secrets) plant(body, item);
          // The padding goes before, between or after the secrets.
          const pad = 'p'.repeat(padding);
          const padded = where === 0 ? { padding: pad, ...body } : where === 1 ? { ...body, padding: pad } : { nested: { padding: pad, more: body } };
          const wrapped = path === '/contracts' || path === '/shipments' || path === '/hooks' ? { data: { type: path.slice(1), attributes: padded } } : padded;
          const escape = new Map(secrets.map((item) => [item.name, item.mask] as const));
          const text = stringify(wrapped, escape);
          if (Buffer.byteLength(text) > REQUEST_LOG_BODY_LIMIT) large += 1;
          const marker = `run-${run}`;
          const answer = await sandbox.request('POST', `${path}?probe=${marker}`, {
            body: text,
            headers: { 'content-type': path === '/access-token' ? 'application/json' : 'application/vnd.api+json' },
            ...(path === '/access-token' || path === '/_sandbox/clock' ? {} : { token }),
          });
          expect(answer.status).toBeLessThan(500);
          const log = await sandbox.get(`/_sandbox/requests?path=${encodeURIComponent(`${path}?probe=${marker}`)}&limit=1`);
          expect(log.body.data).toHaveLength(1);
          for (const { secret } of secrets) {
            everySecret.push(secret);
            expect(log.text, `secret ${secret} shows in the log of ${path} (${text.length} bytes)`).not.toContain(secret);
          }
        },
      ),
      { numRuns: 150 },
    );
    expect(large).toBeGreaterThan(10);
    // And none shows anywhere in what the log holds now.
    const all = (await sandbox.get('/_sandbox/requests?limit=500')).text;
    for (const secret of everySecret) expect(all).not.toContain(secret);
  });

  it('shows what it keeps of a large body: a secret-free structure with its size', async () => {
    const secret = 'SxDhlApiSecret0123456789';
    const body = `{"data":{"type":"contracts","attributes":{"name":"DHL","credentials":{"api_user":"u","api_secret":"${secret}"},"notes":"${'n'.repeat(20_000)}","dhl":{"api_s\\u0065cret":"${secret}"}}}}`;
    const answer = await sandbox.request('POST', '/contracts?probe=large-contract', { token, body });
    expect(answer.status).toBeLessThan(500);
    const [entry] = (await sandbox.get('/_sandbox/requests?path=/contracts%3Fprobe%3Dlarge-contract&limit=1')).body.data as Json[];
    expect(entry.request).toMatchObject({ truncated: true, size: Buffer.byteLength(body) });
    expect(entry.request.body.data.attributes.credentials).toBe('[REDACTED]');
    expect(entry.request.body.data.attributes.dhl).toEqual({ api_secret: '[REDACTED]' });
    expect(JSON.stringify(entry)).not.toContain(secret);
  });

  it('never shows a secret sent in a query, a header, a body member or a form field, wherever the answer carries it', async () => {
    const places = ['query', 'header', 'body', 'form', 'json-as-form'] as const;
    const targets = [
      ['GET', '/carriers?page[size]=1&page[number]=2'],
      ['GET', '/shipments?page[size]=1'],
      ['GET', '/shops/not-a-shop'],
      ['GET', '/no-such-path'],
      ['POST', '/access-token'],
      ['POST', '/shipments'],
      ['POST', '/hooks'],
      ['POST', '/_sandbox/clock'],
    ] as const;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...places),
        fc.constantFrom(...SECRET_NAMES),
        // The core is letters and digits, which no encoding changes, so it cannot hide in the log behind one.
        fc.stringMatching(/^[A-Za-z0-9]{12,24}$/),
        fc.stringMatching(/^[ !"#$%&'()*+,./:;<=>?@[\\\]^_`{|}~-]{0,6}$/),
        fc.constantFrom(...targets),
        async (place, name, core, tail, [method, target]) => {
          run += 1;
          const secret = `Sx${core}${tail}`;
          const mark = `${target}${target.includes('?') ? '&' : '?'}probe=any-${run}`;
          const headers: Record<string, string> = {};
          let path = mark;
          let body: string | undefined;
          if (place === 'query') path = `${mark}&${encodeURIComponent(name)}=${encodeURIComponent(secret)}`;
          if (place === 'header')
            headers[name.toLowerCase() === 'authorization' ? 'authorization' : name] = name.toLowerCase() === 'authorization' ? `Bearer ${secret}` : secret;
          if (place === 'body') body = JSON.stringify({ data: { type: 'shipments', attributes: { [name]: secret } }, [name]: secret });
          if (place === 'form') body = new URLSearchParams({ grant_type: 'client_credentials', [name]: secret }).toString();
          if (place === 'json-as-form') body = JSON.stringify({ grant_type: 'client_credentials', [name]: secret });
          if (body !== undefined) headers['content-type'] = place === 'body' ? 'application/vnd.api+json' : 'application/x-www-form-urlencoded';
          const answer = await sandbox.request(method === 'GET' && body !== undefined ? 'POST' : method, path, {
            headers,
            ...(body !== undefined ? { body } : {}),
            ...(place === 'header' && name.toLowerCase() === 'authorization' ? {} : { token }),
          });
          expect(answer.status).toBeLessThan(500);
          const log = await sandbox.get(`/_sandbox/requests?path=${encodeURIComponent(mark)}&limit=1`);
          expect(log.body.data, `no entry for ${mark}`).toHaveLength(1);
          expect(log.text, `the log of ${method} ${path} shows the secret sent in its ${place} (${name})`).not.toContain(core);
        },
      ),
      { numRuns: 150 },
    );
  });
});
