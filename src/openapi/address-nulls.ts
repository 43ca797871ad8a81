import type { SchemaObject } from 'openapi3-ts/oas31';
import { ADDRESS_MEMBERS, NULLABLE_ADDRESS_MEMBERS } from '../http/address-nulls.js';

/*
 * The edge takes `null` in the nullable members of an address (company, street_2, ...) as the
 * member left out before a body's schema sees it (http/address-nulls.ts), as production's
 * address schema lets them be null. The schemas themselves never hold the null, so the document
 * made from them refused it: a client generated from it could not send the null production's
 * clients send, and a validator in front of the sandbox refused bodies the sandbox takes. The
 * addresses of the schemas a request body reaches say here that those members may be null.
 */

export type Node = Record<string, unknown>;

export const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);

export const COMPONENT = '#/components/schemas/';

/** Whether a member's schema already takes null. */
const takesNull = (schema: Node): boolean =>
  schema.type === 'null' ||
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  (Array.isArray(schema.anyOf) && schema.anyOf.some((alt) => isNode(alt) && takesNull(alt)));

/** The ids of the components `roots` refer to, directly or through other components. */
export function reachable(schemas: Record<string, SchemaObject>, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isNode(value)) return;
    const ref = value.$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENT)) add(ref.slice(COMPONENT.length));
    for (const member of Object.values(value)) visit(member);
  };
  const add = (id: string): void => {
    if (seen.has(id) || !schemas[id]) return;
    seen.add(id);
    visit(schemas[id]);
  };
  for (const id of roots) add(id);
  return seen;
}

/** Each address (an object requiring street_1, city and country_code) in `value`, its nullable members made to take null. */
function patch(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(patch);
  if (!isNode(value)) return;
  const properties = value.properties;
  const required = Array.isArray(value.required) ? value.required : [];
  if (isNode(properties) && ADDRESS_MEMBERS.every((member) => required.includes(member))) {
    for (const name of NULLABLE_ADDRESS_MEMBERS) {
      const member = properties[name];
      if (!isNode(member) || takesNull(member)) continue;
      const { description, ...schema } = member;
      properties[name] = { ...(description === undefined ? {} : { description }), anyOf: [schema, { type: 'null' }] };
    }
  }
  for (const member of Object.values(value)) patch(member);
}

/** Lets the nullable members of the addresses that request bodies (the components `requestIds`) reach be null. */
export function acceptAddressNulls(schemas: Record<string, SchemaObject>, requestIds: Iterable<string>): void {
  for (const id of reachable(schemas, requestIds)) patch(schemas[id]);
}
