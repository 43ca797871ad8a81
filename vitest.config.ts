import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 20000,
    hookTimeout: 30000,
    // The JSON report feeds the one-line summary that .ci/run prints.
    reporters: ['default', ['json', { outputFile: '.test-results/vitest.json' }]],
  },
});
