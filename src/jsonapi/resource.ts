import type { z } from 'zod';

/**
 * What rendering a document needs from the request it answers: absolute links, the request URL
 * (pagination links keep its query) and the resource kinds (for `included`). The HTTP layer's
 * request context provides it; the JSON:API layer knows nothing else of HTTP.
 */
export interface RenderContext {
  /** Absolute URL of a path on this sandbox. */
  url(path: string): string;
  readonly requestUrl: URL;
  readonly kinds: KindRegistry;
}

/** Resource kinds by type. */
export type KindRegistry = ReadonlyMap<string, ResourceKind<any, any>>;

/** `{type, id}`, optionally with per-entry meta (service-rate options carry prices there). */
export type Linkage = { type: string; id: string; meta?: Record<string, unknown> };

export interface RelationshipDef<R, C extends RenderContext = RenderContext> {
  /** Resource types the relationship can point at. */
  targets: readonly string[];
  many?: boolean;
  /**
   * A to-one that may be empty. Production has no `data: null`: an empty to-one is left out of
   * the resource, so its schema makes the member optional.
   */
  optional?: boolean;
  /** The related resources' identifiers; `null` for an empty to-one. */
  data(row: R, ctx: C): Linkage | Linkage[] | null;
  /**
   * Path of the related resource of a to-one (`links.related`), default `/{type}/{id}`; return
   * `undefined` when it has no URL. To-many relationships carry no links, as in production.
   */
  related?(row: R, ctx: C): string | undefined;
}

/**
 * Everything the sandbox knows about one resource type: how a stored row becomes a JSON:API
 * resource object, which relationships it has, and how a related row is loaded for `include`.
 */
export interface ResourceKind<R extends { id: string } = { id: string }, C extends RenderContext = RenderContext> {
  type: string;
  /** Schema of the attributes as sent in responses; it also documents them in OpenAPI. */
  attributesSchema: z.ZodObject;
  attributes(row: R, ctx: C): Record<string, unknown>;
  /** Attributes production requires but allows to be null: answered as `null` when they have no value, not left out. */
  nullAttributes?: readonly string[];
  relationships: Record<string, RelationshipDef<R, C>>;
  /** Path of the resource itself (`links.self`, unless the type is `unlinked`). */
  self(row: R): string;
  /**
   * Production serves no resource of this type at a URL of its own (a locale, a collection time
   * slot): its resources carry no `links`, as production's schemas have none, since a `self` link
   * must answer the resource, not the list it is found in.
   */
  unlinked?: true;
  links?(row: R, ctx: C): Record<string, string>;
  meta?(row: R, ctx: C): Record<string, unknown> | undefined;
  /** Loads a row by id for `included`, or `undefined` when it does not exist. */
  load(ctx: C, id: string): R | undefined;
}

export type ResourceObject = {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: Linkage | Linkage[]; links?: { related: string } }>;
  links?: Record<string, string>;
  meta?: Record<string, unknown>;
};

/** Builds the resource object of `row`, with absolute links and without empty optional attributes. */
export function toResourceObject<R extends { id: string }, C extends RenderContext>(kind: ResourceKind<R, C>, row: R, ctx: C): ResourceObject {
  const resource = { type: kind.type, id: row.id, attributes: compact(kind.attributes(row, ctx), kind.nullAttributes) } as ResourceObject;
  const names = Object.keys(kind.relationships);
  if (names.length > 0) {
    resource.relationships = {};
    for (const name of names) {
      const def = kind.relationships[name]!;
      const data = def.data(row, ctx);
      if (data === null) continue;
      const entry: { data: Linkage | Linkage[]; links?: { related: string } } = { data };
      if (!Array.isArray(data)) {
        const related = def.related ? def.related(row, ctx) : `/${data.type}/${data.id}`;
        if (related) entry.links = { related: ctx.url(related) };
      }
      resource.relationships[name] = entry;
    }
  }
  if (!kind.unlinked) {
    const links: Record<string, string> = { self: ctx.url(kind.self(row)) };
    const extra = kind.links?.(row, ctx);
    if (extra) for (const [key, path] of Object.entries(extra)) links[key] = ctx.url(path);
    resource.links = links;
  }
  const meta = kind.meta?.(row, ctx);
  if (meta && Object.keys(meta).length > 0) resource.meta = meta;
  return resource;
}

/** Drops `undefined` and `null` values: optional attributes without a value are left out (those of `keep` are `null`). */
function compact(attributes: Record<string, unknown>, keep: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) out[key] = value;
    else if (keep.includes(key)) out[key] = null;
  }
  return out;
}

/** Linkage for a to-one foreign key, `null` when unset. */
export function linkTo(type: string, id: string | undefined | null): Linkage | null {
  return id ? { type, id } : null;
}
