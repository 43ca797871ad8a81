/**
 * Shared helpers of the hostile-input and isolation suites (fuzz, token attacks, scope and tenant
 * matrices): raw requests, a populated two-tenant world with snapshot/restore, the classification
 * of path parameters, valid request bodies per operation, and the invariants every answer keeps.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { PNG } from 'pngjs';
import { allEndpoints } from '../../src/app.js';
import { signToken } from '../../src/auth/tokens.js';
import type { Endpoint } from '../../src/http/endpoint.js';
import { scopes, seedScopes, type Scope } from '../../src/model/tenancy.js';
import type { ReadView } from '../../src/store/store.js';
import type { Capabilities, CapabilityPage } from '../../src/domain/capabilities.js';
import { pickupLocations } from '../../src/domain/pickup/locations.js';
import { pickupLocationId } from '../../src/domain/pickup/location-types.js';
import { brokerTables, tableDeclarations, tableNames, type Row, type StateData, type TableName } from '../../src/store/tables.js';
import { examples, exampleIds } from '../../src/docs/examples/index.js';
import { enterpriseIdOf } from '../../src/resources/accounts/organizations.js';
import { BASE, TEST_NOW, type Answer, type Json, type TestSandbox } from './app.js';
import { createShipment, recipients, shipmentBody, world, type World } from './shipments.js';
import { populateReturns, returnsValidBody, type TenantReturns } from './matrix-returns.js';

// ---------------------------------------------------------------------------------------------
// Endpoints and raw requests

/** Every scope a client may hold. */
export const SCOPES: readonly Scope[] = scopes;

/** `GET /shops/{shop_id}` */
export const nameOf = (endpoint: Endpoint): string => `${endpoint.method.toUpperCase()} ${endpoint.path}`;

/** Every declared endpoint, in registration order (the HEAD/OPTIONS helpers included). */
export const endpoints = (): readonly Endpoint[] => allEndpoints();

/** The names of the path parameters of an OpenAPI path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/** The path with its parameters replaced; values are percent-encoded unless `raw`. */
export function fillPath(path: string, values: Record<string, string>, raw = false): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return raw ? value : encodeURIComponent(value);
  });
}

/** Whether a method may carry a body in a fetch `Request`. */
export const canHaveBody = (method: string): boolean => !['GET', 'HEAD'].includes(method.toUpperCase());

export interface RawRequest {
  method: string;
  /** Path and query exactly as sent (nothing is encoded here). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
}

/** Sends a request to the app exactly as given; the answer's body is parsed when it is JSON. */
export async function send(sandbox: TestSandbox, request: RawRequest): Promise<Answer> {
  const init: RequestInit & { duplex?: 'half' } = { method: request.method.toUpperCase(), headers: request.headers ?? {} };
  if (request.body !== undefined && canHaveBody(request.method)) {
    init.body = request.body as RequestInit['body'];
    if (request.body instanceof ReadableStream) init.duplex = 'half';
  }
  const response = await sandbox.app.request(BASE + request.path, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  const text = /json|text|javascript|xml|svg/.test(type) || type === '' ? bytes.toString('utf8') : `<${bytes.length} bytes of ${type}>`;
  let body: Json = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

export const bearer = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

/** A JSON request with an optional bearer token. */
export function jsonRequest(method: string, path: string, token: string | undefined, body?: unknown): RawRequest {
  const headers: Record<string, string> = { ...bearer(token) };
  if (body === undefined || !canHaveBody(method)) return { method, path, headers };
  headers['content-type'] = 'application/vnd.api+json';
  return { method, path, headers, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

/**
 * A valid access token of `clientId` with exactly `scopes`, signed by the sandbox's own key and
 * signing function: what `POST /access-token` would issue, but also for the empty set, which the
 * token endpoint cannot be asked for (no scope means every scope of the client).
 */
export async function tokenWithScopes(sandbox: TestSandbox, clientId: string, scopes: readonly string[]): Promise<string> {
  const client = sandbox.store.get('clients', clientId);
  if (!client) throw new Error(`no client ${clientId}`);
  const { token } = await signToken(sandbox.keys, sandbox.clock, sandbox.config, {
    clientId,
    scopes,
    jti: randomUUID(),
    generation: client.token_generation,
  });
  return token;
}

/** The scope requirements an endpoint checks, each as the list of scopes held together (`[]` for any token). */
function requirementsOf(endpoint: Endpoint): Scope[][] {
  const { auth } = endpoint;
  if (auth === 'token') return [[]];
  if (typeof auth !== 'object') return [];
  return auth.anyOf.map((requirement) => (typeof requirement === 'string' ? [requirement] : [...requirement]));
}

/** Whether a token holding `held` passes the endpoint's scope check. */
export function satisfies(endpoint: Endpoint, held: readonly Scope[]): boolean {
  return requirementsOf(endpoint).some((requirement) => requirement.every((scope) => held.includes(scope)));
}

/**
 * The scope sets that tell whether an endpoint checks what it declares: none, every scope, each
 * of the seed's three alone, each accepted requirement alone and (for scopes held together) with
 * one of them missing, and every scope but those the endpoint accepts. Deduplicated, the empty one first.
 */
export function scopeSetsFor(endpoint: Endpoint): Scope[][] {
  const requirements = typeof endpoint.auth === 'object' ? requirementsOf(endpoint) : [];
  const accepted = new Set(requirements.flat());
  const sets: Scope[][] = [[], [...scopes], ...seedScopes.map((scope) => [scope])];
  for (const requirement of requirements) {
    sets.push(requirement);
    if (requirement.length > 1) for (const missing of requirement) sets.push(requirement.filter((scope) => scope !== missing));
  }
  if (requirements.length > 0) sets.push(scopes.filter((scope) => !accepted.has(scope)));
  const seen = new Map(sets.map((set) => [[...set].sort().join(' '), [...set].sort()]));
  return [...seen.values()].sort((a, b) => a.length - b.length);
}

// ---------------------------------------------------------------------------------------------
// Path parameters: which resource each names, and who owns it

/**
 * Parameters whose resource type is not the path segment in front of them. Everything else is
 * derived: `/shops/{shop_id}` names `shops`, checked by `shop_id` being the singular of `shops`.
 */
const NESTED_PARAMS: Readonly<Record<string, string>> = {
  shipment_status_id: 'shipment-statuses',
  shipment_surcharge_id: 'shipment-surcharges',
  tracking_token: 'tracking-pages',
  country_code: 'pickup-location-searches',
  postal_code: 'pickup-location-searches',
  pudo_id: 'pickup-dropoff-locations',
  file: 'docs-assets',
  brand_logo: 'brand-logos',
  contract_template_id: 'contract-templates',
  return_reason_id: 'return-reasons',
  return_question_id: 'return-questions',
  return_tag_id: 'return-tags',
  report_id: 'return-reports',
  payment_id: 'return-payments',
  reference: 'order-references',
  email: 'order-emails',
  portal_token: 'return-portals',
  checkout_token: 'return-checkouts',
};

/** Parameters whose resource type depends on the path they are in: a collection's or a manifest's files are manifest documents, a report's its CSV. */
const PATH_PARAMS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '/manifests/{manifest_id}/files/{file_id}': { file_id: 'manifest-files' },
  '/collections/{collection_id}/files/{file_id}': { collection_id: 'manifested-collections', file_id: 'collection-files' },
  '/returns/v1/reports/{report_id}/files/{file_id}': { file_id: 'return-report-files' },
  // An organization id or a client id of the tenant: tried with organization ids.
  '/_sandbox/tenants/{tenant}': { tenant: 'organizations' },
};

const singular = (segment: string): string => segment.replace(/-/g, '_').replace(/(ses|s)$/, (end) => (end === 'ses' ? 's' : ''));

/** The resource type a path parameter names, or `undefined` when neither the path nor the table says. */
function resourceOfParam(path: string, param: string): string | undefined {
  const nested = PATH_PARAMS[path]?.[param] ?? NESTED_PARAMS[param];
  if (nested) return nested;
  const segments = path.split('/');
  const before = segments[segments.indexOf(`{${param}}`) - 1];
  if (!before || before.startsWith('{')) return undefined;
  return `${singular(before)}_id` === param ? before : undefined;
}

/** The capabilities of each populated sandbox, by its store: the tokens of its public pages are made with them. */
const capabilitiesOf = new WeakMap<ReadView, Capabilities>();
/** The token of a public page of row `id` in the sandbox of `store`. */
const capability = (store: ReadView, page: CapabilityPage, id: string | undefined) =>
  id === undefined ? undefined : capabilitiesOf.get(store)?.token(page, id);

/** An organization id, or `undefined` for rows every tenant shares (the catalogue, broker contracts). */
type OwnerOf = (store: ReadView, row: any) => string | undefined;

/**
 * The organization a row belongs to as its table declares it (store/tables.ts), or `undefined` for
 * everyone's: the matrices check that the API shows each row to that organization alone.
 */
function declaredOwner(store: ReadView, table: TableName, row: { id: string } & Record<string, unknown>): string | undefined {
  const { tenant } = tableDeclarations[table];
  if (!('key' in tenant) || tenant.as === 'about' || tenant.as === 'part') return undefined;
  const value = row[tenant.key];
  if (tenant.as === 'owner') {
    const owner = value as { type: string; id: string };
    return owner.type === 'organizations' ? owner.id : undefined;
  }
  if (tenant.of) {
    const parent = typeof value === 'string' ? store.get(tenant.of, value) : undefined;
    return parent && declaredOwner(store, tenant.of, parent as never);
  }
  return typeof value === 'string' ? value : undefined;
}

export type ResourceClass =
  /**
   * Belongs to one organization: other tenants must get 404/10002 for it. Its owner is the one its
   * table declares (`declaredOwner`) unless `ownerOf` says otherwise.
   */
  | { kind: 'tenant'; table: TableName; ownerOf?: OwnerOf; parent?: { param: string; field: string } }
  /** Reachable by anyone who knows the id, on purpose; `why` says why. */
  | { kind: 'public'; why: string; pick: (store: ReadView, organizationId: string, chosen: Record<string, string>) => string | undefined }
  /** Not owned by a tenant: the catalogue, the broker, search keys. */
  | { kind: 'shared'; why: string; pick: (store: ReadView, chosen: Record<string, string>) => string | undefined };

const first =
  <T extends TableName>(table: T, where: (row: Row<T>) => boolean = () => true) =>
  (store: ReadView) =>
    store.all(table).find(where)?.id;

/**
 * The types the declarations classify: an endpoint made by the read or write declarations names
 * the table of its last path parameter, a table a tenant owns makes its type a tenant's, and a
 * table of a broker's rows makes it shared.
 */
function declaredResources(): Record<string, ResourceClass> {
  const found: Record<string, ResourceClass> = {};
  for (const endpoint of allEndpoints()) {
    const param = pathParams(endpoint.path).at(-1);
    const type = endpoint.table && param ? resourceOfParam(endpoint.path, param) : undefined;
    if (!type || !endpoint.table) continue;
    const { tenant } = tableDeclarations[endpoint.table];
    if ('key' in tenant && tenant.as !== 'about' && tenant.as !== 'part') found[type] = { kind: 'tenant', table: endpoint.table };
    // Both fixture organizations belong to the one sandbox broker, so a broker's row is shared by the matrix tenants.
    if ('broker' in tenant && tenant.broker) found[type] = { kind: 'shared', why: tenant.shared, pick: first(endpoint.table) };
  }
  return found;
}

/**
 * The types classified by hand: those no read or write declaration names, and those whose class is
 * not their declaration's (nested under a parent, public, shared, or owned otherwise than their
 * table says). A new type a declaration names needs no line here.
 */
const CLASSIFIED: Readonly<Record<string, ResourceClass>> = {
  'shipment-statuses': {
    kind: 'tenant',
    table: 'shipmentStatuses',
    parent: { param: 'shipment_id', field: 'shipment_id' },
  },
  'shipment-surcharges': {
    kind: 'tenant',
    table: 'shipmentSurcharges',
    parent: { param: 'shipment_id', field: 'shipment_id' },
  },
  files: { kind: 'tenant', table: 'files' },
  'manifested-collections': {
    kind: 'tenant',
    table: 'collections',
    ownerOf: (store, row) => (store.find('manifestFiles', 'collection_id', row.id).length > 0 ? row.organization_id : undefined),
  },
  'manifest-files': {
    kind: 'tenant',
    table: 'manifestFiles',
    parent: { param: 'manifest_id', field: 'manifest_id' },
  },
  'collection-files': {
    kind: 'tenant',
    table: 'manifestFiles',
    parent: { param: 'collection_id', field: 'collection_id' },
  },
  'hook-logs': { kind: 'tenant', table: 'hookLogs' },
  logos: {
    kind: 'public',
    why: 'GET /logos/{logo_id} is auth "none" on purpose: the URL is the shop\'s logo_url, embedded as <img> in tracking pages and e-mails that send no token; ids are random UUIDs',
    pick: (store, organizationId) => store.all('logos').find((logo) => store.get('shops', logo.shop_id)?.organization_id === organizationId)?.id,
  },
  'tracking-pages': {
    kind: 'public',
    why: 'GET /tracking/{tracking_token} is the recipient-facing tracking page (auth "none"), reached by the tracking_page_url, a capability signed by the sandbox',
    pick: (store, organizationId) =>
      capability(store, 'tracking-page', store.all('shipments').find((row) => row.organization_id === organizationId && row.tracking_code)?.id),
  },
  carriers: { kind: 'shared', why: 'catalogue', pick: first('carriers', (row) => row.code === 'postnl') },
  services: { kind: 'shared', why: 'catalogue', pick: first('services') },
  'service-options': { kind: 'shared', why: 'catalogue', pick: first('serviceOptions') },
  regions: { kind: 'shared', why: 'catalogue', pick: first('regions') },
  statuses: { kind: 'shared', why: 'catalogue', pick: first('statuses') },
  brokers: {
    kind: 'shared',
    why: "both fixture organizations belong to the one sandbox broker; GET /brokers/{id} shows only the caller's broker",
    pick: first('brokers'),
  },
  'pickup-location-searches': {
    kind: 'shared',
    why: 'a country and postal code to search pick-up points near; generated, owned by nobody',
    pick: (_store, chosen) => (chosen.country_code === undefined ? 'NL' : '1012AB'),
  },
  'pickup-dropoff-locations': {
    kind: 'shared',
    why: 'generated from a carrier, country and postal code; the id names that search, owned by nobody',
    pick: (store, chosen) => {
      const carrier = chosen.carrier_id === undefined ? undefined : store.get('carriers', chosen.carrier_id);
      const location = carrier && pickupLocations(carrier.code, 'NL', '1012AB')[0];
      return location && pickupLocationId('NL', '1012AB', location.code);
    },
  },
  'docs-assets': { kind: 'shared', why: 'static files of the API reference page', pick: () => 'docs.css' },
  'brand-logos': {
    kind: 'shared',
    why: 'carrier and broker logos the sandbox draws; public (a pack carrier and a broker by capability)',
    pick: () => 'carrier-postnl.svg',
  },
  'demo-orders': { kind: 'tenant', table: 'demoOrders' },
  // A demo order's id is its reference.
  'order-references': { kind: 'tenant', table: 'demoOrders', parent: { param: 'shop_id', field: 'shop_id' } },
  'order-emails': {
    kind: 'shared',
    why: "the e-mail address of the order in the path, which proves the consumer knows it (the order's tenant is checked through the order)",
    pick: (store, chosen) => (chosen.reference === undefined ? undefined : store.get('demoOrders', chosen.reference)?.recipient_address.email),
  },
  returns: { kind: 'tenant', table: 'returns' },
  'return-payments': { kind: 'tenant', table: 'returnPayments', parent: { param: 'return_id', field: 'return_id' } },
  'return-reports': { kind: 'tenant', table: 'returnReports' },
  'return-report-files': {
    kind: 'tenant',
    table: 'returnReportFiles',
    parent: { param: 'report_id', field: 'report_id' },
  },
  'return-portals': {
    kind: 'public',
    why: 'GET /return-portal/{portal_token} is the shop\'s return_portal_url, a consumer-facing page (auth "none") that shows the shop\'s name; its token is a capability signed by the sandbox',
    pick: (store, organizationId) => capability(store, 'return-portal', store.find('shops', 'organization_id', organizationId)[0]?.id),
  },
  'return-checkouts': {
    kind: 'public',
    why: 'the payment page a checkout_url leads a consumer to (auth "none"): its token is the random payment id signed by the sandbox, so it cannot be made up',
    pick: (store, organizationId) =>
      capability(store, 'payment-page', store.all('returnPayments').find((row) => row.organization_id === organizationId && row.paid_at === undefined)?.id),
  },
};

const DECLARED = declaredResources();

/** Every resource type a path parameter can name, classified. */
export const RESOURCES: Readonly<Record<string, ResourceClass>> = { ...DECLARED, ...CLASSIFIED };

/** The types classified by hand exactly as their declarations classify them: lines to drop. */
export const classifiedTwice = (): string[] => Object.keys(CLASSIFIED).filter((type) => isDeepStrictEqual(CLASSIFIED[type], DECLARED[type]));

/** The class of a path parameter of an endpoint, or an error message when it is not classified. */
export function classify(endpoint: Endpoint, param: string): { type: string; resource: ResourceClass } | string {
  const type = resourceOfParam(endpoint.path, param);
  if (!type) return `${nameOf(endpoint)}: path parameter {${param}} names no known resource; add it to NESTED_PARAMS in test/support/matrix.ts`;
  const resource = RESOURCES[type];
  if (!resource) return `${nameOf(endpoint)}: resource type '${type}' of {${param}} is not classified; add it to RESOURCES in test/support/matrix.ts`;
  return { type, resource };
}

/** Ids of the tenant rows of a type that `organizationId` owns (under the chosen parent, if any). */
export function ownedIds(
  store: ReadView,
  resource: Extract<ResourceClass, { kind: 'tenant' }>,
  organizationId: string,
  chosen: Record<string, string> = {},
): string[] {
  const ownerOf: OwnerOf = resource.ownerOf ?? ((view, row) => declaredOwner(view, resource.table, row));
  return (store.all(resource.table) as readonly any[])
    .filter((row) => ownerOf(store, row) === organizationId)
    .filter((row) => !resource.parent || chosen[resource.parent.param] === undefined || row[resource.parent.field] === chosen[resource.parent.param])
    .map((row) => row.id as string);
}

/**
 * Values for every path parameter of an endpoint as `organizationId` would use them: its own
 * resources (the preferred one when `prefer` names it) and shared ones. Throws on an unclassified
 * parameter; returns `undefined` when the organization has nothing of a type.
 */
export function ownParams(
  store: ReadView,
  endpoint: Endpoint,
  organizationId: string,
  prefer: Record<string, string> = {},
): Record<string, string> | undefined {
  const chosen: Record<string, string> = {};
  for (const param of pathParams(endpoint.path)) {
    const found = classify(endpoint, param);
    if (typeof found === 'string') throw new Error(found);
    const { resource } = found;
    let value: string | undefined;
    if (resource.kind === 'tenant') {
      const ids = ownedIds(store, resource, organizationId, chosen);
      value = prefer[param] !== undefined && ids.includes(prefer[param]!) ? prefer[param] : ids[0];
    } else if (resource.kind === 'public') {
      value = prefer[param] ?? resource.pick(store, organizationId, chosen);
    } else {
      value = prefer[param] ?? resource.pick(store, chosen);
    }
    if (value === undefined) return undefined;
    chosen[param] = value;
  }
  return chosen;
}

// ---------------------------------------------------------------------------------------------
// A populated two-tenant world

export interface Tenant {
  clientId: string;
  token: string;
  world: World;
  organizationId: string;
  /** The shop shipments are made in. */
  shopId: string;
  /** A shop created through the API, with an uploaded logo. */
  apiShopId: string;
  logoId: string;
  /** An own contract created through the API (pending or verified). */
  contractId: string;
  /** A service rate and a liability coverage on that contract (inserted: the API cannot create them). */
  serviceRateId: string;
  coverageId: string;
  organizationHookId: string;
  shopHookId: string;
  /** A zone of its own, made through the API. */
  zoneId: string;
  hookLogId: string;
  collectionId: string;
  /** A collection with a contract, holding the registered shipment, with a manifest. */
  manifestCollectionId: string;
  scheduleId: string;
  /** A manifest made with POST /manifests of the registered shipment. */
  manifestId: string;
  /** A registered shipment with statuses, files, a surcharge and a tracking code. */
  registeredShipmentId: string;
  trackingCode: string;
  fileId: string;
  statusId: string;
  /** A priced concept shipment with a surcharge: editable and deletable. */
  conceptShipmentId: string;
  /** A surcharge added by hand to the concept shipment: the one PATCH and DELETE /shipment-surcharges/{id} may change. */
  manualSurchargeId: string;
  /** Returns in each state an action needs, a report and the shop with the organization's reasons. */
  returns: TenantReturns;
}

export interface Populated {
  sandbox: TestSandbox;
  a: Tenant;
  b: Tenant;
  /** A token of `limited-client` (organization A, shipments.manage only). */
  limitedToken: string;
  snapshot: StateData;
  /** Puts the data and the clock back as they were when populated. */
  restore(): Promise<void>;
}

/** A 2x2 PNG, as a logo upload. */
export function pngLogo(): { mime_type: string; contents: string } {
  const png = new PNG({ width: 2, height: 2 });
  png.data.fill(200);
  return { mime_type: 'image/png', contents: PNG.sync.write(png).toString('base64') };
}

async function must(answer: Answer | Promise<Answer>, status: number, what: string): Promise<Json> {
  const got = await answer;
  if (got.status !== status) throw new Error(`${what}: expected ${status}, got ${got.status}: ${got.text.slice(0, 500)}`);
  return got.body;
}

/** Plans a collection tomorrow afternoon at the shop's sender address. */
export function collectionBody(shop: Json): Json {
  const from = TEST_NOW + 86400 + 13 * 3600;
  return {
    data: {
      type: 'collections',
      attributes: { description: 'Matrix pick-up', address: shop.attributes.sender_address, collection_time: { from, to: from + 7200 } },
      relationships: { shop: { data: { type: 'shops', id: shop.id } } },
    },
  };
}

/** A schedule of Monday afternoon plans (no contract) at the shop's sender address. */
export function scheduleBody(shop: Json): Json {
  return {
    data: {
      type: 'collection-schedules',
      attributes: {
        days: ['monday'],
        collection: { description: 'Matrix schedule', time: { from: '14:00', to: '16:00' }, address: shop.attributes.sender_address },
      },
      relationships: { shop: { data: { type: 'shops', id: shop.id } } },
    },
  };
}

/** A manifest of one shipment, at the shipment's shop address. */
export function manifestBody(shop: Json, shipmentId: string): Json {
  return {
    data: {
      type: 'manifests',
      attributes: { name: 'Matrix manifest', address: shop.attributes.sender_address },
      relationships: { shipments: { data: [{ type: 'shipments', id: shipmentId }] } },
    },
  };
}

/** POST /hooks: an update-resource hook on every shipment's creation, setting `values` (the matrix's channel by default). */
export function hookBody(
  owner: { type: string; id: string },
  name = 'matrix hook',
  values: Json[] = [{ pointer: '/attributes/channel', value: 'matrix' }],
): Json {
  return {
    data: {
      type: 'hooks',
      attributes: {
        name,
        order: 100,
        active: true,
        trigger: { resource_type: 'shipments', resource_action: 'create', predicates: [] },
        action: { action_type: 'update-resource', values },
      },
      relationships: { owner: { data: owner } },
    },
  };
}

export function addressBody(organizationId: string, address: Json): Json {
  return { data: { type: 'addresses', attributes: address, relationships: { organization: { data: { type: 'organizations', id: organizationId } } } } };
}

function zoneBody(code: string, country: string): Json {
  return { data: { type: 'zones', attributes: { name: `Zone ${code}`, code, country_codes: [country] } } };
}

export function contractBody(carrierId: string, organizationId: string): Json {
  return {
    data: {
      type: 'contracts',
      attributes: { name: 'Matrix contract', currency: 'EUR', credentials: { api_key: 'matrix' } },
      relationships: { carrier: { data: { type: 'carriers', id: carrierId } }, owner: { data: { type: 'organizations', id: organizationId } } },
    },
  };
}

async function populateTenant(
  sandbox: TestSandbox,
  clientId: string,
  country: 'NL' | 'GB',
  serviceCode: string,
): Promise<
  Omit<Tenant, 'serviceRateId' | 'coverageId' | 'registeredShipmentId' | 'trackingCode' | 'fileId' | 'statusId' | 'hookLogId' | 'manifestId' | 'returns'> & {
    pending: string;
  }
> {
  const w = await world(sandbox, clientId);
  const token = w.token;
  const organizationId = (await must(sandbox.get('/organizations', token), 200, 'organizations')).data[0].id as string;
  const shop = w.shopIn(country);
  const orgHook = await must(
    sandbox.request('POST', '/hooks', { token, body: hookBody({ type: 'organizations', id: organizationId }) }),
    201,
    'organization hook',
  );
  const shopHook = await must(sandbox.request('POST', '/hooks', { token, body: hookBody({ type: 'shops', id: shop.id }, 'shop hook') }), 201, 'shop hook');
  const apiShop = await must(
    sandbox.request('POST', '/shops', {
      token,
      body: {
        data: {
          type: 'shops',
          attributes: { name: `Matrix shop of ${clientId}`, sender_address: shop.attributes.sender_address, return_address: shop.attributes.return_address },
          relationships: { organization: { data: { type: 'organizations', id: organizationId } } },
          meta: { logo: pngLogo() },
        },
      },
    }),
    201,
    'shop with logo',
  );
  const logoId = new URL(apiShop.data.attributes.logo_url).pathname.split('/').pop()!;
  const service = w.service(serviceCode, country);
  const contract = await must(
    sandbox.request('POST', '/contracts', { token, body: contractBody(service.relationships.carrier.data.id, organizationId) }),
    201,
    'contract',
  );
  const collection = await must(sandbox.request('POST', '/collections', { token, body: collectionBody(shop) }), 201, 'collection');
  // A collection on the shipments' contract, in a slot both PostNL and Royal Mail offer (Monday 14:00-16:00 UTC).
  const booked = collectionBody(shop);
  booked.data.attributes.collection_time = { from: TEST_NOW + 86400 + 14 * 3600, to: TEST_NOW + 86400 + 16 * 3600 };
  booked.data.relationships.contract = { data: { type: 'contracts', id: w.contractFor(w.service(serviceCode, country)).id } };
  const manifestCollection = await must(sandbox.request('POST', '/collections', { token, body: booked }), 201, 'collection with a contract');
  // Two, so one is left when a request deletes the other.
  const schedule = await must(sandbox.request('POST', '/collection-schedules', { token, body: scheduleBody(shop) }), 201, 'collection schedule');
  await must(sandbox.request('POST', '/collection-schedules', { token, body: scheduleBody(shop) }), 201, 'second collection schedule');
  // By hand, under a code of its own: a zone made from the create's example would take the code the scope matrix's create sends.
  const zone = await must(sandbox.request('POST', '/zones', { token, body: zoneBody(`ZONE-${clientId}`, country) }), 201, 'zone');
  const recipient = recipients[country];
  // A paid option the shipment's rate offers, so the registered shipment has a surcharge: handover-method:collection
  // where the rate offers it, as the service is handed over by drop-off and the shipment joins a collection.
  const rate = (
    await must(
      sandbox.get(`/service-rates?filter[service]=${service.id}&filter[contract]=${w.contractFor(service).id}&filter[weight]=1500`, token),
      200,
      'rates',
    )
  ).data[0];
  const paidOptions = rate.relationships.service_options.data.filter(
    (o: Json) => !o.meta.included && o.meta.price && !w.options.find((x: Json) => x.id === o.id)?.attributes.values_format,
  );
  const paid = paidOptions.find((o: Json) => o.id === w.option('handover-method:collection').id) ?? paidOptions[0];
  if (!paid) throw new Error(`fixture: the rate of ${serviceCode} offers no paid option`);
  const registered = await createShipment(
    sandbox,
    token,
    shipmentBody({
      shop,
      recipient,
      service,
      contract: w.contractFor(service),
      attributes: { register_at: TEST_NOW },
      relationships: {
        service_options: { data: [{ type: 'service-options', id: paid.id }] },
        collection: { data: { type: 'collections', id: manifestCollection.data.id } },
      },
    }),
  );
  // A carrier surcharge on the shipments' carrier, made after them so their prices stay as they were.
  const carrierId = service.relationships.carrier.data.id;
  const surchargeBody = {
    data: {
      type: 'carrier-surcharges',
      attributes: { name: 'Matrix peak fee', fee: { amount: 75, currency: country === 'GB' ? 'GBP' : 'EUR' } },
      relationships: { carrier: { data: { type: 'carriers', id: carrierId } } },
    },
  };
  // Priced too (with the paid option), so nested surcharge paths can be filled from the concept.
  const concept = await createShipment(
    sandbox,
    token,
    shipmentBody({
      shop,
      recipient,
      service,
      contract: w.contractFor(service),
      relationships: { service_options: { data: [{ type: 'service-options', id: paid.id }] } },
    }),
  );
  const manual = await must(
    sandbox.request('POST', '/shipment-surcharges', {
      token,
      body: {
        data: {
          type: 'shipment-surcharges',
          attributes: { name: 'Matrix remote area', fee: { amount: 120, currency: concept.attributes.price.currency } },
          relationships: { shipment: { data: { type: 'shipments', id: concept.id } } },
        },
      },
    }),
    201,
    'shipment surcharge',
  );
  // Two, so a DELETE in the scope matrix leaves one to name in the path.
  await must(sandbox.request('POST', '/carrier-surcharges', { token, body: surchargeBody }), 201, 'carrier surcharge');
  await must(
    sandbox.request('POST', '/carrier-surcharges', {
      token,
      body: { data: { ...surchargeBody.data, attributes: { ...surchargeBody.data.attributes, name: 'Matrix handling fee' } } },
    }),
    201,
    'carrier surcharge',
  );
  const tenant = {
    clientId,
    token,
    world: w,
    organizationId,
    shopId: shop.id,
    apiShopId: apiShop.data.id,
    logoId,
    contractId: contract.data.id,
    organizationHookId: orgHook.data.id,
    shopHookId: shopHook.data.id,
    collectionId: collection.data.id,
    manifestCollectionId: manifestCollection.data.id,
    scheduleId: schedule.data.id,
    conceptShipmentId: concept.id,
    manualSurchargeId: manual.data.id,
    pending: registered.id,
    zoneId: zone.data.id,
  };
  await makeDeclaredRows(sandbox, tenant);
  return tenant;
}

/**
 * A row of each type a write declaration makes (resources/write-endpoints.ts) that the tenant owns
 * none of yet (its address book), made by the create's example, or for a broker's type (a table
 * declared with `broker`) one of the tenant's broker, made with the admin token: a new declared type is in the
 * matrices without a line here, unless a rule keeps a second row like the example from being made
 * (a unique code, as zones have): then it gets a row of its own in `populateTenant`.
 */
async function makeDeclaredRows(sandbox: TestSandbox, tenant: DeclaredCaller & { token: string }): Promise<void> {
  const { store } = sandbox;
  const brokerId = store.get('organizations', tenant.organizationId)!.broker_id;
  for (const endpoint of allEndpoints()) {
    if (endpoint.method !== 'post' || !endpoint.table) continue;
    const broker = brokerTables.find((declared) => declared.table === endpoint.table);
    // A broker's row is made by the broker: with the admin token (none, on the test sandbox).
    const has = broker
      ? store.find(endpoint.table, broker.key as never, brokerId).length > 0
      : ownedIds(store, { kind: 'tenant', table: endpoint.table }, tenant.organizationId).length > 0;
    if (has) continue;
    const body = declaredBody(store, endpoint, tenant, {});
    if (body)
      await must(sandbox.request('POST', endpoint.path, { ...(broker ? {} : { token: tenant.token }), body }), 201, `${endpoint.operationId}'s example`);
  }
}

/**
 * Organizations A (`sandbox-client`) and B (`other-client`) each get, through the API, a shop
 * with a logo, an own contract, an organization hook and a shop hook, a collection, a collection
 * on the shipments' contract holding the registered shipment (statuses, files, tracking code, hook
 * logs) with its manifest, a manifest of that shipment, two collection schedules and a concept shipment,
 * and one row of each declared type it owns none of (`makeDeclaredRows`). A service rate and a
 * liability coverage are inserted on each own contract, since no endpoint creates them.
 */
export async function populate(sandbox: TestSandbox): Promise<Populated> {
  capabilitiesOf.set(sandbox.store, sandbox.services.rules.capabilities);
  const partA = await populateTenant(sandbox, 'sandbox-client', 'NL', 'postnl-parcel-standard');
  const partB = await populateTenant(sandbox, 'other-client', 'GB', 'royal-mail-tracked-48');
  const limitedToken = await sandbox.token('limited-client');
  await sandbox.advance(10);

  const inserted = await sandbox.store.transact((tx) => {
    const add = (contractId: string) => {
      const contract = tx.get('contracts', contractId)!;
      const rateTemplate = tx.all('serviceRates').find((rate) => tx.get('contracts', rate.contract_id)?.carrier_id === contract.carrier_id)!;
      const coverageTemplate = tx.all('liabilityCoverages')[0]!;
      const rate = tx.insert('serviceRates', { ...rateTemplate, id: tx.newId(), contract_id: contractId });
      const coverage = tx.insert('liabilityCoverages', { ...coverageTemplate, id: tx.newId(), contract_id: contractId });
      return { serviceRateId: rate.id, coverageId: coverage.id };
    };
    return { a: add(partA.contractId), b: add(partB.contractId) };
  });

  // Manifests need registered shipments: made once both are registered.
  const manifests: Record<string, string> = {};
  for (const part of [partA, partB]) {
    const shop = part.world.shops.find((s: Json) => s.id === part.shopId);
    manifests[part.clientId] = (
      await must(sandbox.request('POST', '/manifests', { token: part.token, body: manifestBody(shop, part.pending) }), 201, 'manifest')
    ).data.id;
    await must(
      sandbox.request('POST', '/create-manifest-for-collection', { token: part.token, body: { data: { collection_id: part.manifestCollectionId } } }),
      200,
      'collection manifest',
    );
  }

  const finish = (part: typeof partA, extra: { serviceRateId: string; coverageId: string }): Tenant => {
    const { store } = sandbox;
    const shipment = store.get('shipments', part.pending)!;
    if (!shipment.tracking_code) throw new Error(`fixture: shipment of ${part.clientId} was not registered (${shipment.status_code})`);
    const file = store.find('files', 'shipment_id', shipment.id)[0];
    const status = store.find('shipmentStatuses', 'shipment_id', shipment.id)[0];
    const log = store.all('hookLogs').find((row) => row.organization_id === part.organizationId);
    if (!file || !status || !log) throw new Error(`fixture: ${part.clientId} lacks a file, status or hook log`);
    const { pending: _pending, ...rest } = part;
    return {
      ...rest,
      ...extra,
      registeredShipmentId: shipment.id,
      trackingCode: shipment.tracking_code,
      fileId: file.id,
      statusId: status.id,
      hookLogId: log.id,
      manifestId: manifests[part.clientId]!,
      returns: undefined as unknown as TenantReturns,
    };
  };
  const a = finish(partA, inserted.a);
  const b = finish(partB, inserted.b);
  a.returns = await populateReturns(sandbox, a);
  b.returns = await populateReturns(sandbox, b);
  await sandbox.advance(10);

  const snapshot = sandbox.store.snapshot();
  const offset = sandbox.clock.offsetMs();
  let mark = sandbox.journal?.mark();
  return {
    sandbox,
    a,
    b,
    limitedToken,
    snapshot,
    restore: async () => {
      // Taking back the rows written since costs a few of them; when that cannot be exact, the
      // snapshot is loaded again (rows are frozen and never changed in place, so as they are).
      if (mark === undefined || !sandbox.journal!.takeBack(sandbox.store, mark)) {
        await sandbox.store.replace(snapshot);
        mark = sandbox.journal?.mark();
      }
      sandbox.clock.setOffsetMs(offset);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Valid bodies per operation

/**
 * A valid body for an operation, as `caller` would send it with the given path parameters;
 * `undefined` for an operation this table does not know (send `{}`: auth and schema checks still run).
 */
/** A to-one relationship object naming `id` of `type`. */
const ref = (type: string, id: string) => ({ data: { type, id } });

export function validBody(store: ReadView, endpoint: Endpoint, caller: Tenant, params: Record<string, string>): Json | undefined {
  const w = caller.world;
  const shop = w.shops.find((s: Json) => s.id === caller.shopId)!;
  const country = shop.attributes.sender_address.country_code as keyof typeof recipients;
  switch (endpoint.operationId) {
    case 'createAccessToken':
      return { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret', scope: '*' };
    case 'getDynamicServiceRates':
      return {
        data: {
          type: 'shipments',
          attributes: { sender_address: shop.attributes.sender_address, recipient_address: recipients[country], physical_properties: { weight: 1200 } },
          relationships: { shop: ref('shops', shop.id) },
        },
      };
    case 'createContract':
      return contractBody(w.services[0].relationships.carrier.data.id, caller.organizationId);
    case 'updateContract':
      return { data: { type: 'contracts', id: params.contract_id, attributes: { name: 'Renamed by the matrix' } } };
    case 'createShop':
      return {
        data: {
          type: 'shops',
          attributes: { name: 'Matrix shop', sender_address: shop.attributes.sender_address, return_address: shop.attributes.return_address },
          relationships: { organization: { data: { type: 'organizations', id: caller.organizationId } } },
        },
      };
    case 'updateShop':
      return {
        data: {
          type: 'shops',
          id: params.shop_id,
          attributes: { name: 'Renamed by the matrix' },
          // Sent as a client sends it back: the shop's own organization (the caller's, for an id it cannot see).
          relationships: { organization: ref('organizations', store.get('shops', params.shop_id!)?.organization_id ?? caller.organizationId) },
        },
      };
    case 'createShipment': {
      // With a service option carrying values (an option without values_format takes any).
      const body = shipmentBody({ shop, recipient: recipients[country] });
      const option = store.all('serviceOptions').find((row) => !row.values_format);
      if (option) body.data.relationships.service_options = { data: [{ type: 'service-options', id: option.id, meta: { values: { note: 'matrix' } } }] };
      return body;
    }
    case 'updateShipment':
      return { data: { type: 'shipments', id: params.shipment_id, attributes: { description: 'Changed by the matrix' } } };
    case 'createRegisteredShipment': {
      const service = w.services.find(
        (s: Json) =>
          s.attributes.code === (country === 'NL' ? 'postnl-parcel-standard' : 'royal-mail-tracked-48') && s.attributes.regions_to[0].country_code === country,
      );
      return shipmentBody({ shop, recipient: recipients[country], service, contract: w.contractFor(service) });
    }
    case 'trackExternalShipment': {
      const body = shipmentBody({ shop, recipient: recipients[country], attributes: { tracking_code: 'MATRIX-TRACK-1' } });
      body.data.relationships.contract = {
        data: { type: 'contracts', id: w.contractFor(w.services.find((s: Json) => s.attributes.regions_from[0].country_code === country)).id },
      };
      return body;
    }
    case 'getAvailableDeliveryDates':
      return {
        data: {
          carrier_code: 'postnl',
          service_code: 'postnl-parcel-standard',
          address: { country_code: 'NL', postal_code: '1012 PH', street_number: 92 },
          start_date: '2026-01-12T00:00:00+01:00',
          end_date: '2026-01-19T00:00:00+01:00',
        },
      };
    case 'createMultiColliShipment': {
      const service = w.services.find(
        (s: Json) =>
          s.attributes.package_type === 'multi-colli' &&
          s.attributes.regions_from[0].country_code === country &&
          s.attributes.regions_to[0].country_code === country,
      );
      const body = shipmentBody({
        shop,
        recipient: recipients[country],
        service,
        contract: w.contractFor(service),
        meta: { colli: [{ physical_properties: { weight: 1000 } }, { physical_properties: { weight: 1500 } }] },
      });
      delete body.data.attributes.physical_properties;
      return body;
    }
    case 'createShipmentSurcharge':
      return {
        data: {
          type: 'shipment-surcharges',
          attributes: { name: 'Matrix correction', fee: { amount: 10, currency: store.get('shipments', caller.conceptShipmentId)!.price!.currency } },
          relationships: { shipment: { data: { type: 'shipments', id: caller.conceptShipmentId } } },
        },
      };
    case 'updateShipmentSurcharge':
      return {
        data: {
          type: 'shipment-surcharges',
          id: params.shipment_surcharge_id,
          attributes: { name: 'Renamed by the matrix' },
          relationships: {
            shipment: ref('shipments', store.get('shipmentSurcharges', params.shipment_surcharge_id!)?.shipment_id ?? caller.conceptShipmentId),
          },
        },
      };
    case 'combineFiles':
      return { data: { file_ids: [caller.fileId], page_size: 'A4' } };
    case 'voidShipment':
      return { data: { shipment_id: caller.registeredShipmentId } };
    case 'updateShipmentStatus':
      return { data: { shipment_id: caller.registeredShipmentId, status_id: carrierStatusId(store) } };
    case 'createCollection':
      return collectionBody(shop);
    case 'createCollectionSchedule':
      return scheduleBody(shop);
    case 'addShipmentsToCollection':
      return { data: { collection_id: caller.manifestCollectionId, shipment_ids: [caller.conceptShipmentId] } };
    case 'createManifestForCollection':
      return { data: { collection_id: caller.manifestCollectionId } };
    case 'createManifest':
      return manifestBody(shop, caller.registeredShipmentId);
    case 'updateCollection':
      return { data: { type: 'collections', id: params.collection_id, attributes: { description: 'Changed by the matrix' } } };
    case 'createHook':
      return hookBody({ type: 'organizations', id: caller.organizationId });
    case 'updateHook':
      return {
        data: {
          type: 'hooks',
          id: params.hook_id,
          attributes: { order: 7 },
          relationships: { owner: { data: store.get('hooks', params.hook_id!)?.owner ?? { type: 'organizations', id: caller.organizationId } } },
        },
      };
    case 'moveSandboxClock':
      return { advance: 0 };
    case 'resetSandbox':
      return { client_id: caller.clientId };
    case 'createSandboxTenant':
      return { name: 'Matrix tenant' };
    case 'revokeSandboxTokens':
      return { client_id: 'limited-client' };
    default:
      return accountBody(store, endpoint, caller, params);
  }
}

/** Valid bodies of the account, address book and helper operations. */
function accountBody(store: ReadView, endpoint: Endpoint, caller: Tenant, params: Record<string, string>): Json | undefined {
  switch (endpoint.operationId) {
    case 'createOrganization':
      return {
        data: {
          type: 'organizations',
          attributes: { name: 'Matrix organization' },
          relationships: { broker: { data: { type: 'brokers', id: store.get('organizations', caller.organizationId)!.broker_id } } },
        },
      };
    case 'updateOrganization':
      return {
        data: {
          type: 'organizations',
          id: params.organization_id,
          attributes: { reference: 'matrix' },
          relationships: { broker: ref('brokers', store.get('organizations', params.organization_id!)?.broker_id ?? store.all('brokers')[0]!.id) },
        },
      };
    case 'shareOrganizationContracts':
    case 'unshareOrganizationContracts':
      return {
        data: [
          {
            type: 'contracts',
            id: store
              .all('contracts')
              .find((row) => row.owner.type === 'brokers' && row.owner.id === store.get('organizations', caller.organizationId)!.broker_id)!.id,
          },
        ],
      };
    case 'createBroker':
      return {
        data: {
          type: 'brokers',
          attributes: {
            name: 'Matrix broker',
            favicon_url: 'https://matrix.example.com/favicon.ico',
            logo_url: 'https://matrix.example.com/logo.png',
            style: { background_color: '#ffffff', foreground_color: '#000000', primary_color: '#111111', secondary_color: '#222222', accent_color: '#333333' },
          },
          relationships: { enterprise: { data: { type: 'enterprises', id: randomUUID() } } },
        },
      };
    case 'updateBroker':
      return {
        data: {
          type: 'brokers',
          id: params.broker_id,
          attributes: { name: 'Renamed by the matrix' },
          relationships: { enterprise: ref('enterprises', enterpriseIdOf(store.get('brokers', params.broker_id!) ?? store.all('brokers')[0]!)) },
        },
      };
    case 'addBrokerCarriers':
    case 'removeBrokerCarriers':
      return { data: [{ type: 'carriers', id: store.all('carriers')[0]!.id }] };
    case 'createContractTemplate': {
      const service = store.find('services', 'carrier_id', store.all('carriers')[0]!.id)[0]!;
      return {
        data: {
          type: 'contract-templates',
          attributes: { name: 'Matrix template', currency: 'EUR' },
          relationships: {
            broker: { data: { type: 'brokers', id: store.get('organizations', caller.organizationId)!.broker_id } },
            carrier: { data: { type: 'carriers', id: store.all('carriers')[0]!.id } },
            services: { data: [{ type: 'services', id: service.id }] },
          },
        },
      };
    }
    case 'suggestAddress':
      return { data: { country_code: 'NL', postal_code: '1012 PH', street_number: 92 } };
    case 'createServiceRate': {
      const ownContract = store.get('contracts', caller.contractId)!;
      const service = store.find('services', 'carrier_id', ownContract.carrier_id)[0]!;
      return {
        data: {
          type: 'service-rates',
          attributes: { weight_min: 5_000_000, weight_max: 6_000_000, price: { amount: 100, currency: ownContract.currency } },
          relationships: { contract: { data: { type: 'contracts', id: ownContract.id } }, service: { data: { type: 'services', id: service.id } } },
        },
      };
    }
    case 'updateServiceRate':
      return { data: { type: 'service-rates', id: params.service_rate_id, attributes: { includes_vat: true } } };
    case 'suggestHsCode':
      return { data: { sku: 'M-1', description: 'Cotton T-shirt' } };
    case 'calculateLandedCosts':
      return {
        data: {
          sender_country_code: 'NL',
          sender_postal_code: '1012 PH',
          recipient_country_code: 'GB',
          recipient_postal_code: 'NW1 6XE',
          weight: 500,
          items: [{ description: 'Cotton T-shirt', item_value: { amount: 2500, currency: 'EUR' }, hs_code: '6109.10' }],
        },
      };
    default:
      return returnsValidBody(store, endpoint, caller, params) ?? declaredBody(store, endpoint, caller, params);
  }
}

/** What resolving an example needs of a tenant. */
type DeclaredCaller = Pick<Tenant, 'organizationId' | 'clientId' | 'shopId'>;

/**
 * The body of a write declaration's create or update (resources/write-endpoints.ts): its example in
 * the API reference (which test/docs-examples.test.ts sends), resolved for the caller, the row it
 * changes being the one in the path. So a new declared resource's bodies are written once.
 */
function declaredBody(store: ReadView, endpoint: Endpoint, caller: DeclaredCaller, params: Record<string, string>): Json | undefined {
  const example = examples[endpoint.operationId];
  if (!endpoint.table || !example) return undefined;
  const tenant = { organizationId: caller.organizationId, clientId: caller.clientId, clientSecret: '', shopId: caller.shopId };
  const unused = () => {
    throw new Error(`${nameOf(endpoint)}: the example of a declared write names a public page`);
  };
  const ids = exampleIds(store, tenant, TEST_NOW, { publicId: unused, page: unused });
  const last = pathParams(endpoint.path).at(-1);
  return example({ ...ids, made: () => (last === undefined ? unused() : params[last]!) }).body as Json | undefined;
}

/** The query an endpoint with required query parameters needs to succeed; '' for the others. */
export function validQuery(endpoint: Endpoint): string {
  if (endpoint.operationId === 'listCollectionTimeSlots') return 'country_code=NL&postal_code=1012AB&date_from=2026-01-12&date_to=2026-01-16';
  return '';
}

/** A carrier status (`shipment-delivered`) for update-shipment-status bodies. */
function carrierStatusId(store: ReadView): string {
  const status = store.find('statuses', 'code', 'shipment-delivered')[0];
  if (!status) throw new Error('fixture: no shipment-delivered status');
  return status.id;
}

// ---------------------------------------------------------------------------------------------
// Invariants

/** Tables that may change on a refused request, and why. */
export type Allowance = Partial<Record<TableName, string>>;

function sameRows(before: readonly unknown[], after: readonly unknown[]): boolean {
  if (before.length !== after.length) return false;
  for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) return false;
  return true;
}

/** Differences between two snapshots, table by table (rows compared by identity, then by value). */
export function storeDiff(before: StateData, after: StateData, allow: Allowance = {}): string[] {
  const out: string[] = [];
  for (const table of tableNames) {
    if (allow[table]) continue;
    // Rows are frozen and replaced, never changed in place, and keep their places: a table whose
    // rows are the same objects in the same order is unchanged, without two Maps of it per request.
    if (sameRows(before.tables[table] ?? [], after.tables[table] ?? [])) continue;
    const was = new Map((before.tables[table] ?? []).map((row) => [row.id, row]));
    const now = new Map((after.tables[table] ?? []).map((row) => [row.id, row]));
    for (const [id, row] of now) {
      const old = was.get(id);
      if (!old) out.push(`${table}: added ${id}`);
      else if (old !== row && !isDeepStrictEqual(old, row)) out.push(`${table}: changed ${id}`);
    }
    for (const id of was.keys()) if (!now.has(id)) out.push(`${table}: removed ${id}`);
  }
  return out;
}

const STACK_PATTERNS: readonly RegExp[] = [
  /\n\s+at\s/,
  /\bat (?:async )?[\w$.<>[\] ]+ \((?:file:\/\/)?\/[^)]*:\d+:\d+\)/,
  /node_modules/,
  /\/work\/|\/src\/[\w/-]+\.(?:ts|js)/,
  /\.ts:\d+/,
  /\b(?:TypeError|RangeError|ReferenceError|SyntaxError|EvalError|URIError)\b/,
];

/** Why an error answer is not a proper JSON:API errors document, or `undefined` when it is. */
export function errorDocumentProblem(answer: Answer): string | undefined {
  const type = answer.headers.get('content-type') ?? '';
  if (!/^application\/vnd\.api\+json(\s*;|$)/.test(type)) return `content type '${type}' is not application/vnd.api+json`;
  const errors = answer.body?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return 'no errors array';
  for (const [index, error] of errors.entries()) {
    for (const member of ['status', 'code', 'title', 'detail'] as const) {
      if (typeof error?.[member] !== 'string') return `errors[${index}].${member} is not a string`;
    }
    if (!/^[1-5]\d\d$/.test(error.status)) return `errors[${index}].status '${error.status}' is not an HTTP status`;
  }
  if (errors[0].status !== String(answer.status)) return `errors[0].status '${errors[0].status}' differs from the HTTP status ${answer.status}`;
  const stack = STACK_PATTERNS.find((pattern) => pattern.test(answer.text));
  if (stack) return `the body looks like it carries a stack trace or internals (${stack})`;
  return undefined;
}

/**
 * Everything wrong with one answer: a 5xx, an error that is not a JSON:API errors document, or a
 * 405 whose Allow header lists the method that was refused.
 */
export function answerProblems(method: string, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`server error ${answer.status}: ${answer.text.slice(0, 300)}`);
  if (answer.status >= 400) {
    const problem = errorDocumentProblem(answer);
    if (problem) problems.push(`${answer.status} ${problem}: ${answer.text.slice(0, 300)}`);
  }
  if (answer.status === 405) {
    const allow = (answer.headers.get('allow') ?? '').split(',').map((m) => m.trim().toUpperCase());
    if (allow.includes(method.toUpperCase()))
      problems.push(`405 refuses ${method.toUpperCase()} while its Allow header lists it (${allow.join(', ')}): ${answer.text.slice(0, 200)}`);
  }
  return problems;
}

const PROTOTYPES: ReadonlyArray<[string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Boolean.prototype', Boolean.prototype],
];

type PrototypeState = Map<string, Map<PropertyKey, PropertyDescriptor>>;

/** The own property descriptors of the built-in prototypes, to detect pollution. */
export function prototypeState(): PrototypeState {
  return new Map(PROTOTYPES.map(([name, proto]) => [name, new Map(Reflect.ownKeys(proto).map((key) => [key, Object.getOwnPropertyDescriptor(proto, key)!]))]));
}

/** How the built-in prototypes differ from `before` (and whether `{}` grew a `polluted` member). */
export function pollution(before: PrototypeState): string[] {
  const out: string[] = [];
  if (({} as Record<string, unknown>).polluted !== undefined) out.push('({}).polluted is set');
  if (Object.getPrototypeOf({}) !== Object.prototype) out.push('the prototype of {} changed');
  const now = prototypeState();
  for (const [name, keys] of before) {
    const current = now.get(name)!;
    for (const [key, descriptor] of current) {
      const old = keys.get(key);
      if (!old) out.push(`${name}.${String(key)} was added`);
      else if (old.value !== descriptor.value || old.get !== descriptor.get || old.set !== descriptor.set) out.push(`${name}.${String(key)} was replaced`);
    }
    for (const key of keys.keys()) if (!current.has(key)) out.push(`${name}.${String(key)} was deleted`);
  }
  return out;
}

/** Undoes pollution found by `pollution`, so one failure does not poison the rest of the run. */
export function repairPrototypes(before: PrototypeState): void {
  for (const [name, proto] of PROTOTYPES) {
    const keys = before.get(name)!;
    for (const key of Reflect.ownKeys(proto)) {
      const old = keys.get(key);
      if (!old) delete (proto as Record<PropertyKey, unknown>)[key];
      else Object.defineProperty(proto, key, old);
    }
  }
}

/** Every id (and tracking code) an organization owns, for leak checks: its rows, users, logos and own org id. */
export function tenantIds(store: ReadView, organizationId: string): Set<string> {
  const ids = new Set<string>([organizationId]);
  for (const resource of Object.values(RESOURCES)) {
    if (resource.kind !== 'tenant') continue;
    for (const id of ownedIds(store, resource, organizationId)) ids.add(id);
  }
  for (const user of store.find('users', 'organization_id', organizationId)) ids.add(user.id);
  for (const shop of store.find('shops', 'organization_id', organizationId)) {
    for (const logo of store.find('logos', 'shop_id', shop.id)) ids.add(logo.id);
  }
  for (const shipment of store.find('shipments', 'organization_id', organizationId)) if (shipment.tracking_code) ids.add(shipment.tracking_code);
  return ids;
}
