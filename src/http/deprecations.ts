import { PRODUCTION_DEPRECATIONS, PRODUCTION_DOCUMENT, type ProductionUse } from '../fixtures/reference/production-operations.js';

/*
 * What production marks deprecated (the list is derived from its contract, in
 * fixtures/reference/production-operations.ts) and what a request that uses one is told: the
 * sandbox answers as production does, and adds `Deprecation` (RFC 9745) and a `Link` to where the
 * API reference describes what to use instead. The request log and the report note the use.
 */

/** What replaces a deprecated thing, in words, and the production operation whose reference page shows it. */
export interface Replacement {
  instead: string;
  /** Production's operation (contract key) that documents the replacement; the deprecated operation's own page when left out. */
  operation?: string;
}

const TAX_NUMBERS: Replacement = { instead: '`tax_identification_numbers` (a list of {country_code, number, type})' };

/**
 * What replaces each deprecation, by its id. Production's contract says what is deprecated, not
 * what replaces it: these are the members and operations its documents offer for the same
 * purpose. test/deprecations.test.ts fails when a deprecation of the contract has no entry here,
 * or an entry names none.
 */
export const REPLACEMENTS: Readonly<Record<string, Replacement>> = {
  'brokers.logo_url': { instead: '`logo` (an image {mime_type, contents}); the sandbox serves it as `logo_url`' },
  'carriers.label_mime_types': { instead: '`label_formats` ({mime_type, size} of each label the carrier makes)', operation: 'GET /carriers' },
  'collections.name': { instead: '`description`' },
  'manifests.shop': { instead: 'the `owner` relationship (a shop, organization or broker)' },
  'organizations.vat_number': TAX_NUMBERS,
  'organizations.eori_number': TAX_NUMBERS,
  'organizations.voec_number': TAX_NUMBERS,
  'organizations.style': { instead: "the broker's `style`, or a shop's `branding`", operation: 'PATCH /shops/{shop_id}' },
  'regions.region_code': { instead: "a service's address rules (`regions_from`, `regions_to`)", operation: 'GET /services' },
  'regions.parent': { instead: "a service's address rules (`regions_from`, `regions_to`)", operation: 'GET /services' },
  'services.region_from': { instead: 'the `regions_from` address rules, or the `zone_from` relationship', operation: 'GET /services' },
  'services.region_to': { instead: 'the `regions_to` address rules, or the `zone_to` relationship', operation: 'GET /services' },
  'shipments.recipient_tax_number': { instead: '`recipient_tax_identification_numbers`' },
  'shipments.sender_tax_number': { instead: '`sender_tax_identification_numbers`' },
  'shops.logo_url': { instead: '`meta.logo` (an image {mime_type, contents}); the sandbox serves it as `logo_url`' },
  'shops.style': { instead: '`branding` ({returns, tracking})' },
  'GET /manifests/{manifest_id}/files/{file_id} Accept': {
    instead: 'nothing named by production: leave `Accept` out (or `*/*`) and the PDF is answered',
  },
  'GET /regions': { instead: "a service's address rules and `filter[address_from]`/`filter[address_to]` of GET /services", operation: 'GET /services' },
  'GET /regions/{region_id}': { instead: "a service's address rules (`regions_from`, `regions_to`)", operation: 'GET /services/{service_id}' },
  'GET /returns/v1/shops/{shop_id}/orders/{reference}/{email}': {
    instead: 'GET /orders/v1/orders/{reference} with `shop_id` and `email`',
    operation: 'GET /orders/v1/orders/{reference}',
  },
  'GET /services filter[region_from]': { instead: '`filter[address_from][country_code|state_code|postal_code]`' },
  'GET /services filter[region_to]': { instead: '`filter[address_to][country_code|state_code|postal_code]`' },
  'GET /service-rates filter[volumetric_weight]': { instead: '`filter[volume]` (litres): the volumetric weight follows from it' },
  'GET /shipments filter[date_from]': { instead: '`filter[created_at][date_from]`' },
  'GET /shipments filter[date_to]': { instead: '`filter[created_at][date_to]`' },
  'POST /shipments /meta/label_mime_type': { instead: '`meta.label.mime_type`' },
  'POST /registered-shipments /meta/collection/name': { instead: '`meta.collection.description`' },
  'POST /registered-shipments /meta/label_mime_type': { instead: '`meta.label.mime_type`' },
  'PATCH /shipments/{shipment_id} /meta/label_mime_type': { instead: '`meta.label.mime_type`' },
};

/** A deprecated thing one request used: its id, where the request used it, and what to use instead. */
export interface DeprecatedUse {
  id: string;
  /** `operation`, a query parameter's name, a header's name, or a JSON pointer into the body. */
  where: string;
  instead: string;
  /** Production's operation whose reference page shows the replacement. */
  see: string;
}

/** What a check looks at of one request. */
export interface RequestParts {
  search: URLSearchParams;
  header(name: string): string | undefined;
  /** The body as parsed (not validated), when the endpoint read one. */
  body: unknown;
}

/** The deprecated things one request uses; `undefined` when none. */
export type DeprecationCheck = (request: RequestParts) => DeprecatedUse[] | undefined;

/** Whether the member a JSON pointer names is in `value` (present, even as null). */
function hasMember(value: unknown, pointer: string): boolean {
  let at = value;
  for (const name of pointer.slice(1).split('/')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, name)) return false;
    at = (at as Record<string, unknown>)[name];
  }
  return at !== undefined;
}

/** Whether an `Accept` header names one of `values` (a deprecated header is used when a request sends it with a value production lists). */
function namesValue(header: string | undefined, values: readonly string[] | undefined): boolean {
  if (header === undefined) return false;
  if (values === undefined) return true;
  return header.split(',').some((part) => values.includes(part.split(';')[0]!.trim().toLowerCase()));
}

function used(use: ProductionUse, request: RequestParts): boolean {
  switch (use.in) {
    case 'operation':
      return true;
    case 'query':
      return request.search.has(use.name);
    case 'header':
      return namesValue(request.header(use.name), use.values);
    case 'body':
      return hasMember(request.body, use.pointer);
  }
}

const whereOf = (use: ProductionUse): string => (use.in === 'operation' ? 'operation' : use.in === 'body' ? use.pointer : use.name);

/** Every use of a deprecated thing, by production operation (contract key). */
const usesByOperation = new Map<string, { id: string; use: ProductionUse }[]>();
for (const deprecation of PRODUCTION_DEPRECATIONS) {
  for (const use of deprecation.uses) {
    const list = usesByOperation.get(use.operation) ?? [];
    list.push({ id: deprecation.id, use });
    usesByOperation.set(use.operation, list);
  }
}

/**
 * The check of one production operation, made once when the app is built: `undefined` for an
 * operation with nothing deprecated (nearly all), so a request of one costs nothing more.
 */
export function deprecationCheck(operation: string): DeprecationCheck | undefined {
  const uses = usesByOperation.get(operation);
  if (!uses) return undefined;
  return (request) => {
    let found: DeprecatedUse[] | undefined;
    for (const { id, use } of uses) {
      if (!used(use, request)) continue;
      const replacement = REPLACEMENTS[id];
      (found ??= []).push({
        id,
        where: whereOf(use),
        instead: replacement?.instead ?? 'nothing named by production',
        see: replacement?.operation ?? operation,
      });
    }
    return found;
  };
}

/** `Deprecation` as RFC 9745 writes it (a structured field date): the date of production's document, the latest the deprecation can have begun. */
export const DEPRECATION_DATE = `@${PRODUCTION_DOCUMENT.date}`;

/** A `title` parameter of a Link (RFC 8288): a quoted string, with quotes and backslashes escaped. */
const quoted = (text: string) => `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;

/**
 * The headers of an answer to a request that used deprecated things: `Deprecation`, and a
 * `Link` (rel="deprecation") per use to the API reference of the operation that shows what to
 * use instead, its title naming the replacement. `reference` makes the page's URL of a
 * production operation.
 */
export function deprecationHeaders(uses: readonly DeprecatedUse[], reference: (operation: string) => string): Record<string, string> {
  const links = uses.map(
    (use) =>
      `<${reference(use.see)}>; rel="deprecation"; type="text/html"; title=${quoted(`${use.where === 'operation' ? use.id : use.where} is deprecated: use ${use.instead}`.replace(/`/g, ''))}`,
  );
  return { deprecation: DEPRECATION_DATE, link: links.join(', ') };
}
