import { z } from 'zod';
import { readableIssue } from '../../model/readable-issues.js';
import { writableShipmentAttributes } from '../../model/shipment.js';
import { tokens } from './pointer.js';

/** To-one relationships of a shipment a hook may set, with the one type each points at. */
const TO_ONE = {
  service: 'services',
  contract: 'contracts',
  liability_coverage: 'liability-coverages',
  collection: 'collections',
  // A client sets it too (production's contract has it writable): a hook may consolidate new shipments.
  consolidation_shipment: 'shipments',
} as const;
type ToOneName = keyof typeof TO_ONE;

/** Relationships a shipment has that only the sandbox sets, so a hook pointing there gets a precise answer. */
const READ_ONLY = ['shipment_status', 'files', 'hook_logs', 'colli', 'multi_colli_shipment', 'shipment_surcharges'];

/**
 * Relationships production's contract has writable that stay as they are here, for clients
 * (sent on POST/PATCH /shipments they are ignored) and hooks alike, and why: a hook pointing
 * there learns what does set them rather than that "the sandbox" does.
 */
const KEPT: Record<string, string> = {
  // Only registered shipments go on a manifest, and production has no way to change a manifest
  // once made (no PATCH /manifests; its files are read-only): a shipment being created or still
  // changeable cannot join one, so its manifest is the latest that lists it.
  manifest:
    "A shipment's manifest is the latest manifest that lists it, set when one is made (POST /manifests, POST /create-manifest-for-collection); a hook cannot set it.",
  shop: 'A shipment stays in the shop it was created in; a hook cannot move it to another shop.',
};

/**
 * Where an update-resource value lands. Relationships may be addressed as the whole object
 * (`/relationships/service`, value `{data: {type, id}}`), as its data (`.../data`, value
 * `{type, id}`), or member by member (`.../data/id`, `.../data/type`), as production's docs do.
 */
export type Target =
  | { kind: 'attribute'; path: string[] }
  | { kind: 'to-one'; name: ToOneName; type: string; part: 'relationship' | 'data' | 'id' | 'type' }
  | { kind: 'to-many'; name: 'service_options'; type: 'service-options'; part: 'relationship' | 'data' };

/** A problem with an `update-resource` value, and which of its members is to blame. */
export type UpdateProblem = { field: 'pointer' | 'value'; message: string };

const PARTS = { '': 'relationship', data: 'data', 'data/id': 'id', 'data/type': 'type' } as const;

/** What a pointer names, or why it names nothing a hook may set. */
export function targetOf(pointer: string): Target | UpdateProblem {
  const [root, name, ...rest] = tokens(pointer);
  const fail = (message: string): UpdateProblem => ({ field: 'pointer', message });
  if (root === 'attributes')
    return name === undefined ? fail("Point at one attribute, e.g. '/attributes/description'.") : { kind: 'attribute', path: [name, ...rest] };
  if (root !== 'relationships' || name === undefined) return fail(`A pointer must start with /attributes/ or /relationships/, not '${pointer}'.`);
  const part = Object.hasOwn(PARTS, rest.join('/')) ? PARTS[rest.join('/') as keyof typeof PARTS] : undefined;
  if (name === 'service_options') {
    if (part === 'relationship' || part === 'data') return { kind: 'to-many', name, type: 'service-options', part };
    return fail("Service options are set as a whole: point at '/relationships/service_options/data' with a list of {type, id}.");
  }
  if (Object.hasOwn(TO_ONE, name)) {
    const type = TO_ONE[name as ToOneName];
    if (part) return { kind: 'to-one', name: name as ToOneName, type, part };
    return fail(
      // eslint-disable-next-line no-restricted-syntax -- hooks' own pointers into a shipment (user data), not where an error lies
      `Point at '/relationships/${name}/data/id' (and '/data/type' with '${type}' if you like), '/relationships/${name}/data' or '/relationships/${name}'.`,
    );
  }
  if (READ_ONLY.includes(name)) return fail(`The ${name} relationship is set by the sandbox; a hook cannot set it.`);
  if (Object.hasOwn(KEPT, name)) return fail(KEPT[name]!);
  return fail(`Shipments have no relationship '${name}'. A hook can set: ${[...Object.keys(TO_ONE), 'service_options'].join(', ')}.`);
}

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

/**
 * A text value turned into the number or boolean the attribute at `path` holds (production's hook
 * values are strings, objects or arrays); any other value, or text that is no such number or
 * boolean, stays as it is for the schema to judge.
 */
export function attributeValue(path: readonly string[], value: unknown): unknown {
  let schema = schemaAt(path);
  while (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) schema = schema.unwrap() as z.ZodType;
  if (typeof value !== 'string') return value;
  if (schema instanceof z.ZodNumber && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (schema instanceof z.ZodBoolean && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

const identifier = (type: string) => z.object({ type: z.literal(type), id: z.string().min(1) });
const isCode = (value: unknown) => typeof value === 'string' && value !== '';
const CONVERTER_ONLY = (converter: string) => `The converter '${converter}' only applies to /relationships/service/data/id.`;

/**
 * A schema issue of a value as a reader takes it: the member it is about (an object value's
 * `street_1`, a list's `0.quantity`) or the value itself, said as the request's schema errors say
 * it (`readableIssue`), never in zod's programmer wording.
 */
function issueText(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return 'it is of the wrong type';
  const message = issue.message.replace(/\.$/, '');
  const predicate = /^(is|must|should|cannot|does|has) /.test(message);
  if (issue.path.length === 0) return predicate ? `it ${message}` : message;
  const member = issue.path.map(String).join('.');
  return predicate ? `'${member}' ${message}` : `'${member}': ${message}`;
}

/**
 * Why an attribute, as values at its members left it, is no valid shipment attribute, or
 * `undefined`: `/attributes/items/0/quantity` on a shipment without items makes an item that
 * has only a quantity, which the shipment cannot hold.
 */
export function attributeProblem(name: string, value: unknown): string | undefined {
  const schema = Object.hasOwn(writableShipmentAttributes, name) ? (writableShipmentAttributes as Record<string, z.ZodType>)[name] : undefined;
  const result = schema?.safeParse(value, { error: readableIssue });
  return !result || result.success ? undefined : `The values leave '/attributes/${name}' invalid: ${issueText(result.error.issues[0])}.`;
}

/** Why a value does not fit its (valid) target, or `undefined` when it does. */
function valueProblem(target: Target, pointer: string, value: unknown, converter?: string): UpdateProblem | undefined {
  const fail = (message: string): UpdateProblem => ({ field: 'value', message });
  if (converter && (target.kind !== 'to-one' || target.name !== 'service' || (target.part !== 'id' && target.part !== 'data'))) {
    return { field: 'pointer', message: CONVERTER_ONLY(converter) };
  }
  if (converter) return isCode(value) ? undefined : fail('With service-code-to-id the value must be a service code.');
  if (target.kind === 'attribute') {
    const schema = schemaAt(target.path);
    if (!schema) return { field: 'pointer', message: `'${pointer}' is not a writable shipment attribute.` };
    const result = schema.safeParse(attributeValue(target.path, value), { error: readableIssue });
    return result.success ? undefined : fail(`The value does not fit '${pointer}': ${issueText(result.error.issues[0])}.`);
  }
  const { type, part } = target;
  if (target.kind === 'to-many') {
    // A chosen option's meta, when given, carries its values as an object, as in a shipment request.
    const list = z.array(identifier(type).extend({ meta: z.looseObject({ values: z.record(z.string(), z.unknown()) }).optional() }));
    const fits = part === 'data' ? list.safeParse(value).success : z.object({ data: list }).safeParse(value).success;
    return fits
      ? undefined
      : fail(
          part === 'data'
            ? `The value must be a list of {type: "${type}", id} (with meta.values an object, if given).`
            : `The value must be {data: [{type: "${type}", id}, ...]} (with meta.values an object, if given).`,
        );
  }
  if (part === 'id') return isCode(value) ? undefined : fail('The value must be an id (a string).');
  if (part === 'type') return value === type ? undefined : fail(`The ${target.name} relationship points at '${type}' only, not ${JSON.stringify(value)}.`);
  if (part === 'data') return identifier(type).safeParse(value).success ? undefined : fail(`The value must be {type: "${type}", id}.`);
  return z.object({ data: identifier(type) }).safeParse(value).success ? undefined : fail(`The value must be {data: {type: "${type}", id}}.`);
}

/**
 * Every problem of an action's values, with the index of the value to blame: each value on its
 * own, then the rule that spans values: a value at a relationship's `data/type` sets no relationship by itself, so it
 * needs a value giving the same relationship's id.
 */
export function updateProblems(values: readonly { pointer: string; value?: unknown; converter?: string }[]): (UpdateProblem & { index: number })[] {
  const problems: (UpdateProblem & { index: number })[] = [];
  const targets = values.map((v, index) => {
    const target = targetOf(v.pointer);
    const problem = 'kind' in target ? valueProblem(target, v.pointer, v.value, v.converter) : target;
    if (problem) problems.push({ ...problem, index });
    return 'kind' in target ? target : undefined;
  });
  const withId = new Set(targets.flatMap((t) => (t?.kind === 'to-one' && t.part !== 'type' ? [t.name] : [])));
  targets.forEach((target, index) => {
    if (target?.kind !== 'to-one' || target.part !== 'type' || withId.has(target.name)) return;
    problems.push({
      index,
      field: 'pointer',
      // eslint-disable-next-line no-restricted-syntax -- hooks' own pointers into a shipment (user data), not where an error lies
      message: `A type alone sets no ${target.name}: add a value for '/relationships/${target.name}/data/id' to this action.`,
    });
  });
  return problems.sort((a, b) => a.index - b.index);
}
