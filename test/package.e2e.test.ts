import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readmeBlocks } from './support/readme.js';

/*
 * The package as a user gets it, both ways README.md gives. Installed from a git repository: npm
 * clones it, installs its dependencies and builds it (`postprepare`), then installs what it packs;
 * the bin and the library must run from there. Then `npm pack` of that built package, which must
 * hold the files npm installed and nothing a user does not run (the test prints its size and
 * files), installed from the tarball in place of the git install, beside vitest (this checkout's,
 * linked), and README.md's example test type-checked and run there. It catches what the in-repo
 * example cannot: a file left out of the package, an export or type missing from dist/, a dependency only this repository has, a
 * build that needs this checkout. Neither install may ask the user to approve a script of the
 * package's own or of a dependency.
 *
 * It works on a copy of the sources, so it neither rebuilds this checkout's dist/ (under a running
 * `npm start`) nor leaves a tarball here. The installs use npm's cache first (--prefer-offline)
 * and the registry only for what the cache lacks.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const tsc = join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');
/** What `npm pack` needs to build and pack: the `files` of package.json come out of these. */
const SOURCES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'src', 'scripts', 'fixtures'];

/** The packages npm's install-scripts warning names in `stderr`. */
function unapprovedScripts(stderr: string): string[] {
  return [...stderr.matchAll(/^npm warn install-scripts\s+(@?[^@\s]+)@\S+ \(/gm)].map((match) => match[1]!);
}

/** A copy of the sources in `dir`: what a clone of the repository holds that the build reads. */
async function copySources(dir: string): Promise<void> {
  await mkdir(dir);
  await Promise.all(SOURCES.map((entry) => cp(join(root, entry), join(dir, entry), { recursive: true })));
}

/** The README's example test, written into the project in `dir`. */
async function exampleTest(dir: string): Promise<void> {
  await mkdir(join(dir, 'test'), { recursive: true });
  const example = readmeBlocks().filter((block) => block.lang === 'ts' && block.code.includes("from 'parcel-sandbox'"));
  expect(example, "README.md has one ```ts block importing 'parcel-sandbox'").toHaveLength(1);
  await writeFile(join(dir, 'test', 'sandbox.test.ts'), example[0]!.code);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

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

// One build serves both ways of installing: npm builds the package in its clone of the git
// repository, and the tarball is packed from what that install put in node_modules (the files
// `npm pack` takes from a built clone, which is what a user's tarball holds). Built twice, once by
// each way, the two builds were ~40 s of CPU of this file's ~105 s, and its ~35 s of wall time the
// longest stretch of the suite.
describe('the package, installed from git into a new project and from a tarball', () => {
  const dirs: string[] = [];
  /** The tarball packed from the git install and the project it was installed in, for the second test. */
  const packedTarball = deferred<{ tarball: string; project: string }>();
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('installs from a git repository, which npm builds on install, and packs into a tarball of what runs', { timeout: 480_000 }, () =>
    settle(packedTarball, async () => {
      const work = await mkdtemp(join(tmpdir(), 'parcel-sandbox-git-'));
      dirs.push(work);
      const repository = join(work, 'repository');
      const project = join(work, 'project');
      await copySources(repository);
      const git = (args: string[]) => exec('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], repository);
      await git(['init', '-q', '-b', 'main']);
      await git(['add', '-A']);
      await git(['commit', '-q', '-m', 'the sources']);

      // Without vitest beside it: the tarball's test below runs the README example.
      await mkdir(project);
      await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'scratch-project', private: true, type: 'module' }));
      // npm clones it, installs its dependencies and runs its postprepare (the build), then packs it.
      const installed = await timed('npm install from git (its dependencies and build included)', () =>
        exec('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', `git+file://${repository}`], project),
      );
      // No install script to approve, the package's own or a dependency's (swagger-ui-dist's @scarf/scarf was one).
      expect(unapprovedScripts(installed.stderr)).toEqual([]);
      const installedDir = join(project, 'node_modules', 'parcel-sandbox');
      const files = await filesUnder(installedDir);
      expect(files).toContain('dist/server/main.js');
      expect(files.filter((name) => name.endsWith('.map'))).toEqual([]);
      expect((await exec(join(project, 'node_modules', '.bin', 'parcel-sandbox'), ['--version'], project)).stdout).toBe(`${version()}\n`);
      // The library answers as installed: a sandbox made in-process serves its token endpoint.
      const served = await exec(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "const { createSandbox } = await import('parcel-sandbox'); const sandbox = await createSandbox();" +
            " const answer = await sandbox.request('/carriers', { headers: { authorization: 'Bearer ' + (await sandbox.token()) } });" +
            ' console.log(answer.status, (await answer.json()).data.length > 0); await sandbox.close();',
        ],
        project,
      );
      expect(served.stdout).toBe('200 true\n');
      // A CommonJS project (Mocha, a plain script) requires it: Node 20.19 and later load an ES
      // module graph without top-level await through require().
      const required = await exec(
        process.execPath,
        [
          '-e',
          "const { createSandbox } = require('parcel-sandbox'); createSandbox().then(async (sandbox) => {" +
            " const answer = await sandbox.request('/carriers', { headers: { authorization: 'Bearer ' + (await sandbox.token()) } });" +
            ' console.log(answer.status); await sandbox.close(); });',
        ],
        project,
      );
      expect(required.stdout).toBe('200\n');

      // The tarball: `npm pack` of the built package. Packed from the installed copy, it must hold
      // the same files that npm put there from its clone.
      const [listed] = JSON.parse((await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], installedDir)).stdout) as {
        filename: string;
        unpackedSize: number;
        entryCount: number;
        files: { path: string; size: number }[];
      }[];
      const tarball = join(work, listed!.filename);
      console.log(`tarball: ${mb((await stat(tarball)).size)}, unpacks to ${mb(listed!.unpackedSize)} in ${listed!.entryCount} files`);
      const paths = listed!.files.map((file) => file.path);
      expect([...paths].sort()).toEqual(files);
      // What the tarball holds: the bundled server (the bin), the library with its types, the README and package.json.
      expect(
        paths.filter(
          (path) =>
            !/^(package\.json|README\.md|dist\/server\/[\w-]+\.js|dist\/src\/[\w/.-]+\.(js|d\.ts)|dist\/src\/openapi\/documented-answers\.json|dist\/swagger-ui\/(swagger-ui-bundle\.js|swagger-ui\.css|favicon-(16x16|32x32)\.png|LICENSE|NOTICE)|dist\/docs-browser\/docs\.(js|css)|fixtures\/[\w/.-]+\.json)$/.test(
              path,
            ),
        ),
      ).toEqual([]);
      expect(paths).toContain('dist/server/main.js');
      expect(paths).toContain('dist/src/index.js');
      expect(paths).toContain('dist/src/index.d.ts');
      expect(paths).toContain('dist/swagger-ui/swagger-ui-bundle.js');
      expect(paths).toContain('dist/docs-browser/docs.js');
      // Before it was trimmed: 21.8 MB in 1,067 files, 12 MB of them source maps, and openapi/openapi.json.
      expect(listed!.unpackedSize).toBeLessThan(12 * 1024 * 1024);
      return { tarball, project };
    }),
  );

  it('runs the README example with vitest from the tarball, after type-checking it', { timeout: 480_000 }, async () => {
    // The tarball replaces the git install in the same project: what npm unpacks and links for the
    // package is the same as in a new one, and its dependencies are already there (a new project
    // installed them again from npm's cache: ~8 s of wall time and ~10 s of CPU of this file's ~70).
    const { tarball, project } = await packedTarball.promise;
    await exampleTest(project);
    const installed = await timed('npm install of the tarball', () =>
      exec('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', tarball], project),
    );
    // vitest beside it is this checkout's, linked: installing its ~50 MB (vite, rolldown, lightningcss)
    // from npm's cache was ~15 s of this file's ~85 s of CPU and tests npm, not this package. Node
    // resolves the link to its real path, so vitest's own dependencies come from this checkout too.
    await symlink(dirname(require.resolve('vitest/package.json')), join(project, 'node_modules', 'vitest'), 'dir');
    // No install script to approve, the package's own or a dependency's.
    expect(unapprovedScripts(installed.stderr)).toEqual([]);
    expect(installed.stderr).not.toMatch(/parcel-sandbox@\S+ \((prepare|postinstall|install|preinstall)/);
    // The bin runs as installed: nothing is built on the user's machine.
    expect((await exec(join(project, 'node_modules', '.bin', 'parcel-sandbox'), ['--version'], project)).stdout).toBe(`${version()}\n`);

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
    // TypeScript 7's native compiler, as the project's own type check runs it: the same errors, a tenth of the CPU.
    await timed('tsc on the example', () => exec(process.execPath, [tsc, '-p', 'tsconfig.json', '--singleThreaded'], project));

    const { stdout } = await timed('vitest run of the example', () =>
      exec(process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], project),
    );
    // eslint-disable-next-line no-control-regex -- terminal escapes and control characters are what this looks for
    expect(stdout.replace(/\x1b\[[\d;]*m/g, '')).toMatch(/Tests\s+1 passed \(1\)/);
    const manifest = JSON.parse(await readFile(join(project, 'node_modules', 'parcel-sandbox', 'package.json'), 'utf8')) as { version: string };
    expect(manifest.version).toBe(version());
    // What ran was the tarball's copy: the project now depends on the file, not on the repository.
    const own = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(own.devDependencies['parcel-sandbox']).toMatch(/^file:.*\.tgz$/);

    // The library (dist/src) serves the API reference page's own script and styles from the package.
    const served = await exec(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const { createSandbox } = await import('parcel-sandbox'); const sandbox = await createSandbox();" +
          " for (const name of ['docs.js', 'docs.css']) { const answer = await sandbox.request('/docs/assets/' + name);" +
          " console.log(name, answer.status, (await answer.text()).split('\\n')[0]); }",
      ],
      project,
    );
    expect(served.stdout).toMatch(/^docs\.js 200 \/\/ @ts-check\ndocs\.css 200 \/\* Styles/);
  });
});

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

/** A promise settled from outside (Promise.withResolvers is Node 22's). */
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  // A test that fails before it settles the other's promise must not leave it unhandled.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** Runs a test's body and hands its result to `into`, or its failure, so a test waiting on it never hangs. */
async function settle<T>(into: Deferred<T>, body: () => Promise<T>): Promise<void> {
  try {
    into.resolve(await body());
  } catch (error) {
    into.reject(error);
    throw error;
  }
}

/** Every file under `dir`, as sorted paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The version in this checkout's package.json. */
function version(): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}
