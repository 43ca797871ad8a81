/**
 * GET /openapi.json needs no token and, without PUBLIC_URL, names the server by the request's
 * Host, which any caller makes up. A new Host must not cost a new build of the document (about a
 * third of a second of CPU each) nor, past a few a day, a compression. Builds are counted (the
 * document is turned into JSON once per build), never timed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allEndpoints } from '../src/app.js';
import { defaultExampleIds } from '../src/docs/served-document.js';
import { resolveExamples } from '../src/docs/examples/index.js';
import { buildOpenApi } from '../src/openapi/build.js';
import { testSandbox, type TestSandbox } from './support/app.js';

/** GET /openapi.json as a client reaching the sandbox at `origin` sends it. */
async function documentAt(sandbox: TestSandbox, origin: string, acceptEncoding?: string) {
  const response = await sandbox.app.request(`${origin}/openapi.json`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
  const encoding = response.headers.get('content-encoding');
  const bytes = encoding ? undefined : await response.text();
  return { status: response.status, encoding, text: bytes };
}

/** How many OpenAPI documents `JSON.stringify` writes from here on. */
function countDocumentsWritten(): () => number {
  const stringify = JSON.stringify;
  let written = 0;
  vi.spyOn(JSON, 'stringify').mockImplementation(function (this: JSON, ...args: Parameters<typeof JSON.stringify>) {
    if ((args[0] as { openapi?: unknown } | null)?.openapi !== undefined) written += 1;
    return stringify.apply(this, args);
  } as typeof JSON.stringify);
  return () => written;
}

afterEach(() => vi.restoreAllMocks());

describe('GET /openapi.json on hosts a caller makes up', () => {
  it('builds the document once, whatever the Host: forty new hosts cost no new build', async () => {
    const sandbox = await testSandbox();
    const written = countDocumentsWritten();
    for (let i = 0; i < 40; i++) expect((await documentAt(sandbox, `http://made-up-${i}.example`)).status).toBe(200);
    expect(written()).toBe(1);
  });

  it("names each host's own server, as a document built for that host would (quotes and $ in a host included)", async () => {
    const sandbox = await testSandbox();
    for (const origin of ['http://sandbox.test', 'http://a"b$&c.example:8080', "http://d$'e.example"]) {
      const served = await documentAt(sandbox, origin);
      expect(new URL(origin).origin).toBe(origin);
      const built = JSON.stringify(buildOpenApi(allEndpoints(), origin, resolveExamples(defaultExampleIds(sandbox.services))));
      expect(served.text).toBe(built);
      expect(JSON.parse(served.text!).servers).toEqual([{ url: origin }]);
    }
  });

  it('compresses the documents of the first sixteen hosts of a day; later new hosts get it as it is, hosts already served stay compressed', async () => {
    const sandbox = await testSandbox();
    for (let i = 0; i < 16; i++) expect((await documentAt(sandbox, `http://host-${i}.example`, 'br')).encoding).toBe('br');
    const late = await documentAt(sandbox, 'http://host-16.example', 'br, gzip');
    expect(late.encoding).toBeNull();
    expect(JSON.parse(late.text!).servers).toEqual([{ url: 'http://host-16.example' }]);
    expect((await documentAt(sandbox, 'http://host-15.example', 'br')).encoding).toBe('br');
  });
});
