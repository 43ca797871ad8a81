/**
 * Bodies are checked for size and nesting while they are read, before anything parses them
 * (issue 14, finding 5): a deep `[[[...` body is refused after its first bytes, and the token
 * endpoint, which anyone may call, takes no more than a token request needs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOKEN_REQUEST_MAX_BYTES } from '../src/auth/token-endpoints.js';
import { MAX_DEPTH } from '../src/http/json-depth.js';
import { JsonDepthScanner, nestsDeeperThan } from '../src/http/json-depth.js';
import { BASE, testSandbox, type Json } from './support/app.js';

/** A body that streams `total` bytes of `[` in chunks, counting how many bytes were pulled. */
function deepStream(total: number, chunk = 16 * 1024) {
  const counter = { pulled: 0 };
  const piece = new TextEncoder().encode('['.repeat(chunk));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      counter.pulled += piece.length;
      controller.enqueue(piece);
    },
  });
  return { stream, counter };
}

const errorsOf = async (response: Response): Promise<Json> => ((await response.json()) as Json).errors;

describe('bodies that nest too deep', () => {
  it('a 5 MB [[[... body to /access-token (no token needed) is refused without reading it all', async () => {
    const sandbox = await testSandbox();
    const body = '['.repeat(5 * 1024 * 1024);
    const answer = await sandbox.app.request(`${BASE}/access-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(answer.status).toBe(413);
    expect((await errorsOf(answer))[0]).toMatchObject({ code: '10003', source: { header: 'Content-Length' } });
  });

  it('a 5 MB [[[... body sent without a Content-Length is refused after its first chunk', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    for (const path of ['/shipments', '/access-token']) {
      const { stream, counter } = deepStream(5 * 1024 * 1024);
      const headers: Record<string, string> = { 'content-type': 'application/vnd.api+json' };
      if (path !== '/access-token') headers.authorization = `Bearer ${token}`;
      const answer = await sandbox.app.request(`${BASE}${path}`, { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit);
      const [error] = await errorsOf(answer);
      if (path === '/access-token') {
        // Its first 16 KiB chunk already passes the token endpoint's limit.
        expect(answer.status).toBe(413);
        expect(error).toMatchObject({ code: '10003', source: { header: 'Content-Length' } });
      } else {
        expect(answer.status).toBe(400);
        expect(error).toMatchObject({ code: '10003', detail: `The request body nests deeper than ${MAX_DEPTH} levels.`, source: { pointer: '' } });
      }
      // The stream may have a chunk or two in flight, never the 5 MB.
      expect(counter.pulled, path).toBeLessThanOrEqual(64 * 1024);
    }
    // The request log notes the refusal instead of keeping the brackets.
    const [deep] = (await sandbox.get('/_sandbox/requests?path=/shipments&limit=1')).body.data;
    expect(deep.request.note).toMatch(/refused after \d+ bytes: nests deeper than 64 levels/);
    expect(deep.request).not.toHaveProperty('body');
    const [large] = (await sandbox.get('/_sandbox/requests?path=/access-token&limit=1')).body.data;
    expect(large.request.note).toMatch(/refused after \d+ bytes: larger than 8192 bytes/);
  });

  it('answers a 401 without reading a body it does not need (the server throws away a bounded amount of it)', async () => {
    const sandbox = await testSandbox();
    const { stream, counter } = deepStream(5 * 1024 * 1024);
    const answer = await sandbox.app.request(`${BASE}/shipments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(answer.status).toBe(401);
    expect(counter.pulled).toBeLessThanOrEqual(64 * 1024);
    const deep = await sandbox.app.request(`${BASE}/shipments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '['.repeat(100_000) });
    expect(deep.status).toBe(401);
  });

  it('a body of a known length over 64 KiB that nests too deep is refused as it is read', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const body = `{"data":${'['.repeat(200 * 1024)}`;
    const answer = await sandbox.request('POST', '/shipments', { token, body, headers: { 'content-length': String(body.length) } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].detail).toContain(`deeper than ${MAX_DEPTH} levels`);
  });

  it(`${MAX_DEPTH} levels are read and validated; ${MAX_DEPTH + 1} are refused before parsing`, async () => {
    const sandbox = await testSandbox();
    const nest = (levels: number) => `${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}`;
    const fits = await sandbox.request('POST', '/_sandbox/clock', { body: `{"advance":${nest(MAX_DEPTH)}}`, headers: { 'content-type': 'application/json' } });
    expect(fits.status).toBe(400);
    expect(fits.body.errors[0].source).toEqual({ pointer: '/advance' });
    const deep = await sandbox.request('POST', '/_sandbox/clock', {
      body: `{"advance":${nest(MAX_DEPTH + 1)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0]).toMatchObject({ detail: `The request body nests deeper than ${MAX_DEPTH} levels.`, source: { pointer: '' } });
  });
});

describe('the token endpoint takes small bodies only', () => {
  it(`answers 413 past ${TOKEN_REQUEST_MAX_BYTES} bytes, as JSON or as a form, and works below`, async () => {
    const sandbox = await testSandbox();
    const big = {
      grant_type: 'client_credentials',
      client_id: 'sandbox-client',
      client_secret: 'sandbox-secret',
      padding: 'x'.repeat(TOKEN_REQUEST_MAX_BYTES),
    };
    const json = await sandbox.request('POST', '/access-token', { body: big, headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(413);
    expect(json.body.errors[0]).toMatchObject({ code: '10003', source: { header: 'Content-Length' } });
    const form = await sandbox.request('POST', '/access-token', {
      body: `grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret&padding=${'x'.repeat(TOKEN_REQUEST_MAX_BYTES)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(413);
    const { padding: _padding, ...small } = big;
    expect((await sandbox.request('POST', '/access-token', { body: small, headers: { 'content-type': 'application/json' } })).status).toBe(200);
  });
});

describe('the depth scanner', () => {
  const depthOf = (value: unknown): number => (value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0);

  it('ignores brackets and escaped quotes inside strings, also when a piece ends inside an escape', () => {
    const text = '{"a":"[[[[\\"]]]{{{\\\\","b":[["x\\\\\\"["]]}';
    expect(depthOf(JSON.parse(text))).toBe(3);
    for (let cut = 0; cut <= text.length; cut++) {
      const scanner = new JsonDepthScanner(3);
      expect(scanner.feed(text.slice(0, cut)) && scanner.feed(text.slice(cut)), `cut at ${cut}`).toBe(true);
      expect(scanner.deepest).toBe(3);
      expect(new JsonDepthScanner(2).feed(text)).toBe(false);
    }
  });

  it('agrees with the parsed depth of any JSON value, however the text is cut into pieces', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.array(fc.nat(), { maxLength: 6 }), fc.nat({ max: 10 }), (value, cuts, limit) => {
        const text = JSON.stringify(value);
        const depth = depthOf(value);
        const scanner = new JsonDepthScanner(limit);
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        let ok = true;
        let from = 0;
        for (const point of [...points, text.length]) {
          ok = scanner.feed(text.slice(from, point)) && ok;
          from = point;
          if (!ok) break;
        }
        expect(ok).toBe(depth <= limit);
        expect(nestsDeeperThan(text, limit)).toBe(depth > limit);
      }),
      { numRuns: 500 },
    );
  });
});
