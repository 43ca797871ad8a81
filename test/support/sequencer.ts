import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that mostly wait on other processes (npm installing the package, Chromium, a server
 * started as a user would) go first, the package test first of all (about 170 s, nearly all of it
 * npm): the other worker computes through the in-process files meanwhile. vitest's own order
 * (unknown or larger files first on a clean checkout) left the package test to run last and alone.
 */
export class WaitingFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => (file.moduleId.endsWith('/package.e2e.test.ts') ? 0 : /\.(e2e|browser)\.test\.ts$/.test(file.moduleId) ? 1 : 2);
    // Array.prototype.sort is stable: within a rank, vitest's order stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
