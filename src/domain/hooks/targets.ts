import { z } from 'zod';
import { writableShipmentAttributes } from '../../model/shipment.js';
import { tokens } from './pointer.js';

/** To-one relationships of a shipment a hook may set, with the type each points at. */
export const TO_ONE = { service: 'services', contract: 'contracts', liability_coverage: 'liability-coverages', collection: 'collections' } as const;

/** The schema of the attribute at `path` (below `attributes`), or `undefined` when none. */
function schemaAt(path: readonly string[]): z.ZodType | undefined {
  // Own members only: `constructor` or `__proto__` must not reach Object.prototype.
  const member = (shape: Record<string, z.ZodType>, name: string) => (Object.hasOwn(shape, name) ? shape[name] : undefined);
  let schema: z.ZodType | undefined = member(writableShipmentAttributes as Record<string, z.ZodType>, path[0]!);
  for (const token of path.slice(1)) {
    while (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) schema = schema.unwrap() as z.ZodType;
    if (schema instanceof z.ZodObject) schema = member(schema.shape as Record<string, z.ZodType>, token);
    else if (schema instanceof z.ZodArray && (token === '-' || /^\d+$/.test(token))) schema = schema.element as z.ZodType;
    else return undefined;
  }
  return schema;
}

const identifier = (type: string) => z.object({ type: z.literal(type), id: z.string().min(1) });

/** A problem with an `update-resource` value, and which of its members is to blame. */
export type UpdateProblem = { field: 'pointer' | 'value'; message: string };

/**
 * Why an `update-resource` value cannot apply to shipments, or `undefined` when it can: the
 * pointer must name a writable attribute or relationship, and the value must fit its type.
 */
export function updateProblem(pointer: string, value: unknown, converter?: string): UpdateProblem | undefined {
  const message = describeProblem(pointer, value, converter);
  if (!message) return undefined;
  return { field: /^(The value|With service-code-to-id)/.test(message) ? 'value' : 'pointer', message };
}

function describeProblem(pointer: string, value: unknown, converter?: string): string | undefined {
  const [root, name, ...rest] = tokens(pointer);
  if (root === 'attributes') {
    if (converter) return `The converter '${converter}' only applies to /relationships/service/data/id.`;
    const schema = name === undefined ? undefined : schemaAt([name, ...rest]);
    if (!schema) return `'${pointer}' is not a writable shipment attribute.`;
    const result = schema.safeParse(value);
    return result.success ? undefined : `The value does not fit '${pointer}': ${result.error.issues[0]?.message ?? 'wrong type'}.`;
  }
  if (root !== 'relationships' || name === undefined) return `A pointer must start with /attributes or /relationships, not '${pointer}'.`;
  if (name === 'service_options') {
    if (rest.join('/') !== 'data') return "Service options are set as a whole: use '/relationships/service_options/data'.";
    return z.array(identifier('service-options')).safeParse(value).success ? undefined : 'The value must be a list of {type: "service-options", id}.';
  }
  const type = Object.hasOwn(TO_ONE, name) ? TO_ONE[name as keyof typeof TO_ONE] : undefined;
  if (!type) return `'${name}' is not a relationship a hook may set.`;
  const target = rest.join('/');
  if (converter) {
    if (name !== 'service' || (target !== 'data/id' && target !== 'data')) return `The converter '${converter}' only applies to /relationships/service/data/id.`;
    return typeof value === 'string' && value !== '' ? undefined : 'With service-code-to-id the value must be a service code.';
  }
  if (target === 'data/id') return typeof value === 'string' && value !== '' ? undefined : 'The value must be an id (a string).';
  if (target === 'data') return identifier(type).safeParse(value).success ? undefined : `The value must be {type: "${type}", id}.`;
  return `Point at '/relationships/${name}/data' or '/relationships/${name}/data/id'.`;
}
