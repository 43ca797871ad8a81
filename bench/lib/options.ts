// The bench's command line and the settings derived from it, parsed once so every module reads the same values.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

export const ROOT = resolve(new URL('../..', import.meta.url).pathname);
/**
 * Outside dist/, so the bench measures the current sources without touching the shared build;
 * in the checkout itself (its packages resolve from there), not under node_modules, which git
 * worktrees share through a symlink: two benches at once would build over each other.
 */
export const BUILD_DIR = join(ROOT, '.bench-build');
export const TSX_LOADER = 'tsx';
export const MB = 1024 * 1024;

function parseOptions() {
  try {
    return parseArgs({
      options: {
        duration: { type: 'string', default: '5' },
        warmup: { type: 'string', default: '1' },
        connections: { type: 'string', default: '10' },
        shipments: { type: 'string', multiple: true },
        'base-shipments': { type: 'string', default: '1000' },
        'skip-growth': { type: 'boolean', default: false },
        'skip-log-cost': { type: 'boolean', default: false },
        'skip-hostile': { type: 'boolean', default: false },
        'skip-soak': { type: 'boolean', default: false },
        'only-hostile': { type: 'boolean', default: false },
        'skip-docs': { type: 'boolean', default: false },
        'only-docs': { type: 'boolean', default: false },
        'only-startup': { type: 'boolean', default: false },
        'only-growth': { type: 'boolean', default: false },
        'only-get': { type: 'boolean', default: false },
        profile: { type: 'boolean', default: false },
        entry: { type: 'string', default: 'build' },
        out: { type: 'string', default: join(ROOT, 'bench', 'results.json') },
        keep: { type: 'boolean', default: false },
        'no-pin': { type: 'boolean', default: false },
        'growth-duration': { type: 'string' },
        'node-flags': { type: 'string', default: '' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message.split('\n')[0]} (see --help)\n`);
    process.exit(2);
  }
}
export const { values: args } = parseOptions();

if (args.help) {
  process.stdout.write(
    [
      'Usage: npm run bench -- [options]',
      '  --duration <s>          seconds measured per scenario (default 5)',
      '  --warmup <s>            unmeasured seconds before each scenario (default 1)',
      '  --connections <n>       concurrent connections (default 10, as autocannon uses)',
      '  --shipments <n[,m]>     store sizes for the POST /shipments growth measurement (default 1000,100000)',
      '  --base-shipments <n>    shipments stored for the main scenarios (default 1000)',
      '  --growth-duration <s>   seconds of POST /shipments per growth round, 2 rounds per size (default: the larger of 10 and --duration)',
      '  --skip-growth           skip the growth measurement',
      '  --only-growth           run only the growth measurement and print its figures and target',
      '  --skip-log-cost         skip the LOG_LEVEL=info comparison',
      '  --skip-hostile          skip /health latency under bursts of 16 hostile 5 MB bodies',
      '  --only-hostile          run only that scenario (bursts 250 ms apart, no flood) and print its figures and targets',
      '  --skip-docs             skip the time to interactive of the API reference page (/docs) in Chromium',
      '  --only-docs             run only that scenario and print its figures and target',
      '  --only-get              run only GET /shipments/{id} in turns with the baseline (5 rounds) and print its target',
      '  --only-startup          run only the start-up times (3 starts on a seeded data file, 3 first starts) and print their target',
      '  --skip-soak             skip the memory soak of 1,000 ephemeral tenants with 20 shipments each',
      '  --profile               also take CPU profiles of GET /shipments/{id} and POST /shipments and summarise them',
      '  --entry build|tsx       run the compiled CLI (default, as npm start) or src/main.ts through tsx',
      '  --out <file>            results file (default bench/results.json)',
      '  --keep                  keep the temporary data directory',
      '  --no-pin                do not pin the server to CPU 0 and the load driver to CPU 1',
      '  --node-flags=<flags>    extra node flags for the sandbox process, e.g. --node-flags=--max-semi-space-size=2',
      '',
    ].join('\n'),
  );
  process.exit(0);
}

function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`bench: --${name} must be a positive number, got '${raw}'\n`);
    process.exit(2);
  }
  return value;
}

export const DURATION = positive('duration', args.duration);
export const WARMUP = Number(args.warmup) >= 0 ? Number(args.warmup) : 1;
export const CONNECTIONS = Math.round(positive('connections', args.connections));
export const BASE_SHIPMENTS = Math.round(Number(args['base-shipments']));
export const GROWTH_SIZES = (args.shipments ?? ['1000,100000'])
  .flatMap((value) => value.split(','))
  .filter(Boolean)
  .map((value) => Math.round(positive('shipments', value.replace(/_/g, ''))));
if (args.entry !== 'build' && args.entry !== 'tsx') {
  process.stderr.write(`bench: --entry must be build or tsx, got '${args.entry}'\n`);
  process.exit(2);
}
export const ENTRY = args.entry as 'build' | 'tsx';
export const GROWTH_DURATION = args['growth-duration'] === undefined ? Math.max(10, DURATION) : positive('growth-duration', args['growth-duration']);
/**
 * Node flags of `npm start` (package.json), so the sandbox runs here as users run it; the Docker
 * image's CMD uses the same ones (a test keeps them in step). `--node-flags` come after them.
 */
const START_FLAGS = (() => {
  const words = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(/\s+/);
  return words.slice(1, words.indexOf('dist/server/main.js')).filter((word) => word.startsWith('--'));
})();
export const NODE_FLAGS = [...START_FLAGS, ...args['node-flags'].split(' ').filter(Boolean)];
