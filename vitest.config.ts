import { configDefaults, defineConfig } from 'vitest/config';

const include = ['test/**/*.test.ts', 'src/**/*.test.ts'];
/** Files that replace a module (vi.mock): they get a fresh module graph of their own. */
const isolated = ['test/admin-token.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20000,
    hookTimeout: 30000,
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
