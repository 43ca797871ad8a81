// Time to interactive of the API reference page (/docs) in headless Chromium: the target is 2 s.
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { copyData } from '../lib/data.js';
import { log } from '../lib/processes.js';
import { startSandbox } from '../lib/server.js';

/** Debian's Chromium, as the browser tests use it; the scenario is skipped without it. */
const CHROMIUM = '/usr/bin/chromium';
const LOADS = 5;

export interface DocsPage {
  /** The first load: the sandbox builds and compresses the document then (the build once a day, the compression once per server URL). */
  first_ms: number;
  /** The later loads, each in a fresh browser context (no cache): the document is kept. */
  later_ms: number[];
  median_ms: number;
  /** CPU time Chromium's processes spent on each later load (user + system): what the load needs of the machine, whatever else runs. */
  chromium_cpu_ms: number[];
  document_bytes: number;
  document_compressed_bytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The fields of /proc/<pid>/stat after the command name. */
function stat(pid: string): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** User + system CPU milliseconds of the Chromium processes this process started (Linux; 0 elsewhere). */
function chromiumCpuMs(): number {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const parent = new Map(pids.map((pid) => [pid, stat(pid)?.[1]]));
  const mine = (pid: string): boolean => {
    for (let at: string | undefined = pid, hops = 0; at && hops < 64; at = parent.get(at), hops += 1) if (at === String(process.pid)) return true;
    return false;
  };
  let ticks = 0;
  for (const pid of pids) {
    let comm = '';
    try {
      comm = readFileSync(`/proc/${pid}/comm`, 'utf8');
    } catch {
      continue;
    }
    if (!comm.startsWith('chrom') || !mine(pid)) continue;
    const fields = stat(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  // USER_HZ is 100 on Linux.
  return ticks * 10;
}

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
    const cpu: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto('about:blank');
      const cpuBefore = chromiumCpuMs();
      const started = performance.now();
      await page.goto(`${server.url}/docs`);
      await page.locator('body[data-docs-ready]').waitFor({ timeout: 120_000 });
      await page.locator('.opblock-tag').first().waitFor({ timeout: 120_000 });
      times.push(Math.round(performance.now() - started));
      cpu.push(chromiumCpuMs() - cpuBefore);
      await context.close();
    }
    const plain = await fetch(`${server.url}/openapi.json`);
    const compressed = await fetch(`${server.url}/openapi.json`, { headers: { 'accept-encoding': 'br' } });
    const later = times.slice(1);
    return {
      first_ms: times[0]!,
      later_ms: later,
      median_ms: median(later),
      chromium_cpu_ms: cpu.slice(1),
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
  return `API reference page (/docs) interactive in headless Chromium: median ${docs.median_ms} ms of [${docs.later_ms.join(', ')}] (fresh contexts), ${docs.first_ms} ms on the first load (document built); Chromium's CPU per load [${docs.chromium_cpu_ms.join(', ')}] ms; document ${Math.round(docs.document_bytes / 1024)} KB, ${Math.round(docs.document_compressed_bytes / 1024)} KB as br`;
}
