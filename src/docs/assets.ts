import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EncodedBody } from './encoded.js';

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const PNG = 'image/png';

/** Media types the asset endpoint can answer with (for `Accept` negotiation and the OpenAPI document). */
export const assetMediaTypes = ['text/javascript', 'text/css', 'image/png'] as const;

export interface Asset {
  contentType: string;
  bytes: Uint8Array;
  /** Short content hash: the `v` query of the page's links and the ETag. */
  version: string;
  etag: string;
  /** The bytes with their compressed forms. */
  body: EncodedBody;
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The folder `name` holding `file` that the build copies beside the compiled code (dist/<name>/,
 * found upwards from this module: dist/server or dist/src/docs), which is what the package and
 * the image ship; `undefined` when this module runs from the sources (tsx, tests).
 */
function builtCopy(name: string, file: string): string | undefined {
  for (let dir = here; dirname(dir) !== dir; dir = dirname(dir)) {
    if (basename(dir) === 'src' && existsSync(join(dir, 'docs', 'assets.ts'))) return undefined;
    const candidate = join(dir, name);
    if (existsSync(join(candidate, file))) return candidate;
  }
  return undefined;
}

const folders = new Map<string, string>();

/** A folder found once and then remembered. */
function folder(name: string, find: () => string): string {
  let found = folders.get(name);
  if (found === undefined) folders.set(name, (found = find()));
  return found;
}

/** Swagger UI's files: the build's copy, or from the sources the installed swagger-ui-dist (a development dependency). */
const swaggerUiDir = () =>
  folder(
    'swagger-ui',
    () => builtCopy('swagger-ui', 'swagger-ui-bundle.js') ?? dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')),
  );

/**
 * The page's own script and styles: the build's copy (dist/docs-browser/, made by scripts/bundle.mjs),
 * or from the sources src/docs/browser/ beside this module. They are served as they are written.
 */
const pageDir = () => folder('docs-browser', () => builtCopy('docs-browser', 'docs.js') ?? join(here, 'browser'));

type Source = { contentType: string; load(): Uint8Array };

const fromSwaggerUi = (file: string, contentType: string): Source => ({ contentType, load: () => readFileSync(join(swaggerUiDir(), file)) });
const fromPage = (file: string, contentType: string): Source => ({ contentType, load: () => readFileSync(join(pageDir(), file)) });

/**
 * Every file served under `/docs/assets/`: a whitelist, so nothing else of `node_modules` is
 * reachable. The two `docs.*` files are the sandbox's own (token helper and header bar, in src/docs/browser/).
 */
const sources: Record<string, Source> = {
  'swagger-ui-bundle.js': fromSwaggerUi('swagger-ui-bundle.js', JS),
  'swagger-ui.css': fromSwaggerUi('swagger-ui.css', CSS),
  'favicon-32x32.png': fromSwaggerUi('favicon-32x32.png', PNG),
  'favicon-16x16.png': fromSwaggerUi('favicon-16x16.png', PNG),
  'docs.js': fromPage('docs.js', JS),
  'docs.css': fromPage('docs.css', CSS),
};

export const assetNames: readonly string[] = Object.keys(sources);

const loaded = new Map<string, Asset>();

/** The asset called `name`, read (once, on first use) and hashed; `undefined` for any other name. */
export function asset(name: string): Asset | undefined {
  if (!Object.hasOwn(sources, name)) return undefined;
  let found = loaded.get(name);
  if (!found) {
    const source = sources[name]!;
    const bytes = new Uint8Array(source.load());
    const version = createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
    const body = new EncodedBody(bytes, source.contentType);
    found = { contentType: source.contentType, bytes, version, etag: body.etag, body };
    loaded.set(name, found);
  }
  return found;
}

/** Path of an asset relative to the `/docs` page, with its content version for cache busting. */
export function assetHref(name: string): string {
  const found = asset(name);
  if (!found) throw new Error(`no docs asset named ${name}`);
  return `docs/assets/${name}?v=${found.version}`;
}
