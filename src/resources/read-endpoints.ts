import { z } from 'zod';
import type { Ctx, Kind } from '../http/context.js';
import { endpoint, type Auth, type Endpoint } from '../http/endpoint.js';
import { JSONAPI_MEDIA_TYPE, collectionDocument, resourceDocument } from '../jsonapi/document.js';
import { textResponse } from '../http/response-text.js';
import type { resourceSchemas } from '../jsonapi/schemas.js';
import type { Row, TableName } from '../store/tables.js';
import { findOr404 } from './lookup.js';

interface ReadOptions<T extends TableName, Q extends z.ZodObject> {
  kind: Kind<Row<T>>;
  table: T;
  tag: string;
  /** Singular and plural human names: "service option", "service options". */
  noun: string;
  plural: string;
  auth: Auth;
  /** Auth of the get endpoint, when it differs from the list. */
  getAuth?: Auth;
  schemas: ReturnType<typeof resourceSchemas>;
  visible?: (ctx: Ctx, row: Row<T>) => boolean;
  /** The rows the get endpoint answers, when they are more than the list shows (`visible` otherwise). */
  readable?: (ctx: Ctx, row: Row<T>) => boolean;
  /** The rows a list may show, when an index gives them cheaper than filtering the whole table by `visible`. */
  rows?: (ctx: Ctx) => readonly Row<T>[];
  /** List the newest rows first (rows are kept oldest first). */
  newestFirst?: boolean;
  query?: Q;
  /** Include paths of the list (production's list for the operation); none when left out. */
  include?: readonly string[];
  /** Include paths of the get endpoint, when they differ from the list's. */
  getInclude?: readonly string[];
  filter?: (ctx: Ctx, rows: readonly Row<T>[], query: z.output<Q>) => readonly Row<T>[];
  description?: string;
}

/** `return reason` -> `ReturnReason`: a noun as it appears in an operation id. */
export const pascal = (words: string) => words.replace(/(^| )([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

/** `GET /{type}`: the visible rows, filtered and paginated. */
function listEndpoint<T extends TableName, Q extends z.ZodObject = z.ZodObject<{}>>(options: ReadOptions<T, Q>): Endpoint {
  const { kind, table, schemas } = options;
  const visible = options.visible ?? (() => true);
  return endpoint({
    method: 'get',
    path: `/${kind.type}`,
    operationId: `list${pascal(options.plural)}`,
    summary: `List ${options.plural}`,
    description: options.description,
    tag: options.tag,
    auth: options.auth,
    query: options.query,
    paginated: true,
    include: options.include,
    responses: { 200: { description: `The ${options.plural} the caller can see.`, schema: schemas.list } },
    handler: (ctx, { query, page, include }) => {
      // The document depends on the caller (what it sees), the request's path and query (filters,
      // page, includes, the links) and the link base; see render-cache.ts for what a hit saves.
      const { store, renderCache } = ctx;
      const url = ctx.requestUrl;
      const principal = ctx.principal;
      const key = `list\u0000${ctx.url('')}\u0000${principal?.organizationId ?? ''}\u0000${principal?.clientId ?? ''}\u0000${principal?.scopes.join(' ') ?? ''}\u0000${url.pathname}${url.search}`;
      let rendered = renderCache.get(store.version, key);
      if (rendered === undefined) {
        let rows: readonly Row<T>[] = options.rows ? options.rows(ctx) : ctx.store.all(table).filter((row) => visible(ctx, row));
        if (options.filter) rows = options.filter(ctx, rows, query as z.output<Q>);
        const value = collectionDocument(ctx, kind, rows, page, include, options.newestFirst);
        rendered = { text: JSON.stringify(value), value };
        renderCache.set(store.version, key, rendered);
      }
      return textResponse(rendered.text, { headers: { 'content-type': JSONAPI_MEDIA_TYPE }, value: rendered.value, extra: ctx.answerHeaders });
    },
  });
}

/** `GET /{type}/{id}`: one visible row, or 404 for rows that do not exist or are not the caller's. */
export function getEndpoint<T extends TableName, Q extends z.ZodObject = z.ZodObject<{}>>(options: ReadOptions<T, Q>): Endpoint {
  const { kind, table, noun, schemas } = options;
  const idName = `${noun.replace(/ /g, '_')}_id`;
  const visible = options.readable ?? options.visible ?? (() => true);
  return endpoint({
    method: 'get',
    path: `/${kind.type}/{${idName}}`,
    operationId: `get${pascal(noun)}`,
    // 'an address', 'an organization': the article by the sound, which for these nouns is the first letter.
    summary: `Get ${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`,
    tag: options.tag,
    auth: options.getAuth ?? options.auth,
    params: z.object({ [idName]: z.string() }),
    table,
    include: options.getInclude ?? options.include,
    responses: { 200: { description: `The ${noun}.`, schema: schemas.document } },
    handler: (ctx, { params, include }) => {
      const id = (params as Record<string, string>)[idName]!;
      const row = findOr404(ctx, table, kind.type, id, (candidate) => visible(ctx, candidate));
      // The document depends on the row, the includes, the tenant (what includes may show) and the link base.
      const { store, renderCache } = ctx;
      const key = `${ctx.url('')}\u0000${ctx.principal?.organizationId ?? ''}\u0000${kind.type}\u0000${id}\u0000${include.join(',')}`;
      let rendered = renderCache.get(store.version, key);
      if (rendered === undefined) {
        rendered = { text: JSON.stringify(resourceDocument(ctx, kind, row, include)) };
        renderCache.set(store.version, key, rendered);
      }
      return textResponse(rendered.text, { headers: { 'content-type': JSONAPI_MEDIA_TYPE }, extra: ctx.answerHeaders });
    },
  });
}

/** The list and get endpoints of a resource type, which differ only in names, filters and visibility. */
export function readEndpoints<T extends TableName, Q extends z.ZodObject = z.ZodObject<{}>>(options: ReadOptions<T, Q>): Endpoint[] {
  return [listEndpoint(options), getEndpoint(options)];
}
