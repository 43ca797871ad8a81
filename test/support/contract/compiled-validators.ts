import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';

// ajv's standalone module is CommonJS: its default export is the function itself.
const standaloneCode = standalone as unknown as (ajv: Ajv2020, validate: ValidateFunction) => string;

/*
 * Compiling the contracts' validators was the largest single cost of the in-process tests: in a
 * profile of ten of those files, ajv's compiler took ~15 s of the worker's ~72 s of CPU (running the
 * validators took under 1 s), and every worker of a run compiled the same ones again. Each
 * validator is compiled once and kept as ajv's standalone code in .test-build/ (ignored by git),
 * named by a hash of everything it was compiled from, so a later worker, file or run loads it
 * instead. A changed schema, referenced schema or ajv is another hash: nothing stale is loaded.
 * The validators of one set of referenced schemas share a folder; only the few folders used last
 * are kept, so the cache does not grow with every change of the documents.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const CACHE = join(root, '.test-build', 'contract-validators');
const load = createRequire(import.meta.url);
const AJV_VERSION = (load('ajv/package.json') as { version: string }).version;

/** How many folders (sets of referenced schemas) are kept: the two contracts, and the two before them. */
const KEPT = 4;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Marks `dir` (in `folder`) as used now and removes all but the KEPT folders used last. */
function keepRecent(folder: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const now = new Date();
  utimesSync(dir, now, now);
  const folders = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    // A folder another run removes meanwhile counts as long unused.
    .map((entry) => ({ path: join(folder, entry.name), used: statSync(join(folder, entry.name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.used - a.used);
  for (const old of folders.slice(KEPT)) rmSync(old.path, { recursive: true, force: true });
}

/** Compiles schemas with `ajv` (made with `code.source`), or loads what an earlier compile of the same inputs kept. */
export class CompiledValidators {
  private readonly dir: string;

  /** `context` is what the code depends on besides each schema (the ajv settings, every schema it may `$ref`), as text: it names the folder. */
  constructor(
    private readonly ajv: Ajv2020,
    context: string,
    folder = CACHE,
  ) {
    this.dir = join(folder, sha256(`${AJV_VERSION} ${context}`));
    keepRecent(folder, this.dir);
  }

  compile(schema: Record<string, unknown>): ValidateFunction {
    const file = join(this.dir, `${sha256(JSON.stringify(schema))}.cjs`);
    if (existsSync(file)) return load(file) as ValidateFunction;
    const validate = this.ajv.compile(schema);
    // Written beside and renamed: another worker compiling the same schema meanwhile never reads half
    // a file. Keeping it is an optimisation: a folder another run removed meanwhile only loses it.
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(temporary, standaloneCode(this.ajv, validate));
      renameSync(temporary, file);
    } catch {
      rmSync(temporary, { force: true });
    }
    return validate;
  }
}
