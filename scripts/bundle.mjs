/**
 * Bundles the server (the CLI entry, src/main.ts) into dist/server/ for `npm start`, the `bin` and
 * the Docker image. Node spends most of a cold start resolving and compiling a few hundred small
 * ES modules (ours, zod, jose, hono); one bundle halves the time to the first answer. The library
 * entry (`import { createSandbox } from 'parcel-sandbox'`) stays a file for each source file in dist/src
 * (scripts/library.mjs).
 *
 * Every package is classified (a new dependency fails the build until it is, so none is bundled
 * or left out by surprise):
 * - BUNDLED: plain JavaScript. Those every start loads are in the main chunks; those loaded on
 *   demand (fixtures, labels, logos, the OpenAPI builder) are in chunks of their own, loaded when
 *   first needed, so bundling them costs the start nothing. A bundle holds only the code reached
 *   (one of bwip-js's builds, four of faker's locales), which keeps the Docker image small.
 * - EXTERNAL: loaded from node_modules at run time, because they read files beside their own code
 *   (pdfkit's font metrics, the DejaVu fonts and the country code table, all read as files or
 *   through createRequire), load synchronously through createRequire (ajv), or
 *   start worker threads from files of their own (pino). scripts/runtime-tree.mjs copies them,
 *   with their dependencies, into the Docker image.
 *
 *   node scripts/bundle.mjs [--outdir dir]
 */
import { build } from 'esbuild';
import { cp, mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const BUNDLED = [
  ...['zod', 'hono', '@hono/node-server', 'jose', 'lowdb'],
  ...['@faker-js/faker', 'bwip-js', 'pngjs', 'pureimage', 'file-type', 'is-svg', 'openapi3-ts'],
];

export const EXTERNAL = ['pdfkit', 'dejavu-fonts-ttf', 'i18n-iso-countries', 'ajv', 'ajv-formats', 'pino'];

/** The package a bare import specifier names: `@scope/name` or `name`. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Bundled CommonJS packages (pngjs, yaml) require() Node's built-in modules. An ES module has no
 * require(), so esbuild's stand-in would throw 'Dynamic require of "zlib" is not supported' when
 * they load; process.getBuiltinModule (Node 20.16 and later) hands them the module instead.
 */
const builtinRequire = {
  name: 'builtin-require',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'require-call' && isBuiltin(args.path) ? { path: args.path, namespace: 'builtin' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * zod's `z.locales` namespace holds its messages in ~50 languages; the sandbox answers in English
 * only (zod registers `en` itself on the first schema) and never calls `z.config(z.locales.xx())`.
 * Bundled whole, the other languages were 356 KB of the 1,920 KB every start parses and compiles
 * (code loaded at start 1,920 -> 1,564 KB, zod's chunk 738 -> 382 KB); this keeps `locales.en` alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes('/node_modules/zod/') ? { path: join(dirname(args.importer), '../locales/index.js'), namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

const classified = {
  name: 'classified-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = packageOf(args.path);
      if (isBuiltin(args.path) || BUNDLED.includes(name)) return undefined;
      if (EXTERNAL.includes(name)) return { path: args.path, external: true };
      // Packages that BUNDLED packages import are bundled with them.
      if (!args.importer.includes('/node_modules/')) {
        return { errors: [{ text: `${name} is neither BUNDLED nor EXTERNAL in scripts/bundle.mjs: add it to one of them` }] };
      }
      return undefined;
    });
  },
};

/**
 * The files of Swagger UI the API reference page serves (src/docs/assets.ts), with its licence. They
 * are copied beside the bundle (dist/swagger-ui/) rather than installed with the package:
 * swagger-ui-dist depends on @scarf/scarf, an install script every user of the package would be
 * asked to approve, so it is a development dependency only.
 */
export const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'favicon-16x16.png', 'LICENSE', 'NOTICE'];

/** Copies SWAGGER_UI_FILES from the installed swagger-ui-dist into `target`. */
export async function copySwaggerUi(target) {
  const from = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  for (const file of SWAGGER_UI_FILES) await cp(join(from, file), join(target, file));
}

/**
 * The API reference page's own script and styles (src/docs/browser/), plain files served as they
 * are written: copied beside the bundle (dist/docs-browser/), where src/docs/assets.ts finds them
 * from the bundle and from the compiled library alike. Their tsconfig.json and declarations stay
 * behind (they only type-check the script).
 */
export const PAGE_FILES = ['docs.js', 'docs.css'];

/** Copies PAGE_FILES from src/docs/browser into `target`. */
export async function copyPageFiles(target) {
  const from = fileURLToPath(new URL('../src/docs/browser/', import.meta.url));
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  for (const file of PAGE_FILES) await cp(join(from, file), join(target, file));
}

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
    plugins: [builtinRequire, classified, zodEnglishOnly],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // Beside the bundle's folder: dist/server -> dist/swagger-ui and dist/docs-browser, where src/docs/assets.ts looks.
  await copySwaggerUi(join(dirname(outdir), 'swagger-ui'));
  await copyPageFiles(join(dirname(outdir), 'docs-browser'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist/server' } } });
  await bundle(values.outdir);
}
