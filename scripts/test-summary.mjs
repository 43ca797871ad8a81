#!/usr/bin/env node
// Prints "tests: N passed, M failed" from vitest's JSON report (the last line of .ci/run).
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(readFileSync(new URL('../.test-results/vitest.json', import.meta.url), 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests;
  // A suite that fails to load has no failed tests of its own but still fails the run.
  if (failed === 0 && !report.success) failed = report.numFailedTestSuites || 1;
} catch {
  failed = 1;
}
console.log(`tests: ${passed} passed, ${failed} failed`);
