import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server bundle of this run (`<dir>/server/main.js`), what the end-to-end tests start. */
    cliEntry: string;
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles the server once per run from the current sources, as `npm run build` bundles
 * dist/server for `npm start`, the `bin` and the Docker image; every end-to-end test starts that
 * bundle. Starting the CLI from source through tsx took ~4 s of CPU (tsx compiles a few hundred
 * modules on every start), the bundle ~1 s, and the suite starts the CLI about 80 times.
 * The folder is inside the checkout so that the packages the bundle leaves out resolve from
 * node_modules, and of this run alone so that two runs never build over each other.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await mkdir(join(root, '.test-build'), { recursive: true });
  const dir = await mkdtemp(join(root, '.test-build', 'run-'));
  execFileSync(process.execPath, ['scripts/bundle.mjs', '--outdir', join(dir, 'server')], { cwd: root, stdio: 'pipe' });
  project.provide('cliEntry', join(dir, 'server', 'main.js'));
  return () => rm(dir, { recursive: true, force: true });
}
