import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the code', () => {
  it('passes the linter (eslint.config.js; `npm run lint` shows the same)', async () => {
    const eslint = new ESLint({ cwd: root });
    const results = await eslint.lintFiles(['.']);
    const problems = results.flatMap((result) =>
      result.messages.map((message) => `${result.filePath.slice(root.length)}:${message.line} ${message.ruleId ?? ''} ${message.message}`),
    );
    expect(problems).toEqual([]);
    expect(results.length).toBeGreaterThan(200);
  }, 120_000);

  it('is formatted as Prettier writes it (.prettierrc.json; `npm run lint` checks the same)', () => {
    const run = spawnSync(process.execPath, ['node_modules/prettier/bin/prettier.cjs', '--list-different', '.'], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    // --list-different names every file whose text differs from what Prettier would write.
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([]);
    expect(run.status).toBe(0);
  }, 120_000);
});
