import type { z } from 'zod';
import { readableIssue } from '../model/readable-issues.js';
import { ApiError, errorObject, toPointer, type ErrorObject } from './errors.js';

/** The member an issue concerns, as a reader names it: `weight`, `tags[0]`, `filter[has_errors]`. */
function fieldOf(path: readonly PropertyKey[]): string {
  const last = path[path.length - 1];
  if (last === undefined) return 'body';
  if (typeof last === 'number' && path.length > 1) return `${String(path[path.length - 2])}[${last}]`;
  return String(last);
}

/** Readable detail for one schema issue, naming the field it concerns. */
function detailOf(issue: z.core.$ZodIssue, field: string): string {
  if (issue.code === 'unrecognized_keys') return `'${field}' is not a known member here.`;
  const message = issue.message.replace(/\.$/, '');
  // Messages written as a predicate ("must be ...", "is required") read as a sentence after the name.
  return /^(is|must|should|cannot|does|has) /.test(message) ? `'${field}' ${message}.` : `'${field}': ${message}.`;
}

/**
 * At most this many violations are listed for one request part. A real request has a few (a
 * form filled in wrong has a dozen or two); 100 keep every such list whole, while a body of
 * 20,000 unknown members gets 101 errors (about 20 KB) instead of 20,000 (megabytes).
 */
const MAX_ERRORS = 100;

/** How many errors `issues` make: one per issue, one per unknown key. */
function countErrors(issues: readonly z.core.$ZodIssue[]): number {
  let count = 0;
  for (const issue of issues) count += issue.code === 'unrecognized_keys' ? issue.keys.length : 1;
  return count;
}

const pathKey = (path: readonly PropertyKey[]) => JSON.stringify(path.map(String));
const bound = (issue: z.core.$ZodIssue) => Number(issue.code === 'too_big' ? issue.maximum : issue.code === 'too_small' ? issue.minimum : 0);

/**
 * The issues worth telling: zod reports every check a value fails, so 1e20 as an int32 is both
 * above 2147483647 and above the largest safe integer, and '' is both empty and off its pattern.
 * One bound per side is kept, the tightest, and an empty text is only said to be empty.
 */
function telling(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const tightest = new Map<string, z.core.$ZodIssue>();
  const empty = new Set<string>();
  for (const issue of issues) {
    if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1) empty.add(pathKey(issue.path));
    if ((issue.code !== 'too_big' && issue.code !== 'too_small') || issue.exact) continue;
    const key = `${issue.code} ${pathKey(issue.path)}`;
    const kept = tightest.get(key);
    if (!kept || (issue.code === 'too_big' ? bound(issue) < bound(kept) : bound(issue) > bound(kept))) tightest.set(key, issue);
  }
  return issues.filter((issue) => {
    if (issue.code === 'invalid_format' && empty.has(pathKey(issue.path))) return false;
    if ((issue.code === 'too_big' || issue.code === 'too_small') && !issue.exact) return tightest.get(`${issue.code} ${pathKey(issue.path)}`) === issue;
    return true;
  });
}

/**
 * One 400/10003 error per schema violation, the first MAX_ERRORS of them; past that, one more
 * error says how many were left out (`meta.more_errors`). Body issues point into the document
 * (`source.pointer`), query issues name the parameter (`source.parameter`).
 */
function schemaErrors(error: z.ZodError, where: 'pointer' | 'parameter' | 'header', prefix: readonly (string | number)[] = []): ErrorObject[] {
  const errors: ErrorObject[] = [];
  // A header the API cannot use is an Invalid Request Header (10004), as production names it.
  const kind = where === 'header' ? 'invalidHeader' : 'invalidSchema';
  const status = where === 'header' ? { status: 400 } : {};
  const issues = telling(error.issues);
  for (const issue of issues) {
    const paths = issue.code === 'unrecognized_keys' ? issue.keys.slice(0, MAX_ERRORS - errors.length).map((key) => [...issue.path, key]) : [issue.path];
    for (const path of paths) {
      const full = [...prefix, ...path];
      const parameter = String(full[0] ?? '');
      const source = where === 'pointer' ? { pointer: toPointer(full) } : where === 'header' ? { header: parameter } : { parameter };
      errors.push(errorObject(kind, detailOf(issue, where === 'pointer' ? fieldOf(full) : parameter), { source, ...status }));
    }
    if (errors.length >= MAX_ERRORS) break;
  }
  const total = countErrors(issues);
  if (total > errors.length) {
    const more = total - errors.length;
    errors.push(
      errorObject(kind, `${more} more violations are not listed: the first ${errors.length} of ${total} are above.`, {
        ...(where === 'pointer' ? { source: { pointer: toPointer([...prefix]) } } : {}),
        meta: { more_errors: more, total_errors: total },
        ...status,
      }),
    );
  }
  return errors;
}

/** Parses a request part with readable messages, or throws one 400/10003 error per violation. */
export function validated<T>(schema: z.ZodType<T>, input: unknown, where: 'pointer' | 'parameter' | 'header', prefix: readonly (string | number)[] = []): T {
  const result = schema.safeParse(input, { error: readableIssue });
  if (!result.success) throw new ApiError(schemaErrors(result.error, where, prefix));
  return result.data;
}
