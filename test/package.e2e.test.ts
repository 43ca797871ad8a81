import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readmeBlocks } from './support/readme.js';

/*
 * The package as a user gets it: `npm pack` (which builds it through `prepare`), installed from
 * the tarball into a new project next to vitest, and README.md's example test type-checked and
 * run there. It catches what the in-repo example cannot: a file left out of the tarball, an
 * export or type missing from dist/, a dependency only this repository has.
 *
 * It packs a copy of the sources, so it neither rebuilds this checkout's dist/ (under a running
 * `npm start`) nor leaves a tarball here. The install uses npm's cache first (--prefer-offline)
 * and the registry only for what the cache lacks.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
/** What `npm pack` needs to build and pack: the `files` of package.json come out of these. */
const SOURCES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'src', 'scripts', 'openapi', 'fixtures'];

/** This process's environment without what npm and vitest set for their children (a parent `npm test`'s prefix, vitest's worker ids). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|VITEST|TEST$|NODE_ENV$)/i.test(name)));
}

const exec = (file: string, args: string[], cwd: string) => run(file, args, { cwd, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 });

async function timed<T>(label: string, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await step();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

describe('the packed package, installed into a new project', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('runs the README example with vitest, after type-checking it', { timeout: 240_000 }, async () => {
    const work = await mkdtemp(join(tmpdir(), 'parcel-sandbox-package-'));
    dirs.push(work);
    const source = join(work, 'source');
    const project = join(work, 'project');
    await mkdir(source);
    await Promise.all(SOURCES.map((entry) => cp(join(root, entry), join(source, entry), { recursive: true })));
    await symlink(await realpath(join(root, 'node_modules')), join(source, 'node_modules'));

    await timed('npm pack (build included)', () => exec('npm', ['pack', '--pack-destination', work], source));
    const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
    expect(tarball, 'npm pack wrote a tarball').toBeDefined();

    await mkdir(join(project, 'test'), { recursive: true });
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'scratch-project', private: true, type: 'module' }));
    const vitest = (require('vitest/package.json') as { version: string }).version;
    await timed('npm install of the tarball and vitest', () =>
      exec('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', join(work, tarball!), `vitest@${vitest}`], project),
    );

    const example = readmeBlocks().filter((block) => block.lang === 'ts' && block.code.includes("from 'parcel-sandbox'"));
    expect(example, "README.md has one ```ts block importing 'parcel-sandbox'").toHaveLength(1);
    await writeFile(join(project, 'test', 'sandbox.test.ts'), example[0]!.code);

    // Types as the user's editor sees them: from the package's dist/, not from this repository.
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        typeRoots: [join(root, 'node_modules', '@types')],
        types: ['node'],
      },
      include: ['test'],
    };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    await timed('tsc on the example', () => exec(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], project));

    const { stdout } = await timed('vitest run of the example', () =>
      exec(process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], project),
    );
    // eslint-disable-next-line no-control-regex -- terminal escapes and control characters are what this looks for
    expect(stdout.replace(/\x1b\[[\d;]*m/g, '')).toMatch(/Tests\s+1 passed \(1\)/);
    const installed = JSON.parse(await readFile(join(project, 'node_modules', 'parcel-sandbox', 'package.json'), 'utf8')) as { version: string };
    expect(installed.version).toBe((JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string }).version);
  });
});
