// Bundles the current sources as `npm run build` does, into a cache of the bench's own, so it measures what users run without touching dist/.
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILD_DIR, ENTRY, ROOT } from './options.js';
import { log, run } from './processes.js';

/** Resolves with a warning when tsc finds type errors: the bundle is measured anyway. */
export async function build(): Promise<string | undefined> {
  if (ENTRY !== 'build') return undefined;
  log('building the sandbox as npm run build does (esbuild bundles; tsc checks the types beside it) into .bench-build');
  await rm(BUILD_DIR, { recursive: true, force: true });
  const bundled = await run(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs'), '--outdir', join(BUILD_DIR, 'server')]);
  const main = join(BUILD_DIR, 'server', 'main.js');
  const built = await stat(main).then(
    () => true,
    () => false,
  );
  if (!built) throw new Error(`the bundle produced no ${main}:\n${bundled.stdout}`);
  // The compiler `npm run typecheck` runs (TypeScript 7's, package.json's `typescript-native`).
  const tsc = join(ROOT, 'node_modules', 'typescript-native', 'bin', 'tsc');
  const { code, stdout } = await run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noEmit']);
  if (code !== 0) {
    const warning = `tsc reported type errors (the bundle was built and is measured):\n${stdout.split('\n').slice(0, 10).join('\n')}`;
    log(warning);
    return warning;
  }
  return undefined;
}
