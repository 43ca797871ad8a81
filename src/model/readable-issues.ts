import type { z } from 'zod';

/**
 * Zod's issues in the words of an API reader ("must be an integer, not a string", "is required"),
 * not a programmer's ("Invalid input: expected number, received string"). Below every layer that
 * judges input: the request layer's schema errors and the domain's checks of values it takes apart
 * itself (hook values) say the same thing the same way.
 */

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
export function readableIssue(issue: RawIssue): string | undefined {
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
