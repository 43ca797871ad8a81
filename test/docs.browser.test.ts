import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testSandbox } from './support/app.js';
import { CHROMIUM, hasChromium, servePage, sharedChromium, watchRequests } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

if (!hasChromium) {
  console.warn(`test/docs.browser.test.ts is SKIPPED: no Chromium at ${CHROMIUM} (install Debian's package: apt-get install -y chromium).`);
}

describe.skipIf(!hasChromium)('the API reference and CORS, in Chromium', () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    // Request logging on, so the test can see the CORS preflights the browser sends.
    const [started, launched] = await Promise.allSettled([startServer({ DATA_FILE: ':memory:', LOG_LEVEL: 'info' }), sharedChromium()]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  const sandbox = () => server!.url;

  describe('GET /docs', () => {
    // One page for both ways of getting a token: Swagger UI renders ~80 operations, which takes
    // seconds on a busy 2-core machine, so the page is loaded once.
    let docsContext: BrowserContext | undefined;
    let page: Page;
    let requests: Awaited<ReturnType<typeof watchRequests>>;
    const carrierCalls: Request[] = [];
    const problems: string[] = [];

    beforeAll(async () => {
      docsContext = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
      page = await docsContext.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (/content security policy/i.test(message.text())) problems.push(`console: ${message.text()}`);
      });
      requests = await watchRequests(page, new URL(sandbox()).origin);
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/carriers') carrierCalls.push(request);
      });
      const answer = await page.goto(`${sandbox()}/docs`);
      expect(answer?.status()).toBe(200);
      await page.locator('body[data-docs-ready]').waitFor();
      await page.locator('.swagger-ui .info .title', { hasText: 'parcel-sandbox' }).waitFor();
      // Swagger UI renders only the operations in view of a document this size: filter by the tag,
      // as a user looking for carriers would.
      await page.locator('.operation-filter-input').fill('Carriers');
      await page.locator('#operations-Carriers-listCarriers').waitFor();
    });
    afterAll(async () => {
      await docsContext?.close();
    });

    const tokenAnswer = () => page.waitForResponse((response) => new URL(response.url()).pathname === '/access-token');
    const operation = () => page.locator('#operations-Carriers-listCarriers');

    /** Clicks Execute on GET /carriers and returns what the page shows of the newest answer. */
    async function executeListCarriers() {
      const before = carrierCalls.length;
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/carriers');
      await operation().locator('button.execute').click();
      await answered;
      const status = operation().locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor();
      const body = operation().locator('.live-responses-table .response .response-col_description').first();
      expect(carrierCalls).toHaveLength(before + 1);
      return { status: (await status.innerText()).trim(), body: await body.innerText(), request: carrierCalls.at(-1)! };
    }

    it('gets a token through the prefilled Authorize dialog and shows GET /carriers from try-it-out', async () => {
      await page.locator('.auth-wrapper button.authorize').click();
      const oauth = page.locator('.modal-ux .auth-container').filter({ hasText: 'clientCredentials' });
      expect(await oauth.locator('#client_id_clientCredentials').inputValue()).toBe('sandbox-client');
      expect(await oauth.locator('#client_secret_clientCredentials').inputValue()).toBe('sandbox-secret');
      const answer = tokenAnswer();
      await oauth.locator('button.authorize').click();
      expect((await answer).status()).toBe(200);
      const token = ((await (await answer).json()) as { access_token: string }).access_token;
      await oauth.locator('button', { hasText: 'Logout' }).waitFor();
      await oauth.locator('button.btn-done').click();
      await page.locator('.modal-ux').waitFor({ state: 'detached' });

      await operation().locator('.opblock-summary').first().click();
      const shown = await executeListCarriers();
      expect(shown.status).toBe('200');
      expect(shown.body).toContain('PostNL');
      expect(shown.request.headers().authorization).toBe(`Bearer ${token}`);
    });

    it('gets a token with the "Get sandbox token" helper, and says why when the secret is wrong', async () => {
      const form = page.locator('#sandbox-token');
      const status = page.locator('#sandbox-token-status');

      await form.locator('input[name=client_secret]').fill('not-the-secret');
      await form.locator('button[type=submit]').click();
      await page.locator('#sandbox-token-status[data-state=error]').waitFor();
      expect(await status.innerText()).toContain('Client authentication failed');

      await form.locator('input[name=client_secret]').fill('sandbox-secret');
      const answer = tokenAnswer();
      await form.locator('button[type=submit]').click();
      const token = ((await (await answer).json()) as { access_token: string }).access_token;
      await page.locator('#sandbox-token-status[data-state=ok]').waitFor();
      expect(await status.innerText()).toContain('sandbox-client');

      const shown = await executeListCarriers();
      expect(shown.status).toBe('200');
      expect(shown.body).toContain('PostNL');
      expect(shown.request.headers().authorization).toBe(`Bearer ${token}`);
    });

    it('loaded everything from the sandbox and nothing from any other host, without script errors or CSP violations', () => {
      const paths = requests.urls.map((url) => new URL(url).pathname);
      expect(paths).toEqual(
        expect.arrayContaining([
          '/docs',
          '/docs/assets/swagger-ui-bundle.js',
          '/docs/assets/swagger-ui.css',
          '/docs/assets/docs.js',
          '/openapi.json',
          '/access-token',
          '/carriers',
        ]),
      );
      expect(requests.foreign()).toEqual([]);
      expect(problems).toEqual([]);
    });
  });

  it('renders the reference from a link whose # part holds a malformed escape', async () => {
    context = await browser!.newContext();
    const page = await context.newPage();
    // Ready or failed, whichever comes first: a script error must not leave the test waiting.
    const failed = new Promise<string>((resolve) => page.on('pageerror', (error) => resolve(`page error: ${error.message}`)));
    await page.goto(`${sandbox()}/docs#/Shipments/%E0%A4%A`);
    const ready = page
      .locator('body[data-docs-ready]')
      .waitFor()
      .then(() => 'ready');
    expect(await Promise.race([ready, failed])).toBe('ready');
  });

  it("follows /docs/ to /docs and loads the page's assets from there", async () => {
    context = await browser!.newContext();
    const page = await context.newPage();
    const assets: { path: string; status: number }[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (path.includes('/assets/')) assets.push({ path, status: response.status() });
    });
    const answer = await page.goto(`${sandbox()}/docs/`);
    expect(answer?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/docs');
    await page.locator('body[data-docs-ready]').waitFor();
    expect(assets.map((asset) => asset.path)).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(assets.filter((asset) => asset.status !== 200 || !asset.path.startsWith('/docs/assets/'))).toEqual([]);
  });

  it('lets a page of another origin get a token and call the API with an Authorization header (real preflights)', async () => {
    const other = await servePage('<!doctype html><html><head><title>another origin</title></head><body>client</body></html>');
    try {
      context = await browser!.newContext();
      const page = await context.newPage();
      await page.goto(other.url);
      expect(new URL(other.url).origin).not.toBe(new URL(sandbox()).origin);
      const result = await page.evaluate(async (base) => {
        // application/json and Authorization are not CORS-safelisted: each call needs a preflight.
        const tokenAnswer = await fetch(`${base}/access-token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
        });
        const token = (await tokenAnswer.json()) as { access_token: string };
        const carriers = await fetch(`${base}/carriers`, { headers: { Authorization: `Bearer ${token.access_token}`, Accept: 'application/vnd.api+json' } });
        const list = (await carriers.json()) as { data: { attributes: { name: string } }[] };
        // Control: a header the sandbox does not allow must be refused by the browser.
        let refused = 'not refused';
        try {
          await fetch(`${base}/carriers`, { headers: { 'X-Not-Allowed': 'yes' } });
        } catch (error) {
          refused = String(error);
        }
        return { tokenStatus: tokenAnswer.status, carriersStatus: carriers.status, names: list.data.map((carrier) => carrier.attributes.name), refused };
      }, sandbox());
      expect(result.tokenStatus).toBe(200);
      expect(result.carriersStatus).toBe(200);
      expect(result.names).toContain('PostNL');
      expect(result.refused).toContain('Failed to fetch');
      // The sandbox's request log shows the preflights the browser made. Its lines reach this
      // process through a pipe after the answers reach the browser: waited for, not read at once.
      await server!.waitFor('OPTIONS /access-token 204');
      await server!.waitFor('OPTIONS /carriers 204');
    } finally {
      await other.close();
    }
  });
});

describe('the /docs page and its assets over HTTP (no browser needed)', () => {
  const swaggerUiDir = createRequire(import.meta.url)
    .resolve('swagger-ui-dist/package.json')
    .replace(/package\.json$/, '');

  it('links only its own assets, relative to /docs, with a CSP that allows nothing else', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.request('GET', '/docs', { headers: { accept: 'text/html' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    const csp = answer.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
    expect(answer.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    const links = [...answer.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(links.filter((link) => link !== 'openapi.json').every((link) => /^docs\/assets\/[\w.-]+\?v=[\w-]+$/.test(link))).toBe(true);
    expect(answer.text).toContain('value="sandbox-client"');
    expect(answer.text).toContain('value="sandbox-secret"');
  });

  it("sends /docs/ (with a slash) to /docs, by a relative Location that keeps a proxy's path prefix", async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.request('GET', '/docs/', { headers: { accept: 'text/html' } });
    expect(answer.status).toBe(301);
    const location = answer.headers.get('location')!;
    expect(new URL(location, 'http://sandbox.test/docs/').pathname).toBe('/docs');
    expect(new URL(location, 'https://proxy.example/sandbox/docs/').pathname).toBe('/sandbox/docs');
  });

  it('lets the page call a configured public URL that differs from the request origin', async () => {
    const sandbox = await testSandbox({ config: { publicUrl: 'https://sandbox.example.com' } });
    const answer = await sandbox.get('/docs');
    expect(answer.headers.get('content-security-policy')).toContain("connect-src 'self' https://sandbox.example.com");
  });

  it("serves Swagger UI's files from the installed package with their types, an ETag and cache headers", async () => {
    const sandbox = await testSandbox();
    const page = (await sandbox.get('/docs')).text;
    const href = (name: string) => {
      const at = page.indexOf(`docs/assets/${name}?v=`);
      expect(at, name).toBeGreaterThan(0);
      return '/' + page.slice(at, page.indexOf('"', at));
    };
    for (const [name, type] of [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
    ] as const) {
      const response = await sandbox.app.request(`http://sandbox.test${href(name)}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(swaggerUiDir + name))).toBe(true);
      const again = await sandbox.app.request(`http://sandbox.test${href(name)}`, { headers: { 'if-none-match': response.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    const unversioned = await sandbox.request('GET', '/docs/assets/docs.js');
    expect(unversioned.status).toBe(200);
    expect(unversioned.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('serves nothing outside its whitelist', async () => {
    const sandbox = await testSandbox();
    for (const name of ['index.html', 'package.json', 'swagger-ui-bundle.js.map', '..%2Fpackage.json', 'swagger-initializer.js']) {
      const answer = await sandbox.get(`/docs/assets/${name}`);
      expect(answer.status, name).toBe(404);
      expect(answer.body.errors[0].detail).toContain('swagger-ui-bundle.js');
    }
  });

  it('is declared in the OpenAPI document under Sandbox, without authentication', async () => {
    const sandbox = await testSandbox();
    const { paths } = (await sandbox.get('/openapi.json')).body;
    for (const path of ['/docs', '/docs/assets/{file}']) {
      expect(paths[path].get.tags).toEqual(['Sandbox']);
      expect(paths[path].get.security).toEqual([]);
    }
    expect(Object.keys(paths['/docs'].get.responses['200'].content)).toEqual(['text/html']);
  });
});
