/**
 * The compressed answers of /openapi.json and the API reference's files (RFC 9110): the encoding
 * the client weights highest, and ETags that tell the compressed bytes from the plain ones.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BASE, testSandbox, type TestSandbox } from './support/app.js';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await testSandbox();
});

/** GET /openapi.json with these request headers. */
const documentWith = (headers: Record<string, string>) => sandbox.app.request(`${BASE}/openapi.json`, { headers });

describe('compressed answers', () => {
  it('use the encoding the client weights highest, br at equal weight, none when every one is refused or identity weighs more', async () => {
    for (const [acceptEncoding, expected] of [
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0.2, gzip;q=0.8', 'gzip'],
      ['gzip, br', 'br'],
      ['br;q=0, *', 'gzip'],
      ['*;q=0.5, gzip;q=0.4', 'br'],
      ['gzip;q=0, br;q=0', null],
      ['identity', null],
      ['gzip;q=0.5, identity', null],
      ['gzip, identity;q=0.5', 'gzip'],
    ] as const) {
      const answer = await documentWith({ 'accept-encoding': acceptEncoding });
      expect(answer.status, acceptEncoding).toBe(200);
      expect(answer.headers.get('content-encoding'), acceptEncoding).toBe(expected);
    }
  });

  it('give compressed bytes a weak ETag, not the strong one of the plain bytes, and answer 304 for either tag', async () => {
    const plain = await documentWith({});
    const zipped = await documentWith({ 'accept-encoding': 'gzip' });
    const strong = plain.headers.get('etag')!;
    expect(strong).toMatch(/^"[^"]+"$/);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('etag')).toBe(`W/${strong}`);
    for (const [acceptEncoding, ifNoneMatch, etag] of [
      ['gzip', `W/${strong}`, `W/${strong}`],
      ['br', strong, `W/${strong}`],
      ['identity', `W/${strong}`, strong],
    ] as const) {
      const again = await documentWith({ 'accept-encoding': acceptEncoding, 'if-none-match': ifNoneMatch });
      expect(again.status, `${acceptEncoding} ${ifNoneMatch}`).toBe(304);
      expect(again.headers.get('etag'), `${acceptEncoding} ${ifNoneMatch}`).toBe(etag);
      expect(await again.text()).toBe('');
    }
  });
});
