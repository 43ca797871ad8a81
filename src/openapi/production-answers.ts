import type { SchemaObject } from 'openapi3-ts/oas31';
import {
  PRODUCTION_ANSWERED,
  PRODUCTION_ANSWERED_RELATIONSHIPS,
  PRODUCTION_VARIANT_ANSWERS,
  type ProductionAnswered,
} from '../fixtures/reference/production-operations.js';
import { COMPONENT, isNode, reachable, type Node } from './address-nulls.js';

/*
 * Clients generated from this document are pointed at production afterwards, and some check every
 * answer against it (zod or ajv based generators). Where the sandbox's response schemas say an
 * attribute is never null or always there (Shipment.description, Shop.website, HookLog.errors,
 * Service.transit_time), production's contract lets it be null or left out, and such a client
 * would refuse production's answers (the same for a shipment's `service` relationship, null in
 * production's, or its `colli`, absent). The resource objects of the document therefore allow what
 * production's contract allows for their attributes and relationships (PRODUCTION_ANSWERED..., the
 * committed digest of reference/production-contract.json). Only the document changes: the sandbox
 * answers as before.
 */

/** Whether a schema takes null, itself, through a component, or in one of its alternatives. */
function takesNull(schema: unknown, schemas: Record<string, SchemaObject>, depth = 0): boolean {
  if (!isNode(schema) || depth > 20) return false;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith(COMPONENT)) return takesNull(schemas[schema.$ref.slice(COMPONENT.length)], schemas, depth + 1);
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  return [schema.anyOf, schema.oneOf].some((alternatives) => Array.isArray(alternatives) && alternatives.some((alt) => takesNull(alt, schemas, depth + 1)));
}

/** The single alternative of a union that is not `{ type: 'null' }`, if there is just one. */
function onlyValue(schema: Node): number | undefined {
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : [];
  const values = alternatives.flatMap((alt, index) => (isNode(alt) && alt.type !== 'null' ? [index] : []));
  return values.length === 1 && !isNode(schema.properties) && !isNode(schema.items) ? values[0] : undefined;
}

interface Walk {
  schemas: Record<string, SchemaObject>;
  /** The components request bodies reach. */
  requestOnes: Set<string>;
  /** Whether to copy such a component into the place that refers to it, to change it there (so requests stay as strict as the sandbox is). */
  copy: boolean;
}

/** The schema at `holder[key]`, components followed and a union of a value and null entered; undefined where nothing is there. */
function slot(holder: Node | unknown[], key: string | number, { schemas, requestOnes, copy }: Walk): Node | undefined {
  let current: unknown = (holder as Record<string | number, unknown>)[key];
  for (let guard = 0; guard < 20 && isNode(current); guard++) {
    const ref = current.$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENT)) {
      const id = ref.slice(COMPONENT.length);
      if (!schemas[id]) return undefined;
      if (!requestOnes.has(id) || !copy) {
        current = schemas[id];
        holder = schemas as Node;
        key = id;
        continue;
      }
      const { $ref: _ref, ...rest } = current;
      current = { ...structuredClone(schemas[id] as Node), ...rest };
      (holder as Record<string | number, unknown>)[key] = current;
      continue;
    }
    const index = onlyValue(current);
    if (index === undefined) return current;
    holder = current.anyOf as unknown[];
    key = index;
    current = holder[index];
  }
  return undefined;
}

type Root = 'attributes' | 'relationships';

/** The object schema holding the member at `path` (segments; `[]` for an array's items) below a resource's attributes or relationships, undefined where the document has none. */
function parentOf(path: string[], resource: Node, walk: Walk, root: Root): Node | undefined {
  let schema = slot(resource.properties as Node, root, walk);
  for (const segment of path) {
    if (!schema) return undefined;
    if (segment === '[]') schema = slot(schema, 'items', walk);
    else schema = isNode(schema.properties) && schema.properties[segment] !== undefined ? slot(schema.properties, segment, walk) : undefined;
  }
  return schema;
}

/** The production resource type a component describes: its `type` member's one value, when it has attributes. */
function resourceType(schema: Node): string | undefined {
  const properties = schema.properties;
  if (!isNode(properties) || properties.attributes === undefined || !isNode(properties.type)) return undefined;
  const { const: constant, enum: values } = properties.type;
  const type = typeof constant === 'string' ? constant : Array.isArray(values) && values.length === 1 ? values[0] : undefined;
  return typeof type === 'string' ? type : undefined;
}

/** Lets the members `answered` names of a resource component's attributes (or relationships) be null or absent. */
function loosen(
  component: Node,
  answered: ProductionAnswered,
  schemas: Record<string, SchemaObject>,
  requestOnes: Set<string>,
  root: Root = 'attributes',
): void {
  const look = (path: string[], copy: boolean) => parentOf(path, component, { schemas, requestOnes, copy }, root);
  for (const path of answered.optional) {
    const segments = path.split('/');
    const name = segments.at(-1)!;
    const needs = (parent: Node | undefined) => Array.isArray(parent?.required) && parent.required.includes(name);
    // Followed once to see whether anything changes, so a component is copied only to be changed.
    if (!needs(look(segments.slice(0, -1), false))) continue;
    const parent = look(segments.slice(0, -1), true)!;
    const required = (parent.required as string[]).filter((other) => other !== name);
    if (required.length > 0) parent.required = required;
    else delete parent.required;
  }
  for (const path of answered.nullable) {
    const segments = path.split('/');
    const name = segments.at(-1)!;
    const memberOf = (parent: Node | undefined) => (parent && isNode(parent.properties) ? parent.properties[name] : undefined);
    const seen = memberOf(look(segments.slice(0, -1), false));
    if (!isNode(seen) || takesNull(seen, schemas)) continue;
    const parent = look(segments.slice(0, -1), true)!;
    const { description, ...schema } = memberOf(parent) as Node;
    (parent.properties as Node)[name] = { ...(description === undefined ? {} : { description }), anyOf: [schema, { type: 'null' }] };
  }
}

/** Where a response document's `data` refers to its resource (one, or the items of a list): the holder of that `$ref` and its key. */
function dataSlot(document: Node | undefined): { holder: Node; key: string; id: string } | undefined {
  const properties = isNode(document?.properties) ? document.properties : undefined;
  const data = properties?.data;
  const [holder, key] = isNode(data) && isNode(data.items) ? [data, 'items'] : [properties, 'data'];
  const ref = holder && isNode(holder[key]) ? holder[key].$ref : undefined;
  return holder && typeof ref === 'string' && ref.startsWith(COMPONENT) ? { holder, key, id: ref.slice(COMPONENT.length) } : undefined;
}

/** A success answer of an operation: production's `METHOD path status`, and the id of the sandbox's response schema. */
export interface AnsweredOperation {
  key: string;
  responseId: string;
}

/**
 * Lets the attributes and relationships of every resource object in `schemas` be null or absent
 * where production's contract lets them; components that request bodies (`requestIds`) reach are
 * copied, not changed. Where production answers an operation of `operations` with a variant of the
 * type (a list of returns without return_address, a registered shipment with its contract), the
 * variant is what counts: in the resource component only that answer holds, or else in a copy of
 * the resource made for that answer.
 */
export function answerAsProduction(schemas: Record<string, SchemaObject>, requestIds: Iterable<string>, operations: readonly AnsweredOperation[]): void {
  const requestOnes = reachable(schemas, requestIds);
  const loosenable = (id: string | undefined): Node | undefined => (id && !requestOnes.has(id) && isNode(schemas[id]) ? schemas[id] : undefined);
  // The answers (`METHOD path status`) whose data is each resource component.
  const answersOf = new Map<string, string[]>();
  for (const { key, responseId } of operations) {
    const slot = dataSlot(schemas[responseId] as Node | undefined);
    if (slot) answersOf.set(slot.id, [...(answersOf.get(slot.id) ?? []), key]);
  }
  /** The variant every answer holding the component uses, when they all use the same one. */
  const ownVariant = (id: string, type: string) => {
    const variants = (answersOf.get(id) ?? []).map((key) => PRODUCTION_VARIANT_ANSWERS[key]);
    const first = variants[0];
    return first?.type === type && variants.every((variant) => variant === first) ? first : undefined;
  };
  for (const id of Object.keys(schemas)) {
    const component = loosenable(id);
    const type = component && resourceType(component);
    if (type === undefined) continue;
    const variant = ownVariant(id, type);
    const attributes = variant?.attributes ?? PRODUCTION_ANSWERED[type];
    const relationships = variant ? variant.relationships : PRODUCTION_ANSWERED_RELATIONSHIPS[type];
    if (attributes) loosen(component!, attributes, schemas, requestOnes);
    if (relationships) loosen(component!, relationships, schemas, requestOnes, 'relationships');
  }
  // Every component, copied into the variant's answer before a change: the type's other answers keep what production promises in them.
  const shared = new Set(Object.keys(schemas));
  for (const { key, responseId } of operations) {
    const variant = PRODUCTION_VARIANT_ANSWERS[key];
    const slot = variant ? dataSlot(schemas[responseId] as Node | undefined) : undefined;
    const component = slot && loosenable(slot.id);
    if (!variant || !slot || !component || resourceType(component) !== variant.type || ownVariant(slot.id, variant.type)) continue;
    const copy = structuredClone(component);
    loosen(copy, variant.attributes, schemas, shared);
    loosen(copy, variant.relationships, schemas, shared, 'relationships');
    // A variant that lets nothing more be null or absent (GET /service-rates' adds a meta) keeps the named resource.
    if (JSON.stringify(copy) !== JSON.stringify(component)) slot.holder[slot.key] = copy;
  }
}
