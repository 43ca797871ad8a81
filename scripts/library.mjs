/**
 * Writes the library (what `import { createSandbox } from 'parcel-sandbox'` loads) into dist/src/:
 * each source file of src/ transpiled on its own by esbuild, with its source map, and the JSON
 * files the sources import. tsc writes only the declarations beside them (`--emitDeclarationOnly`):
 * it took ~11 s to write both and ~8.7 s for the declarations alone; esbuild takes well under a
 * second for the JavaScript. tsconfig.json's `isolatedModules` and `verbatimModuleSyntax` are what
 * make a file transpile alone to what tsc would write. The target is the oldest Node the package
 * supports (`engines`): an ES2022 target would drop the import attributes (`with { type: 'json' }`)
 * that Node needs to import JSON.
 *
 *   node scripts/library.mjs
 */
import { build } from 'esbuild';
import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The page's browser script is not the library's: bundle.mjs copies it (dist/docs-browser/). */
const NOT_LIBRARY = /^docs\/browser\/|\.test\.ts$|\.d\.ts$/;

async function library(source, outdir) {
  const files = (await readdir(source, { recursive: true })).filter((file) => !NOT_LIBRARY.test(file));
  await build({
    entryPoints: files.filter((file) => file.endsWith('.ts')).map((file) => join(source, file)),
    outdir,
    outbase: source,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: true,
    logLevel: 'warning',
  });
  await Promise.all(files.filter((file) => file.endsWith('.json')).map((file) => cp(join(source, file), join(outdir, file))));
}

await library('src', 'dist/src');
