import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that mostly wait on other processes (npm installing the package, Chromium, a server
 * started as a user would) go first, the two longest first of all: the package test (~80 s, nearly
 * all of it npm) and the lint test (~60 s on a clean checkout: ESLint, Prettier, tsc and knip), one
 * on each worker. The in-process files, short and many, come last and fill both workers to the
 * end. vitest's own order (unknown or larger files first on a clean checkout) left the package
 * test to run last and alone; ranked with the in-process files, the lint test was the last 62 s of
 * a 252 s run.
 */
export class WaitingFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) =>
      /\/(package\.e2e|lint)\.test\.ts$/.test(file.moduleId) ? 0 : /\.(e2e|browser)\.test\.ts$/.test(file.moduleId) ? 1 : 2;
    // Array.prototype.sort is stable: within a rank, vitest's order stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
