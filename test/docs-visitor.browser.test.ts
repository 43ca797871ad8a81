import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, sharedChromium, watchRequests } from './support/browser.js';
import { getToken, startServer, type RunningServer } from './support/server.js';

if (!hasChromium) {
  console.warn(`test/docs-visitor.browser.test.ts is SKIPPED: no Chromium at ${CHROMIUM} (install Debian's package: apt-get install -y chromium).`);
}

const ADMIN = 'docs-site-admin';

interface Visitor {
  client_id: string;
  organization_id: string;
  shop_id: string;
  access_token: string;
  expires_at: number;
}

describe.skipIf(!hasChromium)('the API reference with a tenant per visitor, in Chromium', () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let visitor: Visitor;
  let requests: Awaited<ReturnType<typeof watchRequests>>;
  const visitorCalls: Request[] = [];
  const shopCalls: Request[] = [];
  const examplesCalls: Request[] = [];
  const problems: string[] = [];

  const sandbox = () => server!.url;
  const admin = async (path: string): Promise<any> => (await fetch(`${sandbox()}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } })).json();
  /** An Execute with the admin token, through the page's own request interceptor (which makes the example rows first). */
  const executeAsAdmin = () =>
    page.evaluate(async (token) => {
      const { requestInterceptor } = (globalThis as any).ui.getConfigs();
      await requestInterceptor({ url: `${(globalThis as any).location.origin}/_sandbox/tenants`, headers: { Authorization: `Bearer ${token}` } });
    }, ADMIN);
  /** The visitor clients the admin token's example rows were asked for, in order. */
  const adminExamplesFor = () =>
    examplesCalls.filter((call) => call.headers().authorization === `Bearer ${ADMIN}`).map((call) => JSON.parse(call.postData() ?? '{}').client_id);

  beforeAll(async () => {
    const [started, launched] = await Promise.allSettled([
      startServer({ DATA_FILE: ':memory:', TENANT_PER_VISITOR: 'true', VISITOR_TTL: '600', SANDBOX_ADMIN_TOKEN: ADMIN }),
      sharedChromium(),
    ]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;

    context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (/content security policy/i.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    requests = await watchRequests(page, new URL(sandbox()).origin);
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/_sandbox/visitor') visitorCalls.push(request);
      if (path === '/shops') shopCalls.push(request);
      if (path === '/_sandbox/examples') examplesCalls.push(request);
    });
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/_sandbox/visitor');
    expect((await page.goto(`${sandbox()}/docs`))?.status()).toBe(200);
    const answer = await answered;
    expect(answer.status()).toBe(201);
    visitor = (await answer.json()) as Visitor;
    await page.locator(`body[data-visitor="${visitor.organization_id}"]`).waitFor();
  });
  afterAll(async () => {
    await context?.close();
    await server?.stop();
  });

  it('creates a tenant for the visitor and says so, with its client in the token bar', async () => {
    expect(visitorCalls).toHaveLength(1);
    // The page asked from its own origin, and the sandbox answered without opening CORS.
    expect(visitorCalls[0]!.headers().origin).toBe(new URL(sandbox()).origin);
    const status = page.locator('#sandbox-token-status[data-state=ok]');
    expect(await status.innerText()).toContain(visitor.organization_id);
    expect(await page.locator('#sandbox-token input[name=client_id]').inputValue()).toBe(visitor.client_id);
    expect(await page.content()).not.toContain('sandbox-secret');
    const tenants = await admin('/_sandbox/tenants');
    // The visitor's tenant alone: loading the page makes none of the tenants the admin's examples act on.
    expect(tenants.data).toEqual([expect.objectContaining({ organization_id: visitor.organization_id, visitor: true, expires_at: visitor.expires_at })]);
  });

  it("runs try-it-out of GET /shops as the visitor's tenant: its one shop, none of the shared ones", async () => {
    await page.locator('.operation-filter-input').fill('Shops');
    const operation = page.locator('#operations-Shops-listShops');
    await operation.waitFor();
    await operation.locator('.opblock-summary').first().click();
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/shops');
    await operation.locator('button.execute').click();
    expect((await answered).status()).toBe(200);
    const shown = operation.locator('.live-responses-table .response .response-col_description').first();
    await shown.waitFor();
    const body = await shown.innerText();

    expect(shopCalls).toHaveLength(1);
    expect(shopCalls[0]!.headers().authorization).toBe(`Bearer ${visitor.access_token}`);
    expect(body).toContain(visitor.shop_id);
    const fixtureToken = await getToken(sandbox());
    const fixtureShops = (await (await fetch(`${sandbox()}/shops`, { headers: { authorization: `Bearer ${fixtureToken}` } })).json()) as {
      data: { id: string }[];
    };
    expect(fixtureShops.data.length).toBeGreaterThan(0);
    for (const shop of fixtureShops.data) expect(body).not.toContain(shop.id);

    // The request log names the visitor's client; the shared client cannot see the visitor's shop.
    const log = await admin('/_sandbox/requests?path=/shops&limit=5');
    expect(log.data.find((entry: { client_id?: string }) => entry.client_id === visitor.client_id)).toMatchObject({ method: 'GET', status: 200 });
    const foreign = await fetch(`${sandbox()}/shops/${visitor.shop_id}`, { headers: { authorization: `Bearer ${fixtureToken}` } });
    expect(foreign.status).toBe(404);
  });

  it('keeps the same tenant across a reload of the tab', async () => {
    await page.reload();
    await page.locator(`body[data-visitor="${visitor.organization_id}"]`).waitFor();
    expect(visitorCalls).toHaveLength(1);
    // The visitor's tenant: no new one.
    expect((await admin('/_sandbox/tenants')).data).toHaveLength(1);
  });

  it('asks for a new tenant when the sandbox says the old one is gone (expired, or made way at the cap)', async () => {
    // The admin token's examples are made in the visitor's tenant, once per token and visitor.
    await executeAsAdmin();
    await executeAsAdmin();
    expect(adminExamplesFor()).toEqual([visitor.client_id]);
    const deleted = await fetch(`${sandbox()}/_sandbox/tenants/${visitor.organization_id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(deleted.status).toBe(200);
    const operation = page.locator('#operations-Shops-listShops');
    const renewed = page.waitForResponse((response) => new URL(response.url()).pathname === '/_sandbox/visitor');
    await operation.locator('button.execute').click();
    const next = (await (await renewed).json()) as Visitor;
    expect(next.organization_id).not.toBe(visitor.organization_id);
    await page.locator(`body[data-visitor="${next.organization_id}"]`).waitFor();
    expect(await page.locator('#sandbox-token-status').innerText()).toContain('had expired');

    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/shops');
    await operation.locator('button.execute').click();
    expect((await answered).status()).toBe(200);
    expect(shopCalls.at(-1)!.headers().authorization).toBe(`Bearer ${next.access_token}`);
    // The same admin token makes its rows again, in the new visitor's tenant.
    await executeAsAdmin();
    expect(adminExamplesFor()).toEqual([visitor.client_id, next.client_id]);
    // Beside the tenants made for the examples of the tenant deletions (which expire with their visitor's), only the new visitor's.
    const tenants = (await admin('/_sandbox/tenants')).data as { organization_id: string; name: string }[];
    const own = tenants.filter((row) => !['Organization to delete', 'Tenant to delete', 'Tenant with a pack'].includes(row.name));
    expect(own.map((row) => row.organization_id)).toEqual([next.organization_id]);
  });

  it('loaded everything from the sandbox, without script errors or CSP violations', () => {
    expect(requests.foreign()).toEqual([]);
    expect(problems).toEqual([]);
  });
});
