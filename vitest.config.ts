import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { WaitingFirstSequencer } from './test/support/sequencer.js';

const include = ['test/**/*.test.ts', 'src/**/*.test.ts'];

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
    // One worker runs file after file on the modules it already loaded: importing the app and
    // compiling the contracts' validators once per worker, not once per file, halved the CPU time of
    // the whole run. A file must leave no global change behind (timers, spies, cwd), and none
    // replaces a module (vi.mock): a test that must hold a library's first load hands the sandbox
    // gated loaders (test/support/library-gate.ts). Five files that mocked modules ran in a project
    // of their own, each importing the app afresh and the project transforming every source again:
    // ~20 s of the run's CPU.
    include,
    isolate: false,
    globalSetup: ['test/global-setup.ts'],
  },
});
