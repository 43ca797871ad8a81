import { ApiError } from './errors.js';
import { toResourceObject, type Linkage, type RenderContext, type ResourceObject } from './resource.js';

/** Splits the `include` parameter and rejects any path the endpoint does not offer. */
export function parseIncludes(allowed: readonly string[] | undefined, raw: string | null): string[] {
  if (raw === null) return [];
  const paths = [
    ...new Set(
      raw
        .split(',')
        .map((path) => path.trim())
        .filter(Boolean),
    ),
  ];
  if (paths.length === 0) return [];
  if (!allowed || allowed.length === 0) {
    throw ApiError.of('invalidSchema', 'This endpoint does not support include.', { source: { parameter: 'include' } });
  }
  for (const path of paths) {
    if (!allowed.includes(path)) {
      throw ApiError.of('invalidSchema', `Unknown include path '${path}'. This endpoint includes: ${allowed.join(', ')}.`, {
        source: { parameter: 'include' },
      });
    }
  }
  return paths;
}

/** The resources reached by following each include path from the primary rows, each once. */
export function collectIncluded(ctx: RenderContext, rootType: string, rows: readonly { id: string }[], paths: readonly string[]): ResourceObject[] {
  const { kinds } = ctx;
  const primary = new Set(rows.map((row) => `${rootType}:${row.id}`));
  const included = new Map<string, ResourceObject>();
  for (const path of paths) {
    let frontier = rows.map((row) => ({ type: rootType, row }));
    for (const segment of path.split('.')) {
      const next: typeof frontier = [];
      for (const { type, row } of frontier) {
        const relationship = kinds.get(type)?.relationships[segment];
        if (!relationship) continue;
        const data = relationship.data(row, ctx);
        for (const linkage of asArray(data)) {
          const kind = kinds.get(linkage.type);
          const related = kind?.load(ctx, linkage.id);
          if (!kind || !related) continue;
          const key = `${linkage.type}:${linkage.id}`;
          if (!primary.has(key) && !included.has(key)) included.set(key, toResourceObject(kind, related, ctx));
          next.push({ type: linkage.type, row: related });
        }
      }
      frontier = next;
    }
  }
  return [...included.values()];
}

function asArray(data: Linkage | Linkage[] | null): Linkage[] {
  if (data === null) return [];
  return Array.isArray(data) ? data : [data];
}
