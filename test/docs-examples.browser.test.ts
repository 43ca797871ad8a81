import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, launchChromium } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

if (!hasChromium) console.warn(`test/docs-examples.browser.test.ts is SKIPPED: no Chromium at ${CHROMIUM}.`);

const ADMIN = 'docs-examples-admin';

/** What executing every example through the page gave. */
interface Outcome {
  count: number;
  failures: string[];
  order: string[];
}

/** Tags whose examples run at once: each tag's in the page's order, the tags side by side. */
const LANES = 4;

/**
 * Executes every operation's example in the page, each tag's in the order the page lists them,
 * LANES tags at a time, through Swagger UI's own actions: each parameter and the request body get
 * the example value the page fills in (as its inputs would set it), then the operation's Execute
 * action runs with the page's authorizations, request interceptor and all. The ones that end the
 * session (a tenant reset, revoking the client's tokens) run last, one after the other.
 * `createSandboxVisitorTenant` is the page's own call (made when the page opens with a tenant per
 * visitor) and is not executed.
 */
function executeEveryExample(page: Page): Promise<Outcome> {
  return page.evaluate(async (lanes) => {
    const closing = ['resetSandbox', 'revokeSandboxTokens'];
    const ui = (globalThis as any).ui;
    const id = (entry: any) => entry.getIn(['operation', 'operationId']) as string;
    const tags: any[][] = [];
    const last: any[] = [];
    ui.specSelectors.taggedOperations().forEach((tagged: any) => {
      const entries: any[] = [];
      tagged.get('operations').forEach((entry: any) => {
        if (closing.includes(id(entry))) last.push(entry);
        else if (id(entry) !== 'createSandboxVisitorTenant') entries.push(entry);
      });
      if (entries.length > 0) tags.push(entries);
    });
    last.sort((a, b) => closing.indexOf(id(a)) - closing.indexOf(id(b)));
    const failures: string[] = [];
    const order: string[] = [];
    const execute = async (entry: any) => {
      const path = entry.get('path');
      const method = entry.get('method');
      const operation = ui.specSelectors.specJson().getIn(['paths', path, method]);
      (operation.get('parameters') ?? []).forEach((parameter: any) => {
        if (parameter.has('example')) ui.specActions.changeParamByIdentity([path, method], parameter, parameter.get('example'));
      });
      const content = operation.getIn(['requestBody', 'content']);
      if (content) {
        const type = content.keySeq().first();
        ui.oas3Actions.setRequestContentType({ value: type, pathMethod: [path, method] });
        const example = content.getIn([type, 'example']);
        if (example !== undefined) {
          ui.oas3Actions.setRequestBodyValue({ value: JSON.stringify(example?.toJS ? example.toJS() : example, null, 2), pathMethod: [path, method] });
        }
      }
      order.push(id(entry));
      await ui.specActions.execute({ path, method, operation });
      const response = ui.specSelectors.responseFor(path, method);
      const status = response?.get('status');
      if (!(status >= 200 && status < 300)) {
        failures.push(`${id(entry)} ${status} ${String(response?.get('text') ?? response?.get('error') ?? '').slice(0, 300)}`);
      }
    };
    let next = 0;
    const lane = async () => {
      for (let tag = tags[next++]; tag; tag = tags[next++]) for (const entry of tag) await execute(entry);
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    for (const entry of last) await execute(entry);
    return { count: order.length, failures, order };
  }, LANES);
}

/** Opens /docs and waits until Swagger UI lists the operations: the milliseconds that took. */
async function openReference(page: Page, url: string): Promise<number> {
  const started = Date.now();
  await page.goto(url);
  await page.locator('body[data-docs-ready]').waitFor({ timeout: 120000 });
  await page.locator('.opblock-tag').first().waitFor({ timeout: 120000 });
  return Date.now() - started;
}

/** Authorizes the page's SandboxAdmin scheme with the admin token, as the Authorize dialog does. */
async function authorizeAdmin(page: Page): Promise<void> {
  await page.evaluate((token) => {
    const ui = (globalThis as any).ui;
    ui.authActions.authorize({ SandboxAdmin: { name: 'SandboxAdmin', schema: ui.specSelectors.securityDefinitions().get('SandboxAdmin'), value: token } });
  }, ADMIN);
}

describe.skipIf(!hasChromium)('the examples of the API reference page, in Chromium', () => {
  let server: RunningServer | undefined;
  let visitorServer: RunningServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let visitorPage: Page;

  beforeAll(async () => {
    [server, visitorServer, browser] = await Promise.all([
      startServer({ DATA_FILE: ':memory:', SANDBOX_ADMIN_TOKEN: ADMIN }),
      startServer({ DATA_FILE: ':memory:', SANDBOX_ADMIN_TOKEN: ADMIN, TENANT_PER_VISITOR: 'true', VISITOR_TTL: '900' }),
      launchChromium(),
    ]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    visitorPage = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 180000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), visitorServer?.stop()]);
  });

  it('opens the operation a fallback deep link names, with the example filled in; prints the time to interactive', async () => {
    // Swagger UI's own fallback form (method_path) opens the operation too.
    const interactiveMs = await openReference(page, `${server!.url}/docs#/Shipments/post_shipments`);
    console.log(`API reference interactive after ${interactiveMs} ms`);
    const operation = page.locator('#operations-Shipments-createShipment');
    await operation.locator('button.execute').waitFor({ timeout: 60000 });
    expect(page.url()).toContain('#/Shipments/createShipment');
    const body = await operation.locator('.body-param textarea').inputValue();
    expect(JSON.parse(body).data.attributes.recipient_address).toMatchObject({ first_name: 'Anna', last_name: 'de Vries' });
  }, 180000);

  it("executes every operation's example unchanged with the token of the page's own button: all succeed", async () => {
    await page.locator('#sandbox-token button[type=submit]').click();
    await page.locator('#sandbox-token-status[data-state=ok]').waitFor();
    await authorizeAdmin(page);
    const { count, failures } = await executeEveryExample(page);
    console.log(`examples: ${count - failures.length} of ${count} succeed${failures.length ? `\n${failures.join('\n')}` : ''}`);
    expect(count).toBeGreaterThan(180);
    expect(failures).toEqual([]);
  }, 180000);

  it("executes every example in a fresh visitor tenant, with the visitor's values: all succeed", async () => {
    await openReference(visitorPage, `${visitorServer!.url}/docs`);
    await visitorPage.locator('body[data-visitor]:not([data-visitor=error])').waitFor();
    await authorizeAdmin(visitorPage);
    const { count, failures } = await executeEveryExample(visitorPage);
    console.log(`visitor examples: ${count - failures.length} of ${count} succeed${failures.length ? `\n${failures.join('\n')}` : ''}`);
    expect(count).toBeGreaterThan(180);
    expect(failures).toEqual([]);
  }, 180000);
});
