import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { END, START, coverageMarkdown } from '../scripts/coverage.js';

describe("the README's list of production operations", () => {
  it('is the one the endpoint declarations give (run `npm run readme:coverage` after adding endpoints)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = readme.slice(readme.indexOf(START), readme.indexOf(END) + END.length);
    expect(block).toBe(coverageMarkdown());
  });
});
