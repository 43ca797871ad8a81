import type { z } from 'zod';
import { ApiError, errorObject, toPointer, type ErrorObject } from './errors.js';

type RawIssue = z.core.$ZodRawIssue;

/** How a JSON value is called in messages: `a string`, `an object`, `null`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Whether a number schema only takes integers: `z.int()`, or `z.number().int()` (a check). */
function isInteger(schema: unknown): boolean {
  const def = (schema as { _zod?: { def?: { format?: string; checks?: { _zod: { def: { format?: string } } }[] } } })?._zod?.def;
  const integral = (format?: string) => format !== undefined && /int/.test(format);
  return integral(def?.format) || (def?.checks ?? []).some((check) => integral(check._zod.def.format));
}

/** The type a schema expected, as a noun phrase. */
function expectedOf(issue: { expected: string; inst?: unknown }): string {
  switch (issue.expected) {
    case 'number':
      return isInteger(issue.inst) ? 'an integer' : 'a number';
    case 'int':
    case 'bigint':
      return 'an integer';
    case 'object':
    case 'record':
      return 'an object';
    case 'array':
    case 'tuple':
      return 'an array';
    case 'null':
      return 'null';
    default:
      return /^[aeiou]/.test(issue.expected) ? `an ${issue.expected}` : `a ${issue.expected}`;
  }
}

const quote = (value: unknown) => (typeof value === 'string' ? `'${value}'` : String(value));
const oneOf = (values: readonly unknown[]) => (values.length === 1 ? quote(values[0]) : `one of ${values.map(quote).join(', ')}`);
const listing = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`);

/** The types a plain union (`string | number | ...`) takes, when every branch failed on the type alone. */
function unionTypes(issue: RawIssue & { code: 'invalid_union' }): string[] | undefined {
  const branches = issue.errors.map((branch) =>
    branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0 ? branch[0] : undefined,
  );
  if (branches.length === 0 || branches.some((branch) => branch === undefined)) return undefined;
  return [...new Set(branches.map((branch) => expectedOf(branch as { expected: string })))];
}

/**
 * Messages for the issues zod words for programmers, as a parse-level error map: a schema's own
 * message still wins. It sees the input, which finished issues do not carry, and so tells a
 * missing member ("is required") from one of the wrong type ("must be an integer, not a string").
 */
function readableIssue(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${expectedOf(issue)}, not ${kindOf(issue.input)}`;
    case 'invalid_value':
      return issue.input === undefined ? 'is required' : `must be ${oneOf(issue.values)}`;
    case 'invalid_union': {
      if (issue.discriminator !== undefined) {
        const value = (issue.input as Record<string, unknown> | undefined)?.[issue.discriminator];
        return value === undefined ? 'is required' : `must be ${oneOf((issue.options ?? []) as unknown[])}`;
      }
      if (issue.input === undefined) return 'is required';
      const types = unionTypes(issue);
      return types ? `must be ${listing(types)}, not ${kindOf(issue.input)}` : 'does not match any of the forms this member takes';
    }
    case 'too_small':
    case 'too_big':
      return boundOf(issue);
    case 'invalid_format':
      return formats[issue.format] ?? (issue.format === 'regex' && issue.pattern ? `must match the pattern ${issue.pattern}` : undefined);
    default:
      return undefined;
  }
}

/** What a string of a checked format must be ("Invalid email address" is zod's). */
const formats: Record<string, string> = { email: 'must be an e-mail address', url: 'must be a URL', uuid: 'must be a UUID' };

const plural = (count: number | bigint, noun: string) => `${count} ${noun}${count === 1 || count === 1n ? '' : 's'}`;

/**
 * A length or a size out of bounds, said as the bound the member must keep: zod's own wording
 * ("Too small: expected string to have >=1 characters") reads as a programmer's note.
 */
function boundOf(issue: RawIssue & { code: 'too_small' | 'too_big' }): string | undefined {
  const small = issue.code === 'too_small';
  const bound = small ? issue.minimum : issue.maximum;
  const least = small ? 'at least' : 'at most';
  switch (issue.origin) {
    case 'string':
      if (issue.exact) return `must be exactly ${plural(bound, 'character')} long`;
      return small && bound === 1 ? 'cannot be empty' : `must be ${least} ${plural(bound, 'character')} long`;
    case 'array':
    case 'set':
      if (issue.exact) return `must have exactly ${plural(bound, 'item')}`;
      return small && bound === 1 ? 'cannot be empty' : `must have ${least} ${plural(bound, 'item')}`;
    case 'number':
    case 'int':
    case 'bigint':
      if (issue.inclusive === false) return `must be ${small ? 'greater' : 'less'} than ${bound}`;
      return `must be ${least} ${bound}`;
    default:
      return undefined;
  }
}

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
