import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, launchChromium } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

if (!hasChromium) console.warn(`test/docs-examples.browser.test.ts is SKIPPED: no Chromium at ${CHROMIUM}.`);

describe.skipIf(!hasChromium)('the examples of the API reference page, in Chromium', () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let interactiveMs = 0;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ DATA_FILE: ':memory:' }), launchChromium()]);
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    // A deep link in Swagger UI's own fallback form (method_path) opens the operation too.
    const started = Date.now();
    await page.goto(`${server.url}/docs#/Shipments/post_shipments`);
    await page.locator('body[data-docs-ready]').waitFor({ timeout: 120000 });
    await page.locator('.opblock').first().waitFor({ timeout: 120000 });
    interactiveMs = Date.now() - started;
    console.log(`API reference interactive after ${interactiveMs} ms`);
  }, 180000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('opens the operation a fallback deep link names, with the example filled in', async () => {
    const operation = page.locator('#operations-Shipments-createShipment');
    await operation.locator('button.execute').waitFor({ timeout: 60000 });
    expect(page.url()).toContain('#/Shipments/createShipment');
    const body = await operation.locator('.body-param textarea').inputValue();
    expect(JSON.parse(body).data.attributes.recipient_address).toMatchObject({ first_name: 'Anna', last_name: 'de Vries' });

    // Executing the examples through the page (every operation, with the button's token) is not
    // done here yet: the in-process test/docs-examples.test.ts runs every example unchanged.
  }, 120000);
});
