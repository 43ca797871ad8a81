import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); playwright-core never downloads a browser here. */
export const CHROMIUM = '/usr/bin/chromium';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const hasChromium = executable(CHROMIUM);

/** Headless Chromium, quiet: no sandbox (root in CI), no GPU, no background traffic of its own. */
function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

let shared: Promise<Browser> | undefined;

/**
 * The Chromium of this test worker, launched on first use and kept for the worker's other browser
 * files (vitest runs files one after another in a worker that keeps its modules: isolate: false).
 * A launch is ~2 s of CPU on a 2-core machine and the three browser files each launched their own.
 * A file closes the contexts it opens, never the browser: Playwright ends it when the worker
 * process exits. A browser that disconnected (crashed) is launched anew for the next file.
 */
export function sharedChromium(): Promise<Browser> {
  if (!shared) {
    const launching = launchChromium();
    shared = launching;
    launching.then(
      (browser) => browser.on('disconnected', () => shared === launching && (shared = undefined)),
      () => shared === launching && (shared = undefined),
    );
  }
  return shared;
}

/**
 * Records every request the page makes and aborts those that leave `allowedOrigin`, so a page
 * that reaches for a CDN fails the test quickly instead of hanging offline.
 */
export async function watchRequests(page: Page, allowedOrigin: string): Promise<{ urls: string[]; foreign(): string[] }> {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  const local = (url: string) => url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === allowedOrigin;
  await page.route(
    (url) => !local(url.href),
    (route) => route.abort('blockedbyclient'),
  );
  return { urls, foreign: () => urls.filter((url) => !local(url)) };
}

/** Serves one HTML page at `/` on another local port (another origin), until `close()`. */
export async function servePage(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.url === '/' || request.url?.startsWith('/?')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
