// Time to interactive of the API reference page (/docs) in headless Chromium: the target is 2 s.
import { accessSync, constants } from 'node:fs';
import { copyData } from '../lib/data.js';
import { log } from '../lib/processes.js';
import { startSandbox } from '../lib/server.js';

/** Debian's Chromium, as the browser tests use it; the scenario is skipped without it. */
const CHROMIUM = '/usr/bin/chromium';
const LOADS = 5;

export interface DocsPage {
  /** The first load: the sandbox builds and compresses the document then (once a day per server URL). */
  first_ms: number;
  /** The later loads, each in a fresh browser context (no cache): the document is kept. */
  later_ms: number[];
  median_ms: number;
  document_bytes: number;
  document_compressed_bytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function hasChromium(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens /docs LOADS times, each in a new browser context, timing navigation start to the moment
 * Swagger UI has rendered the tag list (body[data-docs-ready] and the first tag): the page can be
 * used then. The sandbox runs on a copy of the seeded data, as `npm start` runs it.
 */
export async function docsPage(dir: string, seeded: string): Promise<DocsPage | undefined> {
  if (!hasChromium()) {
    log(`API reference page: skipped, no Chromium at ${CHROMIUM}`);
    return undefined;
  }
  log(`API reference page: time to interactive in headless Chromium (${LOADS} loads)`);
  const { chromium } = await import('playwright-core');
  const server = await startSandbox('docs page', await copyData(seeded, dir, 'docs-page'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${server.url}/docs`);
      await page.locator('body[data-docs-ready]').waitFor({ timeout: 120_000 });
      await page.locator('.opblock-tag').first().waitFor({ timeout: 120_000 });
      times.push(Math.round(performance.now() - started));
      await context.close();
    }
    const plain = await fetch(`${server.url}/openapi.json`);
    const compressed = await fetch(`${server.url}/openapi.json`, { headers: { 'accept-encoding': 'br' } });
    const later = times.slice(1);
    return {
      first_ms: times[0]!,
      later_ms: later,
      median_ms: median(later),
      document_bytes: (await plain.arrayBuffer()).byteLength,
      document_compressed_bytes: Number(compressed.headers.get('content-length') ?? 0),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** The report's line for the page. */
export function docsPageLine(docs: DocsPage): string {
  return `API reference page (/docs) interactive in headless Chromium: median ${docs.median_ms} ms of [${docs.later_ms.join(', ')}] (fresh contexts), ${docs.first_ms} ms on the first load (document built); document ${Math.round(docs.document_bytes / 1024)} KB, ${Math.round(docs.document_compressed_bytes / 1024)} KB as br`;
}
