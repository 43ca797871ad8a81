import type { Ctx } from '../http/context.js';
import { textResponse } from '../http/response-text.js';
import { collectIncluded } from './include.js';
import { paginate, type Page } from './pagination.js';
import { toResourceObject, type ResourceKind } from './resource.js';

export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

/** A JSON:API response. */
export function jsonApi(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return textResponse(JSON.stringify(body), { status, headers: { 'content-type': JSONAPI_MEDIA_TYPE, ...headers }, value: body });
}

/** A plain JSON response (auth server, sandbox controls). */
export function plainJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return textResponse(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers }, value: body });
}

/** `{data: resource, included?}` for one row. */
export function resourceDocument<R extends { id: string }>(
  ctx: Ctx,
  kind: ResourceKind<R>,
  row: R,
  include: readonly string[] = [],
  extra: { meta?: Record<string, unknown> } = {},
) {
  const document: Record<string, unknown> = { data: toResourceObject(kind, row, ctx) };
  if (include.length > 0) document.included = collectIncluded(ctx, kind.type, [row], include);
  if (extra.meta) document.meta = extra.meta;
  return document;
}

/** A paginated list document of `rows` (already filtered), with `included` only when asked. */
export function collectionDocument<R extends { id: string }>(
  ctx: Ctx,
  kind: ResourceKind<R>,
  rows: readonly R[],
  page: Page,
  include: readonly string[] = [],
  newestFirst = false,
) {
  const { rows: slice, meta, links } = paginate(rows, page, ctx, newestFirst);
  const document: Record<string, unknown> = { data: slice.map((row) => toResourceObject(kind, row, ctx)), meta, links };
  if (include.length > 0) document.included = collectIncluded(ctx, kind.type, slice, include);
  return document;
}
