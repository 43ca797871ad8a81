import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, sharedChromium } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

if (!hasChromium) console.warn(`test/docs-examples.browser.test.ts is SKIPPED: no Chromium at ${CHROMIUM}.`);

const ADMIN = 'docs-examples-admin';

/** What executing every example through the page gave. */
interface Outcome {
  count: number;
  failures: string[];
  order: string[];
}

/**
 * Executes every operation's example in the page, in the order the page lists them, through the
 * page's request machinery: Swagger UI's `fn.execute` (swagger-client) with the example values the
 * page fills in, the page's request and response interceptors (which make the example rows before
 * the first request of a token) and its authorizations: the client's token, or the admin token
 * where the document marks the example for it (`x-example-token`), as the page's Execute chooses.
 * Going through Swagger UI's Redux actions instead re-renders the page several times per request:
 * 190 requests took 50-100 s at load 8-10, this 5-10 s. The ones that end the session (a tenant
 * reset, revoking the client's tokens) run last. `createSandboxVisitorTenant` is the page's own call
 * (made when the page opens with a tenant per visitor) and is not executed.
 */
function executeEveryExample(page: Page): Promise<Outcome> {
  return page.evaluate(async () => {
    const closing = ['resetSandbox', 'revokeSandboxTokens'];
    const ui = (globalThis as any).ui;
    const spec = ui.specSelectors.specJsonWithResolvedSubtrees().toJS();
    const authorized = ui.authSelectors.authorized().toJS();
    const definitions = ui.specSelectors.securityDefinitions().toJS();
    const { requestInterceptor, responseInterceptor } = ui.getConfigs();
    const listed: { path: string; method: string; id: string }[] = [];
    ui.specSelectors.taggedOperations().forEach((tagged: any) =>
      tagged.get('operations').forEach((entry: any) => {
        const id = entry.getIn(['operation', 'operationId']);
        if (id !== 'createSandboxVisitorTenant') listed.push({ path: entry.get('path'), method: entry.get('method'), id });
      }),
    );
    const ordered = [...listed.filter((entry) => !closing.includes(entry.id)), ...closing.map((id) => listed.find((entry) => entry.id === id)!)];
    const failures: string[] = [];
    for (const { path, method, id } of ordered) {
      const operation = spec.paths[path][method];
      const parameters: Record<string, unknown> = {};
      for (const parameter of operation.parameters ?? []) if ('example' in parameter) parameters[`${parameter.in}.${parameter.name}`] = parameter.example;
      const type = operation.requestBody ? Object.keys(operation.requestBody.content)[0] : undefined;
      const admin = operation['x-example-token'] === 'SandboxAdmin';
      const chosen = Object.fromEntries(Object.entries(authorized).filter(([name]) => (name === 'SandboxAdmin') === admin));
      const response = await ui.fn
        .execute({
          spec,
          operationId: id,
          parameters,
          ...(type ? { requestContentType: type, requestBody: operation.requestBody.content[type].example } : {}),
          securities: { authorized: chosen, definitions },
          requestInterceptor,
          responseInterceptor,
          contextUrl: (globalThis as any).location.href,
        })
        .catch((error: any) => error.response ?? { status: 0, text: String(error) });
      if (!(response.status >= 200 && response.status < 300)) failures.push(`${id} ${response.status} ${String(response.text ?? '').slice(0, 300)}`);
    }
    return { count: ordered.length, failures, order: ordered.map((entry) => entry.id) };
  });
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
  let contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, visitorServer, browser] = await Promise.all([
      startServer({ DATA_FILE: ':memory:', SANDBOX_ADMIN_TOKEN: ADMIN }),
      startServer({ DATA_FILE: ':memory:', SANDBOX_ADMIN_TOKEN: ADMIN, TENANT_PER_VISITOR: 'true', VISITOR_TTL: '900' }),
      sharedChromium(),
    ]);
    contexts = await Promise.all([0, 1].map(() => browser!.newContext({ viewport: { width: 1280, height: 900 } })));
    page = await contexts[0]!.newPage();
    visitorPage = await contexts[1]!.newPage();
  }, 180000);
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
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

  it('opens Authorize on the prefilled client with every scope ticked, the admin token below it', async () => {
    await page.locator('.auth-wrapper button.authorize').click();
    const schemes = page.locator('.modal-ux .auth-container');
    await schemes.first().waitFor();
    const first = schemes.first();
    expect(await first.innerText()).toContain('clientCredentials');
    expect(await first.locator('#client_id_clientCredentials').inputValue()).toBe('sandbox-client');
    const scopes = first.locator('.scopes input[type=checkbox]');
    expect(await scopes.count()).toBeGreaterThan(0);
    for (const box of await scopes.all()) expect(await box.isChecked()).toBe(true);
    expect(await schemes.nth(1).innerText()).toContain('SandboxAdmin');
    await page.locator('.modal-ux button.close-modal').click();
    await page.locator('.modal-ux').waitFor({ state: 'detached' });
  }, 60000);

  it("executes every operation's example unchanged with the token of the page's own button: all succeed", async () => {
    const token = page.waitForResponse((response) => new URL(response.url()).pathname === '/access-token');
    await page.locator('#sandbox-token button[type=submit]').click();
    await page.locator('#sandbox-token-status[data-state=ok]').waitFor();
    const clientToken = ((await (await token).json()) as { access_token: string }).access_token;
    await authorizeAdmin(page);
    // The page's own Execute sends the admin token for an example marked for it, the client's otherwise.
    const sent: Record<string, string | undefined> = {};
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/_sandbox/quotas' || path === '/carriers') sent[path] = request.headers().authorization;
    });
    for (const [path, method] of [
      ['/carriers', 'get'],
      ['/_sandbox/quotas', 'patch'],
    ] as const) {
      await page.evaluate(
        async ([path, method]) => {
          const ui = (globalThis as any).ui;
          const operation = ui.specSelectors.specJson().getIn(['paths', path, method]);
          const content = operation.getIn(['requestBody', 'content']);
          if (content) {
            const type = content.keySeq().first();
            ui.oas3Actions.setRequestContentType({ value: type, pathMethod: [path, method] });
            ui.oas3Actions.setRequestBodyValue({ value: JSON.stringify(content.getIn([type, 'example']).toJS(), null, 2), pathMethod: [path, method] });
          }
          await ui.specActions.execute({ path, method, operation });
        },
        [path, method],
      );
    }
    expect(sent).toEqual({ '/carriers': `Bearer ${clientToken}`, '/_sandbox/quotas': `Bearer ${ADMIN}` });

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
