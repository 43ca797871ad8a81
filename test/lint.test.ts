import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
/**
 * ESLint and Prettier remember what they found for each file's content (in .test-build/, kept between runs)
 * and look again only at files that changed, or at all of them when their configuration or version
 * changed: the rules are per file, so the answer is the same. Cold, they took ~23 s (ESLint) and
 * ~17 s (Prettier) of CPU; warm, about a second each.
 */
const cache = (tool: string) => join(root, '.test-build', 'cache', tool);
/*
 * Prettier reads TypeScript with its babel-ts parser (.prettierrc.json): the same output for every
 * file here, and a cold check of the project took 22.7-26.2 s of CPU against 29.3-30.2 s with its
 * default typescript parser (in turns, 2-core VM).
 */
/**
 * The type checks run TypeScript 7's native compiler (the `typescript-native` alias in package.json;
 * the `typescript` package stays on 5.x for typescript-eslint and knip, which use its JavaScript
 * API). A cold check of the project took ~40 s of CPU with tsc 5.9 and ~10 s with tsc 7, on one
 * thread (--singleThreaded: the suite's other files keep the second core busy).
 */
const tsc = join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');

/**
 * knip's --cache keeps what it read from each file (its imports and exports) and reads a file again
 * when its size or modification time changed; the graph and the findings are worked out anew on
 * every run, so an export a change left unused is still found. Cold, knip took 4.6-5.3 s of CPU
 * here; warm, 1.6-1.7 s. But a file's entry also keeps where its imports led: a deleted file that
 * another (unchanged) file still imported went unreported on a warm cache, where a cold run named
 * the unresolved import. So the cache lives in a folder named after the project's list of files and
 * the settings that steer resolution: adding, removing or renaming a file, or changing package.json,
 * its lock, knip.json or tsconfig.json, starts from an empty one (and the folders of other lists
 * are removed).
 */
function knipCache(): string {
  const hash = createHash('sha256');
  // The files at the top that can steer knip (its plugins read eslint.config.js, vitest.config.ts):
  // not the folders builds and runs come and go in (dist, .test-build).
  hash.update(
    readdirSync(root)
      .filter((entry) => /\.(?:[cm]?[jt]s|json)$/.test(entry))
      .sort()
      .join('\n'),
  );
  for (const dir of ['src', 'scripts', 'bench', 'test']) hash.update(`\n${dir}\n${readdirSync(join(root, dir), { recursive: true }).sort().join('\n')}`);
  for (const file of ['package.json', 'package-lock.json', 'knip.json', 'tsconfig.json']) hash.update(readFileSync(join(root, file)));
  const name = hash.digest('hex').slice(0, 16);
  const folder = cache('knip');
  let others: string[] = [];
  try {
    others = readdirSync(folder).filter((entry) => entry !== name);
  } catch {
    // No cache yet.
  }
  for (const other of others) rmSync(join(folder, other), { recursive: true, force: true });
  return join(folder, name);
}

describe('the code', () => {
  it('passes the linter (eslint.config.js; `npm run lint` shows the same)', async () => {
    const eslint = new ESLint({ cwd: root, cache: true, cacheLocation: cache('eslint'), cacheStrategy: 'content' });
    const results = await eslint.lintFiles(['.']);
    const problems = results.flatMap((result) =>
      result.messages.map((message) => `${result.filePath.slice(root.length)}:${message.line} ${message.ruleId ?? ''} ${message.message}`),
    );
    expect(problems).toEqual([]);
    expect(results.length).toBeGreaterThan(200);
  });

  it('keeps JSON pointers out of the domain: its errors name fields, the edge makes pointers (eslint.config.js)', async () => {
    const eslint = new ESLint({ cwd: root });
    const code = "export const a = '/data/attributes/weight';\nexport const b = (i: number) => `${i}/meta/colli`;\nexport const c = { attribute: 'weight' };\n";
    const [inDomain] = await eslint.lintText(code, { filePath: join(root, 'src/domain/example.ts') });
    expect(inDomain!.messages.map((message) => `${message.line} ${message.ruleId}`)).toEqual(['1 no-restricted-syntax', '2 no-restricted-syntax']);
    const [atTheEdge] = await eslint.lintText(code, { filePath: join(root, 'src/http/example.ts') });
    expect(atTheEdge!.messages).toEqual([]);
  });

  it("lints the API reference page's browser script with the browser's globals, not Node's (eslint.config.js)", async () => {
    const eslint = new ESLint({ cwd: root });
    const code = "'use strict';\nwindow.history.replaceState(null, '', document.title);\nprocess.exit(1);\n";
    const [inBrowser] = await eslint.lintText(code, { filePath: join(root, 'src/docs/browser/example.js') });
    expect(inBrowser!.messages.map((message) => `${message.line} ${message.ruleId}`)).toEqual(['3 no-undef']);
    const [served] = await eslint.lintFiles(['src/docs/browser/docs.js']);
    expect(served!.messages).toEqual([]);
  });

  it("type-checks the API reference page's browser script (src/docs/browser/tsconfig.json: // @ts-check, the DOM's types)", () => {
    const run = spawnSync(process.execPath, [tsc, '-p', 'src/docs/browser/tsconfig.json', '--singleThreaded'], { cwd: root, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('is formatted as Prettier writes it (.prettierrc.json; `npm run lint` checks the same)', () => {
    const run = spawnSync(
      process.execPath,
      ['node_modules/prettier/bin/prettier.cjs', '--list-different', '--cache', '--cache-strategy', 'content', '--cache-location', cache('prettier'), '.'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    // --list-different names every file whose text differs from what Prettier would write.
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([]);
    expect(run.status).toBe(0);
  });

  it('type-checks: src, the tests, the scripts and the bench (tsconfig.json; `npm run typecheck` shows the same)', () => {
    // `npm run build` emits without checking (tsc --noCheck), so that an install from git builds
    // in half the time: the check is here, and remembers what it found (--incremental), so a
    // warm run rechecks only what a change can reach.
    const run = spawnSync(
      process.execPath,
      [tsc, '-p', 'tsconfig.json', '--noEmit', '--singleThreaded', '--incremental', '--tsBuildInfoFile', join(cache('tsc'), 'tsconfig.tsbuildinfo')],
      { cwd: root, encoding: 'utf8' },
    );
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('exports nothing no other module uses, and depends on nothing it does not use (knip.json; `npm run lint` checks the same)', () => {
    const run = spawnSync(
      process.execPath,
      ['node_modules/knip/bin/knip.js', '--no-progress', '--reporter', 'compact', '--cache', '--cache-location', knipCache()],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    // knip lists each finding by file; nothing listed is an exit code of 0.
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([]);
    expect(run.status).toBe(0);
  });
});
