import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
// The rules are the project's own (.dependency-cruiser.cjs), the same `npx depcruise src` applies.
const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs');

describe('the layers of src/', () => {
  it('point down only and form no import circle (.dependency-cruiser.cjs)', async () => {
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const result = await cruise(['src'], { ruleSet: config, ...config.options, validate: true }, undefined, {
        tsConfig: { fileName: 'tsconfig.json' },
      } as never);
      const output = result.output as ICruiseResult;
      const violations = output.summary.violations.map(
        (v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (circle: ${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`,
      );
      expect(violations).toEqual([]);
      expect(output.summary.totalCruised).toBeGreaterThan(150);
    } finally {
      process.chdir(cwd);
    }
  });
});
