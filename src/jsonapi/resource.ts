import type { z } from 'zod';
import type { Ctx } from '../http/context.js';

/** `{type, id}`, optionally with per-entry meta (service-rate options carry prices there). */
export type Linkage = { type: string; id: string; meta?: Record<string, unknown> };

export interface RelationshipDef<R> {
  /** Resource types the relationship can point at. */
  targets: readonly string[];
  many?: boolean;
  /** The related resources' identifiers; `null` for an empty to-one. */
  data(row: R, ctx: Ctx): Linkage | Linkage[] | null;
  /**
   * Path of the related resource. To-one relationships default to `/{type}/{id}`;
   * return `undefined` when the related resource has no URL.
   */
  related?(row: R, ctx: Ctx): string | undefined;
}

/**
 * Everything the sandbox knows about one resource type: how a stored row becomes a JSON:API
 * resource object, which relationships it has, and how a related row is loaded for `include`.
 */
export interface ResourceKind<R extends { id: string } = { id: string }> {
  type: string;
  /** Schema of the attributes as sent in responses; it also documents them in OpenAPI. */
  attributesSchema: z.ZodObject;
  attributes(row: R, ctx: Ctx): Record<string, unknown>;
  relationships: Record<string, RelationshipDef<R>>;
  /** Path of the resource itself (`links.self`). */
  self(row: R): string;
  links?(row: R, ctx: Ctx): Record<string, string>;
  meta?(row: R, ctx: Ctx): Record<string, unknown> | undefined;
  /** Loads a row by id for `included`, or `undefined` when it does not exist. */
  load(ctx: Ctx, id: string): R | undefined;
}

export type ResourceObject = {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: Linkage | Linkage[] | null; links?: { related: string } }>;
  links: Record<string, string>;
  meta?: Record<string, unknown>;
};

/** Builds the resource object of `row`, with absolute links and without empty optional attributes. */
export function toResourceObject<R extends { id: string }>(kind: ResourceKind<R>, row: R, ctx: Ctx): ResourceObject {
  const resource = { type: kind.type, id: row.id, attributes: compact(kind.attributes(row, ctx)) } as ResourceObject;
  const names = Object.keys(kind.relationships);
  if (names.length > 0) {
    resource.relationships = {};
    for (const name of names) {
      const def = kind.relationships[name]!;
      const data = def.data(row, ctx);
      const entry: { data: Linkage | Linkage[] | null; links?: { related: string } } = { data };
      const related = relatedPath(def, row, data, ctx);
      if (related) entry.links = { related: ctx.url(related) };
      resource.relationships[name] = entry;
    }
  }
  resource.links = { self: ctx.url(kind.self(row)) };
  const extra = kind.links?.(row, ctx);
  if (extra) for (const [key, path] of Object.entries(extra)) resource.links[key] = ctx.url(path);
  const meta = kind.meta?.(row, ctx);
  if (meta && Object.keys(meta).length > 0) resource.meta = meta;
  return resource;
}

function relatedPath<R>(def: RelationshipDef<R>, row: R, data: Linkage | Linkage[] | null, ctx: Ctx): string | undefined {
  if (def.related) return def.related(row, ctx);
  if (def.many || data === null || Array.isArray(data)) return undefined;
  return `/${data.type}/${data.id}`;
}

/** Drops `undefined` and `null` values: optional attributes without a value are left out. */
export function compact(attributes: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** Linkage for a to-one foreign key, `null` when unset. */
export function linkTo(type: string, id: string | undefined | null): Linkage | null {
  return id ? { type, id } : null;
}
