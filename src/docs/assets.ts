import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsScript, docsStyle } from './client.js';
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

let swaggerUiFolder: string | undefined;

/**
 * Where Swagger UI's files are: the copy the build puts beside the compiled code (dist/swagger-ui/,
 * found upwards from this module: dist/server or dist/src/docs), which is what the package and the
 * image ship; from the sources (tsx, tests), the installed swagger-ui-dist, a development dependency.
 */
function swaggerUiDir(): string {
  if (swaggerUiFolder) return swaggerUiFolder;
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    if (basename(dir) === 'src' && existsSync(join(dir, 'docs', 'assets.ts'))) break;
    const candidate = join(dir, 'swagger-ui');
    if (existsSync(join(candidate, 'swagger-ui-bundle.js'))) return (swaggerUiFolder = candidate);
  }
  return (swaggerUiFolder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')));
}

type Source = { contentType: string; load(): Uint8Array | string };

const fromSwaggerUi = (file: string, contentType: string): Source => ({ contentType, load: () => readFileSync(join(swaggerUiDir(), file)) });

/**
 * Every file served under `/docs/assets/`: a whitelist, so nothing else of `node_modules` is
 * reachable. The two `docs.*` files are the sandbox's own (token helper and header bar).
 */
const sources: Record<string, Source> = {
  'swagger-ui-bundle.js': fromSwaggerUi('swagger-ui-bundle.js', JS),
  'swagger-ui.css': fromSwaggerUi('swagger-ui.css', CSS),
  'favicon-32x32.png': fromSwaggerUi('favicon-32x32.png', PNG),
  'favicon-16x16.png': fromSwaggerUi('favicon-16x16.png', PNG),
  'docs.js': { contentType: JS, load: () => docsScript },
  'docs.css': { contentType: CSS, load: () => docsStyle },
};

export const assetNames: readonly string[] = Object.keys(sources);

const loaded = new Map<string, Asset>();

/** The asset called `name`, read (once, on first use) and hashed; `undefined` for any other name. */
export function asset(name: string): Asset | undefined {
  if (!Object.hasOwn(sources, name)) return undefined;
  let found = loaded.get(name);
  if (!found) {
    const source = sources[name]!;
    const content = source.load();
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content);
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
