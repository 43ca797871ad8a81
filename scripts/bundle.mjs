/**
 * Bundles the server (the CLI entry, src/main.ts) into dist/server/ for `npm start`, the `bin` and
 * the Docker image. Node spends most of a cold start resolving and compiling a few hundred small
 * ES modules (ours, zod, jose, hono); one bundle halves the time to the first answer. The library
 * entry (`import { createSandbox } from 'parcel-sandbox'`) stays the plain tsc output in dist/src.
 *
 * Only the packages every start loads are bundled (an allow-list, so a new dependency is never
 * bundled by surprise); the others are loaded on demand (labels, fixtures, JSON Schema, the
 * OpenAPI builder, pretty logs) or read files beside their own code (pdfkit's fonts, swagger-ui's
 * assets), and the bundle imports them from node_modules as usual.
 *
 *   node scripts/bundle.mjs [--outdir dir]
 */
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';

export const BUNDLED = ['zod', 'hono', '@hono/node-server', 'jose', 'lowdb', 'steno'];

/** The package a bare import specifier names: `@scope/name` or `name`. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const onlyAllowListed = {
  name: 'only-allow-listed-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || BUNDLED.includes(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function bundle(outdir) {
  // Chunk names carry content hashes: chunks of an earlier build would pile up.
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: ['src/main.ts'],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [onlyAllowListed],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist/server' } } });
  await bundle(values.outdir);
}
