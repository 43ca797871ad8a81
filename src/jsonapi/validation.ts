import type { z } from 'zod';
import { errorObject, toPointer, type ErrorObject } from './errors.js';

/** Readable detail for one schema issue, naming the field it concerns. */
function detailOf(issue: z.core.$ZodIssue, field: string): string {
  if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined) {
    return `'${field}' is required.`;
  }
  if (issue.code === 'unrecognized_keys') return `'${field}' is not a known member here.`;
  return `'${field}': ${issue.message}.`.replace(/\.\.$/, '.');
}

/**
 * One 400/10003 error per schema violation. Body issues point into the document
 * (`source.pointer`), query issues name the parameter (`source.parameter`).
 */
export function schemaErrors(error: z.ZodError, where: 'pointer' | 'parameter', prefix: readonly (string | number)[] = []): ErrorObject[] {
  const errors: ErrorObject[] = [];
  for (const issue of error.issues) {
    const paths =
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of paths) {
      const full = [...prefix, ...path];
      const field = full.length > 0 ? String(full[full.length - 1]) : 'body';
      const source = where === 'pointer' ? { pointer: toPointer(full) } : { parameter: String(full[0] ?? '') };
      errors.push(errorObject('invalidSchema', detailOf(issue, field), { source }));
    }
  }
  return errors;
}
