import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { WaitingFirstSequencer } from './test/support/sequencer.js';

const include = ['test/**/*.test.ts', 'src/**/*.test.ts'];
/** Files that replace a module (vi.mock): they get a fresh module graph of their own. */
const isolated = [
  'test/admin-token.test.ts',
  'test/registration-races.test.ts',
  'test/logo-races.test.ts',
  'test/label-download-races.test.ts',
  'test/manifest-download-races.test.ts',
];

export default defineConfig({
  test: {
    // A timeout is there to end a hung test, not to judge speed: every test bounds its work by count,
    // and on a loaded 2-core machine (another full run beside it) a sweep of the API that takes 12 s
    // when quiet took 24 s. Speed is the bench's business.
    testTimeout: 180_000,
    // vitest runs one file at a time on a 2-core machine by default (cores - 1 workers), though the
    // slowest files mostly wait on child processes (npm, a browser, a server): two workers there
    // overlap that waiting with the files that compute.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    hookTimeout: 180_000,
    sequence: { sequencer: WaitingFirstSequencer },
    // The JSON report feeds the one-line summary that .ci/run prints.
    reporters: ['default', ['json', { outputFile: '.test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        // One worker runs file after file on the modules it already loaded: importing the app and
        // compiling the contracts' validators once per worker, not once per file, halved the CPU
        // time of the whole run. A file must leave no global change behind (timers, spies, cwd).
        test: { name: 'shared', include, exclude: [...configDefaults.exclude, ...isolated], isolate: false, globalSetup: ['test/global-setup.ts'] },
      },
      { extends: true, test: { name: 'isolated', include: isolated } },
    ],
  },
});
