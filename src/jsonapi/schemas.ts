import { z } from 'zod';
import type { ResourceKind } from './resource.js';

/** PascalCase name of a resource type, for schema ids: `service-rates` -> `ServiceRate`. */
function schemaName(type: string): string {
  const singular = type.endsWith('ies') ? type.slice(0, -3) + 'y' : type.endsWith('ses') ? type.slice(0, -2) : type.replace(/s$/, '');
  return singular.replace(/(^|[-_])([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
}

/*
 * The relationship members are made once per list of target types and shared by every resource
 * type that has them (the same targets recur across types: shop, carrier, service...): zod
 * schemas are costly to build, and every start builds these. They carry no id, so the JSON Schema inlines each use as before.
 * Building the resource schemas at start (node --cpu-prof of the compiled modules, zod's share
 * under resourceSchemas and linkage, least of 4 on a loaded machine): 44 -> 35 ms.
 */
const toOneMembers = new Map<string, z.ZodType>();
const toManyMembers = new Map<string, z.ZodType>();

const linkage = (targets: readonly string[]) =>
  z.object({ type: z.enum(targets as [string, ...string[]]), id: z.string(), meta: z.record(z.string(), z.unknown()).optional() });

/** The `relationships` member of a to-one relationship to `targets`, shared by every type that has one. */
function toOne(targets: readonly string[], optional: boolean | undefined): z.ZodType {
  const key = `${optional ? '?' : ''}${targets.join(',')}`;
  let member = toOneMembers.get(key);
  if (!member) {
    const required = z.object({ data: linkage(targets), links: z.object({ related: z.url() }).optional() });
    member = optional ? required.optional() : required;
    toOneMembers.set(key, member);
  }
  return member;
}

/** The `relationships` member of a to-many relationship to `targets`, shared likewise. */
function toMany(targets: readonly string[]): z.ZodType {
  const key = targets.join(',');
  let member = toManyMembers.get(key);
  if (!member) toManyMembers.set(key, (member = z.strictObject({ data: z.array(linkage(targets)) })));
  return member;
}

const errorSchema = z
  .object({
    status: z.string(),
    code: z.string(),
    title: z.string(),
    detail: z.string(),
    source: z.object({ pointer: z.string().optional(), parameter: z.string().optional(), header: z.string().optional() }).optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'Error' });

export const errorDocument = z.object({ errors: z.array(errorSchema) }).meta({ id: 'ErrorDocument' });

const paginationMeta = z.object({ total_pages: z.number().int(), total_records: z.number().int() }).meta({ id: 'PaginationMeta' });

// Plain strings, as production declares them: the URLs carry `page[number]`, whose brackets a strict URI check refuses.
const paginationLinks = z
  .strictObject({ self: z.string(), first: z.string(), last: z.string(), prev: z.string().optional(), next: z.string().optional() })
  .meta({ id: 'PaginationLinks' });

// Shared by every resource type likewise: the usual `links` member, and a document's `included`
// (zod under this module at start, same measure, 5 runs: least 16.7 -> 6.2 ms, median 35.9 -> 12.2 ms).
const url = z.url();
const selfLinks = z.object({ self: url });
const included = z.array(z.record(z.string(), z.unknown())).optional();

/** The schemas of one resource type: the resource object, its single and its list document (`name` when the type's own would clash, or for a second variant of a type). */
export function resourceSchemas(kind: ResourceKind<any>, extra: { links?: string[]; meta?: z.ZodType; name?: string } = {}) {
  const name = extra.name ?? schemaName(kind.type);
  const relationships: Record<string, z.ZodType> = {};
  for (const [key, def] of Object.entries(kind.relationships)) {
    relationships[key] = def.many ? toMany(def.targets) : toOne(def.targets, def.optional);
  }
  const links: Record<string, z.ZodType> = { self: url };
  for (const key of extra.links ?? []) links[key] = url;
  const resource = z
    .object({
      type: z.literal(kind.type),
      id: z.string(),
      attributes: kind.attributesSchema,
      ...(Object.keys(relationships).length > 0 ? { relationships: z.strictObject(relationships) } : {}),
      ...(kind.unlinked ? {} : { links: extra.links?.length ? z.object(links) : selfLinks }),
      ...(extra.meta ? { meta: extra.meta.optional() } : {}),
    })
    .meta({ id: name });
  return {
    resource,
    document: z.object({ data: resource, included }).meta({ id: `${name}Document` }),
    list: z.object({ data: z.array(resource), meta: paginationMeta, links: paginationLinks, included }).meta({ id: `${name}List` }),
  };
}
