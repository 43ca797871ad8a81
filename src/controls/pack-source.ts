// Where a pack of the controls comes from: inline in the body, or by name from the fixtures folders.
import { z } from 'zod';
import { lineAndColumn, syntaxProblem } from '../http/json-syntax.js';
import { ApiError, errorObject } from '../jsonapi/errors.js';
import type { Services } from '../http/services.js';
import { namedPackPath, packFolders, PACK_NAME } from '../fixtures/named-packs.js';
import { FixtureError, problemLine } from '../fixtures/problems.js';
import { readPack, type PackFile } from '../fixtures/read-pack.js';

/**
 * The most a body holding an inline pack may be. Every body holds at most 20,000 values (http/
 * json-depth.ts: MAX_ELEMENTS), which a pack reaches at about 600 KB; a larger pack is loaded
 * by name from the fixtures folder (up to 16 MiB).
 */
export const PACK_BODY_LIMIT = 1024 * 1024;

/** A pack in a request: its name under the fixtures folders, or the pack itself (fixtures/schema/pack.schema.json). */
export const packReference = z
  .union([
    z.string().min(1).max(64).describe('The name of a pack under the fixtures folder (GET /_sandbox/fixtures/packs lists them).'),
    z.record(z.string(), z.unknown()).describe('A pack: the members of fixtures/schema/pack.schema.json (`shops`, `contracts`, ...), checked as a whole.'),
  ])
  .meta({ id: 'SandboxFixturePackReference' });

/** Where JSON text first breaks the grammar, without quoting it. */
export function describeJsonSyntax(text: string): string {
  const found = syntaxProblem(text);
  if (!found) return 'Not JSON.';
  const { line, column } = lineAndColumn(text, found.position);
  return `Not JSON: ${found.problem} at line ${line}, column ${column} (character ${found.position + 1}).`;
}

/** The folders named packs come from: the `packs/` of --fixtures, then the package's fixtures/packs/. */
export const namedPackFolders = (services: Services) => packFolders(services.config.fixtures);

/**
 * The files of the pack a request gives: a pack object inline (problems name the file `pack` and
 * point into it), or the name of a pack under the fixtures folders (problems name its files).
 */
export async function packSource(services: Services, source: string | Record<string, unknown>): Promise<{ files: PackFile[]; name?: string }> {
  if (typeof source !== 'string') return { files: [{ name: 'pack', data: source }] };
  const path = namedPackPath(source, namedPackFolders(services));
  if (!path) {
    const why = PACK_NAME.test(source) ? 'is no pack under the fixtures folder' : 'is not a pack name (lower-case letters, digits, - and _)';
    throw new FixtureError([{ file: 'pack', pointer: '', detail: `'${source}' ${why}; GET /_sandbox/fixtures/packs lists them.` }]);
  }
  const { files, problems } = await readPack(path, `packs/${source}`, describeJsonSyntax);
  if (problems.length > 0) throw new FixtureError(problems);
  return { files, name: source };
}

/**
 * A refused pack as the controls answer it: 422, one error per problem, each naming the file and
 * the JSON pointer in `meta`; `source.pointer` points into the request body (into `/pack` itself
 * for an inline pack, at `/pack` for a named one).
 */
function packRefused(error: FixtureError): ApiError {
  const errors = error.problems.map((problem) =>
    errorObject('unprocessable', problemLine(problem), {
      source: { pointer: problem.file === 'pack' ? `/pack${problem.pointer}` : '/pack' },
      meta: { file: problem.file, pointer: problem.pointer },
    }),
  );
  return new ApiError(errors, { status: 422 });
}

/** Runs `work`, answering a refused pack with its 422. */
export async function refusingPacks<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FixtureError) throw packRefused(error);
    throw error;
  }
}
