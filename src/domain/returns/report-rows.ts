import type { ReturnReportFilters } from '../../model/returns/report.js';
import type { ReturnItemRecord, ReturnRecord } from '../../model/returns/return.js';
import type { ReadView } from '../../store/store.js';
import { csvText } from '../csv.js';
import { textIn } from './localize.js';
import { DomainError, type Problem } from '../errors.js';
import { isoOf, momentOf, rangeBoundOf } from '../moments.js';

type Range = { date_from: string | number; date_to: string | number };

const within = (value: number | undefined, range: Range | undefined, name: string): boolean => {
  if (!range) return true;
  if (value === undefined) return false;
  const from = momentOf(range.date_from, { attribute: `filters.${name}.date_from` });
  const to = momentOf(range.date_to, { attribute: `filters.${name}.date_to` }, true);
  return value >= from && value <= to;
};

/** A bound as given, with its fraction of a second (`whole` when it has none to keep). */
const exactly = (raw: string | number, end: boolean, whole: number): number => (typeof raw === 'number' ? raw : (rangeBoundOf(raw, end) ?? whole));

/**
 * Checks the dates of a filter set when the report is asked for, not in a failed report: a bad
 * one is a 400; a range that ends before it starts selects nothing, and is a 422 at its end, as
 * a swapped range in a body is elsewhere (delivery dates, collection times).
 */
export function checkFilterDates(filters: ReturnReportFilters): void {
  const swapped: Problem[] = [];
  for (const name of ['created_at', 'approved_at', 'paid_at'] as const) {
    const range = filters[name];
    if (!range) continue;
    const from = momentOf(range.date_from, { attribute: `filters.${name}.date_from` });
    const to = momentOf(range.date_to, { attribute: `filters.${name}.date_to` }, true);
    // Compared exactly: a range inside one second is in order, though it holds no whole second.
    if (exactly(range.date_to, true, to) < exactly(range.date_from, false, from)) {
      swapped.push({
        detail: `filters.${name}.date_to must not lie before its date_from: the range would start at ${isoOf(from)} and end at ${isoOf(to)}, selecting nothing (were the two swapped?).`,
        field: { attribute: `filters.${name}.date_to` },
      });
    }
  }
  if (swapped.length > 0) throw new DomainError('unprocessable', swapped);
}

/** One line of a report: a returned item of a return. */
export type Entry = { row: ReturnRecord; item: ReturnItemRecord };

/** The returns of an organization that a report's filters select, item by item, oldest first. */
export function reportEntries(store: ReadView, organizationId: string, filters: ReturnReportFilters): Entry[] {
  const f = filters;
  // Every row is the organization's, so its broker is the one `brokers` can match.
  const broker = store.get('organizations', organizationId)?.broker_id;
  const rows = store.find('returns', 'organization_id', organizationId).filter((row) => {
    const order = store.get('demoOrders', row.order_id);
    const payment = row.payment_id ? store.get('returnPayments', row.payment_id) : undefined;
    return (
      within(row.created_at, f.created_at, 'created_at') &&
      within(row.approved_at, f.approved_at, 'approved_at') &&
      within(payment?.paid_at, f.paid_at, 'paid_at') &&
      (!f.order_reference || row.order_reference === f.order_reference) &&
      (!f.shops?.length || f.shops.includes(row.shop_id)) &&
      (!f.organizations?.length || f.organizations.includes(row.organization_id)) &&
      (!f.brokers?.length || (broker !== undefined && f.brokers.includes(broker))) &&
      (!f.outbound_shipment_identifier || order?.outbound_shipment_identifier === f.outbound_shipment_identifier) &&
      (!f.return_methods?.length || f.return_methods.includes(row.return_method_id)) &&
      (!f.return_statuses?.length || f.return_statuses.includes(row.status_code)) &&
      (!f.consumer_country_code?.length || f.consumer_country_code.includes(row.consumer_address.country_code)) &&
      (!f.consumer_email || row.consumer_address.email.toLowerCase() === f.consumer_email.toLowerCase())
    );
  });
  return rows.flatMap((row) =>
    row.items
      .filter(
        (item) =>
          (!f.item_sku || item.sku === f.item_sku) &&
          (!f.item_external_reference || item.id === f.item_external_reference) &&
          (!f.preferred_outcome || item.preferred_outcome === f.preferred_outcome) &&
          (!f.return_reasons?.length || (item.reason !== undefined && f.return_reasons.includes(item.reason.code))),
      )
      .map((item) => ({ row, item })),
  );
}

const COLUMNS = [
  'return_id',
  'created_at',
  'status',
  'shop',
  'order_reference',
  'consumer_name',
  'consumer_email',
  'consumer_country',
  'return_method',
  'item_id',
  'item_sku',
  'item_name',
  'quantity',
  'item_price',
  'currency',
  'reason_code',
  'reason',
  'comment',
  'preferred_outcome',
  'approved_at',
  'tracking_code',
  'payment_amount',
  'paid_at',
] as const;

/** The report as CSV (`csvText`): a header line, then one line per entry. */
export function reportCsv(store: ReadView, entries: readonly Entry[]): string {
  const lines = entries.map(({ row, item }) => {
    const shipment = row.shipment_id ? store.get('shipments', row.shipment_id) : undefined;
    const payment = row.payment_id ? store.get('returnPayments', row.payment_id) : undefined;
    const method = store.get('returnMethods', row.return_method_id);
    const values: Record<(typeof COLUMNS)[number], string | number | undefined> = {
      return_id: row.id,
      created_at: isoOf(row.created_at),
      status: row.status_code,
      shop: store.get('shops', row.shop_id)?.name,
      order_reference: row.order_reference,
      consumer_name: `${row.consumer_address.first_name} ${row.consumer_address.last_name}`,
      consumer_email: row.consumer_address.email,
      consumer_country: row.consumer_address.country_code,
      return_method: method?.title ?? method?.return_type,
      item_id: item.id,
      item_sku: item.sku ?? undefined,
      item_name: item.name,
      quantity: item.quantity,
      item_price: (item.item_price.amount / 100).toFixed(2),
      currency: item.item_price.currency,
      reason_code: item.reason?.code,
      reason: item.reason && textIn(item.reason.description, 'en-GB'),
      comment: item.reason?.comment,
      preferred_outcome: item.preferred_outcome,
      approved_at: isoOf(row.approved_at),
      tracking_code: shipment?.tracking_code,
      payment_amount: payment ? (payment.amount / 100).toFixed(2) : undefined,
      paid_at: isoOf(payment?.paid_at),
    };
    return COLUMNS.map((column) => values[column]);
  });
  return csvText([COLUMNS, ...lines]);
}
