import type { RenderContext } from './resource.js';
import { formatQuery } from './links.js';

export type Page = { number: number; size: number };

const DEFAULT_PAGE_SIZE = 30;
const MAX_PAGE_SIZE = 100;

/**
 * Reads `page[number]` and `page[size]` leniently, as production does: values that are not
 * positive integers fall back to the default, sizes above the maximum are clamped.
 */
export function parsePage(query: URLSearchParams): Page {
  const number = positiveInt(query.get('page[number]')) ?? 1;
  const size = Math.min(positiveInt(query.get('page[size]')) ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { number, size };
}

function positiveInt(raw: string | null): number | undefined {
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return undefined;
  const value = Number(raw);
  if (value < 1) return undefined;
  // A whole number too large to hold exactly is still a large one: a page past the end, a size
  // clamped to the largest, as for any other large number (not page 1 of the default size).
  return Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER;
}

type PageLinks = { self: string; first: string; last: string; prev?: string; next?: string };

/**
 * One page of `rows` with `meta` and links that keep every other query parameter of the request.
 * With `newestFirst`, `rows` are oldest first and pages count from the end, without reversing
 * (and so copying) the whole list.
 */
export function paginate<T>(rows: readonly T[], page: Page, ctx: RenderContext, newestFirst = false) {
  const totalRecords = rows.length;
  const totalPages = Math.ceil(totalRecords / page.size);
  const start = (page.number - 1) * page.size;
  const kept = [...ctx.requestUrl.searchParams].filter(([key]) => key !== 'page[number]' && key !== 'page[size]');
  const link = (number: number) =>
    ctx.url(ctx.requestUrl.pathname) + formatQuery([...kept, ['page[number]', String(number)], ['page[size]', String(page.size)]]);
  // `last` names page `total_pages`, also when that is 0 (an empty list), as production's paginator
  // does: a client reading the last page number from the link gets what `meta` says.
  const links: PageLinks = { self: link(page.number), first: link(1), last: link(totalPages) };
  // Past the end, `prev` leads back to the last page that has rows (the first, for an empty list).
  if (page.number > 1) links.prev = link(Math.max(1, Math.min(page.number - 1, totalPages)));
  if (page.number < totalPages) links.next = link(page.number + 1);
  const end = totalRecords - start;
  return {
    rows: newestFirst ? (end > 0 ? rows.slice(Math.max(0, end - page.size), end).reverse() : []) : rows.slice(start, start + page.size),
    meta: { total_pages: totalPages, total_records: totalRecords },
    links,
  };
}
