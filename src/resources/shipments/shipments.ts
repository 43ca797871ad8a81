import { z } from 'zod';
import type { Ctx } from '../../http/context.js';
import { csvIds, csvStrings, dateFromParam, dateToParam, orderedRanges } from '../../http/params.js';
import { ApiError } from '../../jsonapi/errors.js';
import { countryCode } from '../../model/common.js';
import { carrierStatusCategories, type CarrierStatus, type ShipmentRecord } from '../../model/shipment.js';
import { readEndpoints } from '../read-endpoints.js';
import { shipmentKind, shipmentSchemas, shipmentVisible } from './shipment-kinds.js';
import { shipmentIncludes } from '../include-paths.js';

const query = z
  .object({
    'filter[shop]': csvIds.optional().describe('Comma separated shop ids.'),
    'filter[current_status_code]': csvStrings.optional().describe('Comma separated status codes, e.g. shipment-registered.'),
    'filter[created_at][date_from]': dateFromParam.optional(),
    'filter[created_at][date_to]': dateToParam.optional(),
    'filter[register_at][date_from]': dateFromParam.optional(),
    'filter[register_at][date_to]': dateToParam.optional(),
    'filter[tracking_code]': z.string().optional().describe('Exact tracking code.'),
    'filter[customer_reference]': z.string().optional().describe('Exact customer reference.'),
    'filter[channel]': z.string().optional().describe('Exact channel.'),
    'filter[description]': z.string().optional().describe('Exact description.'),
    'filter[carrier]': csvIds.optional().describe('Comma separated carrier ids (of the service or contract).'),
    'filter[service_code]': csvStrings.optional().describe('Comma separated service codes.'),
    'filter[tags]': csvStrings.optional().describe('Comma separated tags; shipments with at least one of them.'),
    'filter[search]': z.string().min(1).optional().describe('Case-insensitive text in description, customer reference, tracking code or recipient address.'),
    // Checked as a country code: `nl` or `NL,DE` would otherwise match no address and answer an empty list.
    'filter[recipient_address][country_code]': countryCode.optional().describe("The recipient address's ISO 3166-1 country code."),
    'filter[sender_address][country_code]': countryCode.optional().describe("The sender address's ISO 3166-1 country code."),
    'filter[organization]': csvIds
      .optional()
      .describe("Comma separated organization ids. A client sees only its own organization's shipments: another id gives an empty list."),
    'filter[broker]': csvIds.optional().describe("Comma separated broker ids; like filter[organization], only the caller's own broker keeps its shipments."),
    'filter[consolidation_shipment]': csvIds.optional().describe('Comma separated ids of consolidation shipments: the shipments consolidated into them.'),
    'filter[date_from]': dateFromParam.optional().meta({ deprecated: true, description: 'Deprecated form of filter[created_at][date_from].' }),
    'filter[date_to]': dateToParam.optional().meta({ deprecated: true, description: 'Deprecated form of filter[created_at][date_to].' }),
    'filter[carrier_status][category]': z
      .enum(carrierStatusCategories)
      .optional()
      .describe("The category of the latest carrier status of the shipment's current status; shipments without carrier statuses never match."),
  })
  .superRefine(
    orderedRanges(
      ['filter[created_at][date_from]', 'filter[created_at][date_to]'],
      ['filter[register_at][date_from]', 'filter[register_at][date_to]'],
      ['filter[date_from]', 'filter[date_to]'],
    ),
  );
type Query = z.output<typeof query>;

function inRange(value: number | undefined | null, from: number | undefined, to: number | undefined): boolean {
  if (from === undefined && to === undefined) return true;
  if (value === undefined || value === null) return false;
  return (from === undefined || value >= from) && (to === undefined || value <= to);
}

function carrierOf(ctx: Ctx, row: ShipmentRecord): string | undefined {
  const { store } = ctx;
  return (
    (row.service_id && store.get('services', row.service_id)?.carrier_id) ||
    (row.contract_id && store.get('contracts', row.contract_id)?.carrier_id) ||
    undefined
  );
}

/** The category of the latest carrier status on the shipment's current shipment-status, if it has any. */
function carrierCategory(ctx: Ctx, row: ShipmentRecord): string | undefined {
  const statuses = ctx.store.get('shipmentStatuses', row.shipment_status_id)?.carrier_statuses ?? [];
  let latest: CarrierStatus | undefined;
  for (const status of statuses) if (!latest || status.assigned_at >= latest.assigned_at) latest = status;
  // A carrier status without a category is of the default one, as production's schema says.
  return latest && (latest.category ?? 'default');
}

/**
 * Whether the text is in one of the fields `filter[search]` looks in, each on its own (as the
 * shops, organizations, contracts and addresses lists match theirs): joined into one text, a
 * search ran across a field's end into the next, so 'xl REF-22' found the shipment described
 * 'Green hat xl' with customer reference 'REF-22'. The recipient's whole name is one more field,
 * so a search for 'Anna de Vries' finds her shipments, as the returns list finds a consumer's.
 */
function matchesSearch(row: ShipmentRecord, search: string): boolean {
  const needle = search.toLowerCase();
  const address = row.recipient_address ?? {};
  const name = [address.first_name, address.last_name].filter(Boolean).join(' ');
  return [row.description, row.customer_reference, row.tracking_code, ...Object.values(address), name].some(
    (field) => field !== undefined && field !== null && String(field).toLowerCase().includes(needle),
  );
}

/**
 * Rejects status codes the catalogue does not know, so a typo is not an empty list. Production's
 * SDK pages and its DELETE note spell codes with underscores (`shipment_concept`); the API's are
 * hyphenated, so such a code is answered with the one it meant.
 */
function checkStatusCodes(ctx: Ctx, codes: string[] | undefined): void {
  // Only shipments' own: a return's or a collection's code (`return-approved`) names no status a shipment can have.
  const shipmentStatus = (code: string) => ctx.store.find('statuses', 'code', code).find((status) => status.resource_type === 'shipments');
  for (const code of codes ?? []) {
    if (!shipmentStatus(code)) {
      const hyphenated = code.replaceAll('_', '-');
      const meant = hyphenated !== code && shipmentStatus(hyphenated) !== undefined;
      const other = ctx.store.find('statuses', 'code', code)[0];
      const detail = meant
        ? `Unknown status code '${code}': status codes are written with hyphens, '${hyphenated}'.`
        : other
          ? `'${code}' is a status of ${other.resource_type}, not of shipments; GET /statuses lists the shipments' ones.`
          : `Unknown status code '${code}'; GET /statuses lists them.`;
      throw ApiError.of('invalidSchema', detail, { source: { parameter: 'filter[current_status_code]' } });
    }
  }
}

/** A list filter's values as a set, so a row is matched in one lookup however many values were sent. */
const setOf = (values: readonly string[] | undefined): ReadonlySet<string> | undefined => (values === undefined ? undefined : new Set(values));

/**
 * The shipments `q` keeps. Every list filter is matched through a set: with `includes` on the
 * list, a tenant's 100,000 shipments (its quota) against the few thousand values a query string
 * holds were hundreds of millions of comparisons in one request, which held every tenant's.
 */
function filterShipments(ctx: Ctx, rows: readonly ShipmentRecord[], q: Query): readonly ShipmentRecord[] {
  // The plain first page of a shipment overview needs no pass over every shipment.
  if (Object.values(q).every((value) => value === undefined)) return rows;
  checkStatusCodes(ctx, q['filter[current_status_code]']);
  const serviceCodes = setOf(q['filter[service_code]']);
  const services =
    serviceCodes &&
    new Set(
      ctx.store
        .all('services')
        .filter((s) => serviceCodes.has(s.code))
        .map((s) => s.id),
    );
  const shops = setOf(q['filter[shop]']);
  const statusCodes = setOf(q['filter[current_status_code]']);
  const carriers = setOf(q['filter[carrier]']);
  const tags = setOf(q['filter[tags]']);
  const organizations = setOf(q['filter[organization]']);
  const consolidations = setOf(q['filter[consolidation_shipment]']);
  // Whether the caller's broker is among those asked for: the same for every row.
  const ownBroker = !q['filter[broker]'] || q['filter[broker]'].includes(ctx.principal?.brokerId ?? '');
  const kept = rows.filter(
    (row) =>
      ownBroker &&
      (!shops || shops.has(row.shop_id)) &&
      (!statusCodes || statusCodes.has(row.status_code)) &&
      inRange(row.created_at, q['filter[created_at][date_from]'], q['filter[created_at][date_to]']) &&
      inRange(row.register_at, q['filter[register_at][date_from]'], q['filter[register_at][date_to]']) &&
      (q['filter[tracking_code]'] === undefined || row.tracking_code === q['filter[tracking_code]']) &&
      (q['filter[customer_reference]'] === undefined || row.customer_reference === q['filter[customer_reference]']) &&
      (q['filter[channel]'] === undefined || row.channel === q['filter[channel]']) &&
      (q['filter[description]'] === undefined || row.description === q['filter[description]']) &&
      (!carriers || carriers.has(carrierOf(ctx, row) ?? '')) &&
      (!services || (row.service_id !== undefined && services.has(row.service_id))) &&
      (!tags || (row.tags ?? []).some((tag) => tags.has(String(tag)))) &&
      (!q['filter[search]'] || matchesSearch(row, q['filter[search]'])) &&
      (!q['filter[recipient_address][country_code]'] || row.recipient_address.country_code === q['filter[recipient_address][country_code]']) &&
      (!q['filter[sender_address][country_code]'] || row.sender_address.country_code === q['filter[sender_address][country_code]']) &&
      (!organizations || organizations.has(row.organization_id)) &&
      (!consolidations || consolidations.has(row.consolidation_shipment_id ?? '')) &&
      inRange(row.created_at, q['filter[date_from]'], q['filter[date_to]']) &&
      (!q['filter[carrier_status][category]'] || carrierCategory(ctx, row) === q['filter[carrier_status][category]']),
  );
  return kept;
}

export const shipmentReadEndpoints = readEndpoints({
  kind: shipmentKind,
  include: shipmentIncludes,
  table: 'shipments',
  tag: 'Shipments',
  noun: 'shipment',
  plural: 'shipments',
  auth: { anyOf: ['shipments.manage'] },
  schemas: shipmentSchemas,
  rows: (ctx) => ctx.store.find('shipments', 'organization_id', ctx.principal?.organizationId),
  // Newest first, as a shipment overview shows them.
  newestFirst: true,
  visible: shipmentVisible,
  query,
  description: "Shipments of the caller's organization, newest first.",
  filter: filterShipments,
});
