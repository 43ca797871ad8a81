import { LATEST_SECONDS } from '../../model/common.js';
import type { ReadView } from '../../store/store.js';
import { DomainError } from '../errors.js';
import { textIn } from './localize.js';
import { DAY, dayOf, isoOf, momentOf, monthOf, rangeBoundOf } from '../moments.js';
import { claimsItems } from './orders.js';

/** Histograms cover this many days up to today on the sandbox clock, unless the query says otherwise. */
const DEFAULT_DAYS = 30;

export interface Window {
  shops?: readonly string[];
  date_from?: string;
  date_to?: string;
  group_by?: 'day' | 'month';
}

type Chart = { unit_type: 'amount'; labels: string[]; datasets: { label: string; data: number[] }[] };

/** The most buckets a chart has: ten years of days (the cost of a chart is bounded by it). */
const MAX_LABELS = 3660;

/** The first second of the UTC month after the one `at` is in. */
const nextMonth = (at: number): number => {
  const date = new Date(at * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
};

/**
 * The buckets of a window: every day (or month) from `date_from` to `date_to`, default the last 30
 * days. A window with more buckets than MAX_LABELS is refused (400 at filter[date_from]) rather
 * than cut short, which would leave its last days out of the counts without a word.
 */
function buckets(window: Window, now: number): { labels: string[]; key: (at: number) => string; from: number; to: number } {
  const to = window.date_to ? momentOf(window.date_to, { parameter: 'filter[date_to]' }, true) : Math.floor(now / DAY) * DAY + DAY - 1;
  const from = window.date_from ? momentOf(window.date_from, { parameter: 'filter[date_from]' }) : Math.floor(to / DAY) * DAY - (DEFAULT_DAYS - 1) * DAY;
  // A day after 9999 has no YYYY-MM-DD label (its ISO date is '+010000-01-01'): its labels would
  // come out cut and repeated, each counting the rows of all of them. No row is that late (the
  // clocks stop at the end of 9999), so a bound past it is refused rather than charted.
  for (const [at, parameter] of [
    // The end first: a start left out is worked out from it.
    [to, 'filter[date_to]'],
    [from, 'filter[date_from]'],
  ] as const) {
    if (at > LATEST_SECONDS) {
      throw DomainError.invalid(`'${parameter}' must not lie after 9999-12-31T23:59:59Z (Unix ${LATEST_SECONDS}): a chart labels its days YYYY-MM-DD.`, {
        parameter,
      });
    }
  }
  // A swapped range is refused at its end, as on every endpoint that takes a range (a date_from
  // after the default end, today, is no range the caller wrote: its chart is empty).
  // Compared exactly: a window inside one second (Date.now() / 1000 twice) is in order, though it holds no whole second.
  if (window.date_from && window.date_to && (rangeBoundOf(window.date_from, false) ?? from) > (rangeBoundOf(window.date_to, true) ?? to)) {
    throw DomainError.invalid(
      `'filter[date_to]' must not lie before 'filter[date_from]': the window would start at ${isoOf(from)} and end at ${isoOf(to)}, holding nothing (were the two swapped?).`,
      { parameter: 'filter[date_to]' },
    );
  }
  const monthly = window.group_by === 'month';
  const key = monthly ? monthOf : dayOf;
  const labels: string[] = [];
  for (let at = Math.floor(from / DAY) * DAY; at <= to; at = monthly ? nextMonth(at) : at + DAY) {
    if (labels.length === MAX_LABELS) {
      throw DomainError.invalid(
        `The window from ${dayOf(from)} to ${dayOf(to)} has more than ${MAX_LABELS} ${monthly ? 'months' : 'days'}: ask for a shorter one${monthly ? '' : ' (or per month where group_by is taken)'}.`,
        { parameter: 'filter[date_from]' },
      );
    }
    labels.push(key(at));
  }
  return { labels, key, from, to };
}

function histogram(labels: string[], key: (at: number) => string, times: readonly number[]): number[] {
  const counts = new Map(labels.map((label) => [label, 0]));
  for (const at of times) {
    const label = key(at);
    if (counts.has(label)) counts.set(label, counts.get(label)! + 1);
  }
  return labels.map((label) => counts.get(label)!);
}

const inShops = (window: Window) => (row: { shop_id: string }) => !window.shops?.length || window.shops.includes(row.shop_id);

/** Returns requested and approved per day. */
export function approvedChart(store: ReadView, organizationId: string, window: Window, now: number): Chart {
  const { labels, key, from, to } = buckets({ ...window, group_by: 'day' }, now);
  const rows = store.find('returns', 'organization_id', organizationId).filter(inShops(window));
  const inWindow = (at: number | undefined): at is number => at !== undefined && at >= from && at <= to;
  return {
    unit_type: 'amount',
    labels,
    datasets: [
      { label: 'requested', data: histogram(labels, key, rows.map((row) => row.created_at).filter(inWindow)) },
      { label: 'approved', data: histogram(labels, key, rows.map((row) => row.approved_at).filter(inWindow)) },
    ],
  };
}

/** Orders placed and returns requested per day or month. */
export function ordersChart(store: ReadView, organizationId: string, window: Window, now: number): Chart {
  const { labels, key, from, to } = buckets(window, now);
  const inWindow = (at: number) => at >= from && at <= to;
  const orders = store.find('demoOrders', 'organization_id', organizationId).filter(inShops(window));
  const returns = store.find('returns', 'organization_id', organizationId).filter(inShops(window));
  return {
    unit_type: 'amount',
    labels,
    datasets: [
      { label: 'orders', data: histogram(labels, key, orders.map((row) => row.created_at).filter(inWindow)) },
      { label: 'returns', data: histogram(labels, key, returns.map((row) => row.created_at).filter(inWindow)) },
    ],
  };
}

/** The ten items returned most (by quantity, in returns that still claim them), with their reasons. */
export function mostReturnedItems(store: ReadView, organizationId: string, window: Window) {
  const items = new Map<string, { sku: string; name: string; image_url?: string; amount: number; reasons: Map<string, { name: string; amount: number }> }>();
  for (const row of store.find('returns', 'organization_id', organizationId).filter(inShops(window)).filter(claimsItems)) {
    for (const item of row.items) {
      const sku = item.sku ?? item.id;
      const entry = items.get(sku) ?? { sku, name: item.name ?? item.description, image_url: item.image_url ?? undefined, amount: 0, reasons: new Map() };
      entry.amount += item.quantity;
      if (item.reason) {
        const reason = entry.reasons.get(item.reason.code) ?? { name: textIn(item.reason.description, 'en-GB'), amount: 0 };
        reason.amount += item.quantity;
        entry.reasons.set(item.reason.code, reason);
      }
      items.set(sku, entry);
    }
  }
  return [...items.values()]
    .sort((a, b) => b.amount - a.amount || a.sku.localeCompare(b.sku))
    .slice(0, 10)
    .map(({ reasons, image_url, ...item }) => ({
      item: { ...item, ...(image_url && /^https?:\/\//.test(image_url) ? { image_url } : {}) },
      return_reasons: [...reasons].map(([code, reason]) => ({ code, ...reason })).sort((a, b) => b.amount - a.amount || a.code.localeCompare(b.code)),
    }));
}
