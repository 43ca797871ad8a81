/**
 * Writes what the bundled server needs at run time, and nothing else, into one folder: the Docker
 * image's /app. That is package.json (for "type": "module"), the fixtures (the base set and the
 * shipped packs, which the server finds beside its package), the bundle without its source maps
 * (Node reads them only with --enable-source-maps) and a node_modules holding the EXTERNAL packages
 * of scripts/bundle.mjs with their production dependencies, as npm laid them out, less the files
 * no program reads (source maps, TypeScript sources and declarations, Markdown, dot folders).
 *
 * test/bundle.e2e.test.ts runs the server from such a folder, so a package or a file the image
 * lacks fails a test instead of a label request in a container.
 *
 *   node scripts/runtime-tree.mjs --out dir [--server dist/server]
 */
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { EXTERNAL } from './bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const UNREAD = /\.(map|ts|mts|cts|md|markdown)$/i;

/**
 * Packages of which the server reads only a few files (besides package.json, which locates them),
 * so the image holds just those: 2 of DejaVu's 21 fonts (src/domain/labels/fonts.ts).
 */
const ONLY = {
  'dejavu-fonts-ttf': ['ttf/DejaVuSans.ttf', 'ttf/DejaVuSans-Bold.ttf'],
};

/** The folder of package `name` as Node finds it from `from`: the nearest node_modules upwards. */
function locate(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (relative(root, dir) === '' || dirname(dir) === dir) return undefined;
  }
}

/** The folders of `names` and of everything they depend on (optional dependencies when installed). */
async function closure(names) {
  const found = new Set();
  const visit = async (name, from, optional) => {
    const dir = locate(name, from);
    if (!dir) {
      if (optional) return;
      throw new Error(`${name} (needed from ${relative(root, from) || '.'}) is not installed: run npm ci`);
    }
    if (found.has(dir)) return;
    found.add(dir);
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    for (const dependency of Object.keys(manifest.dependencies ?? {})) await visit(dependency, dir, false);
    for (const dependency of Object.keys(manifest.optionalDependencies ?? {})) await visit(dependency, dir, true);
  };
  for (const name of names) await visit(name, root, false);
  return [...found].sort();
}

export async function writeRuntimeTree(out, server = join(root, 'dist', 'server')) {
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  await cp(join(root, 'package.json'), join(out, 'package.json'));
  await cp(join(root, 'fixtures'), join(out, 'fixtures'), { recursive: true });
  const skip = (source) => !UNREAD.test(source) || basename(source) === 'package.json';
  await cp(server, join(out, 'dist', 'server'), { recursive: true, filter: skip });
  // The API reference page's assets, copied beside the bundle by scripts/bundle.mjs.
  for (const folder of ['swagger-ui', 'docs-browser']) await cp(join(dirname(server), folder), join(out, 'dist', folder), { recursive: true });
  const packages = await closure(EXTERNAL);
  for (const dir of packages) {
    const only = ONLY[relative(join(root, 'node_modules'), dir)];
    const target = join(out, relative(root, dir));
    if (only) {
      for (const file of ['package.json', ...only]) await cp(join(dir, file), join(target, file));
      continue;
    }
    // A package's nested node_modules holds packages of their own, copied when they are needed;
    // dot folders hold tooling (pdfkit ships a 3 MB yarn release in .yarn).
    const own = (source) =>
      !relative(dir, source)
        .split(sep)
        .some((part) => part === 'node_modules' || part.startsWith('.'));
    await cp(dir, target, { recursive: true, filter: (source) => skip(source) && own(source) });
  }
  return packages.map((dir) => relative(join(root, 'node_modules'), dir));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, server: { type: 'string' } } });
  if (!values.out) throw new Error('usage: node scripts/runtime-tree.mjs --out dir [--server dist/server]');
  const packages = await writeRuntimeTree(resolve(values.out), values.server && resolve(values.server));
  console.log(`runtime tree in ${values.out}: the server bundle and ${packages.length} packages`);
}
