import type { CarrierRecord } from '../model/carrier.js';
import type { CollectionRecord } from '../model/collection.js';
import type { CollectionScheduleRecord } from '../model/collection-schedule.js';
import type { HookLogRecord, HookRecord } from '../model/hook.js';
import type { ManifestFileRecord, ManifestRecord } from '../model/manifest.js';
import type { FileRecord, ShipmentRecord, ShipmentStatusRecord } from '../model/shipment.js';
import type { ShipmentSurchargeRecord } from '../model/shipment-surcharge.js';
import type { CarrierSurchargeRecord } from '../model/carrier-surcharge.js';
import type { ContractRecord, ContractShareRecord, LiabilityCoverageRecord } from '../model/contract.js';
import type { RegionRecord } from '../model/region.js';
import type { ServiceOptionRecord } from '../model/service-option.js';
import type { ServiceRateRecord } from '../model/service-rate.js';
import type { ServiceRecord } from '../model/service.js';
import type { LogoRecord, ShopRecord } from '../model/shop.js';
import type { StatusRecord } from '../model/status.js';
import type { BrokerRecord, ClientRecord, OrganizationRecord, UserRecord } from '../model/tenancy.js';
import type { AddressRecord } from '../model/address-book.js';
import type { ContractTemplateRecord } from '../model/contract-template.js';
import type { ZoneRecord } from '../model/zone.js';
import type { SystemMessageRecord } from '../model/system-message.js';
import type { ReturnMethodRecord, ReturnQuestionRecord, ReturnReasonRecord, ReturnTagRecord, ShopReasonRecord } from '../model/returns/config.js';
import type { DemoOrderRecord } from '../model/returns/order.js';
import type { ReturnPaymentRecord, ReturnRecord } from '../model/returns/return.js';
import type { ReturnReportFileRecord, ReturnReportRecord } from '../model/returns/report.js';

/** A named sandbox setting (clock offset, id counter, ...), kept as a row so it persists like data. */
export type SettingRecord = { id: string; value: unknown };

/**
 * Work scheduled on a sandbox clock (contract verification, shipment registration, ...).
 * `subject` is the id of the resource the job is about; one job per kind and subject.
 */
export type JobRecord = {
  id: string;
  kind: string;
  subject: string;
  /** Milliseconds on the clock of the job's tenant at which the job is due. */
  due_ms: number;
  /**
   * The organization whose data the job touches: the job is due on its clock and runs on it.
   * Jobs without one (written before tenants had clocks, or about no tenant) are due on the global clock.
   */
  organization_id?: string;
  payload?: Record<string, unknown>;
};

/** How an idempotency record holds its response body: packed (see domain/replay-body.ts), or as plain text (data files written before bodies were packed). */
/** A replayed body: gzipped (base64), or as older data files hold it (text, or deflated against a preset dictionary). */
export type StoredBody = { body_gzip: string } | { body_deflated: string; body_dictionary: number } | { body: string };

/** A finished `POST /shipments` under an Idempotency-Key: what to replay for 24 hours. */
export type IdempotencyRecord = {
  id: string;
  client_id: string;
  fingerprint: string;
  status: number;
  created_at: number;
} & StoredBody;

/** A single revoked access token, by `jti`, kept until the token would have expired anyway. */
type RevokedTokenRecord = { id: string; expires_at: number };

/**
 * A tenant that moved its own sandbox clock (`store/tenant-clocks.ts`): `id` is the organization
 * id, `offset_ms` how far its clock runs ahead of the time source. Tenants without a row follow
 * the global clock.
 */
type TenantClockRecord = { id: string; offset_ms: number };

/**
 * How the rows of a table belong to a tenant (an organization). What a tenant's removal and a
 * tenant reset take is derived from it (`domain/removals.ts`), so a new table says it here once.
 */
export type Belonging<R, Table extends string = string> = {
  /**
   * The field that makes a row the tenant's: it holds the organization id, or with `of` the id of
   * a row of that table that is the tenant's. A row whose (optional) key is left out is everyone's.
   */
  key: keyof R & string;
  of?: Table;
  /**
   * How `key` names the tenant when it does not hold the id as it is: as one of its `:`-separated
   * parts (`part`), as an owner reference `{ type: 'organizations', id }` (`owner`), or (`about`)
   * the row is work about another row of any table, named by its id or its id's first parts,
   * and goes with that row.
   */
  as?: 'part' | 'owner' | 'about';
  /**
   * What a tenant reset does with the tenant's rows: `clears` what the tenant made; `keeps` the
   * tenant's own set-up (its organization, users, clients, shops, shares, clock, settings), which
   * goes only with the tenant (and which the reset restores as seeded where it must).
   */
  reset: 'clears' | 'keeps';
};

/**
 * A table no tenant owns, and why (the catalogue, ...). Not for rows that name an organization.
 * `broker` names the field of a broker's rows (for all its organizations): they go with a broker
 * a pack made (`domain/organizations.ts: purgeBrokers`), and the field needs an index.
 */
type Shared<R> = { shared: string; broker?: keyof R & string };

/** What is declared of a table besides its name and record type. */
interface TableSpec<R, Table extends string = string> {
  /** Fields with a secondary index, so lookups by foreign key never scan the table. */
  indexes?: readonly (keyof R & string)[];
  tenant: Belonging<R, Table> | ('organization_id' extends keyof R ? never : Shared<R>);
}

/** A table's declaration; `row` is there for its type only (the record type the table holds). */
export type TableDeclaration<R, Table extends string = string> = TableSpec<R, Table> & { readonly row?: R };

/** Declares a table holding rows of type `R`. */
const table =
  <R extends { id: string }>() =>
  <const S extends TableSpec<R>>(spec: S): S & { readonly row?: R } =>
    spec;

/** The most common belonging: a row the tenant made, naming its organization. */
const madeBy = { key: 'organization_id', reset: 'clears' } as const;

/**
 * Every table of the sandbox, declared once: its name, the record type it holds, its indexes and
 * how its rows belong to a tenant. The order is the order of the tables in the data file (a new
 * table at the end leaves older files' layout as it was).
 */
const declarations = {
  // Named `<what>:<organization id>` when a setting is one organization's (`tenant:<id>`, ...).
  settings: table<SettingRecord>()({ tenant: { key: 'id', as: 'part', reset: 'keeps' } }),
  revokedTokens: table<RevokedTokenRecord>()({ tenant: { shared: 'a revoked token names no tenant; it goes when the token would have expired' } }),
  // The tenant's own clock: its id is the organization id.
  tenantClocks: table<TenantClockRecord>()({ tenant: { key: 'id', reset: 'keeps' } }),
  // A job goes with what it is about (its subject, or a webhook delivery's `<hook id>:...`).
  jobs: table<JobRecord>()({ indexes: ['subject'], tenant: { key: 'subject', as: 'about', reset: 'clears' } }),
  brokers: table<BrokerRecord>()({
    tenant: { shared: "a broker has many organizations; the brokers a pack made go with its tenant (the tenant's entry names them)" },
  }),
  organizations: table<OrganizationRecord>()({ indexes: ['broker_id'], tenant: { key: 'id', reset: 'keeps' } }),
  users: table<UserRecord>()({ indexes: ['organization_id'], tenant: { key: 'organization_id', reset: 'keeps' } }),
  clients: table<ClientRecord>()({ indexes: ['user_id'], tenant: { key: 'user_id', of: 'users', reset: 'keeps' } }),
  shops: table<ShopRecord>()({ indexes: ['organization_id'], tenant: { key: 'organization_id', reset: 'keeps' } }),
  // A shop's uploaded logos. An organization's or broker's own logo names it in `shop_id` and goes
  // with it by its `logo_id` (domain/organizations.ts), not as a tenant's row.
  logos: table<LogoRecord>()({ indexes: ['shop_id'], tenant: { key: 'shop_id', of: 'shops', reset: 'clears' } }),
  // The catalogue is everyone's; a carrier or service a pack loaded is its tenant's alone.
  carriers: table<CarrierRecord>()({ tenant: { key: 'organization_id', reset: 'keeps' } }),
  services: table<ServiceRecord>()({ indexes: ['carrier_id'], tenant: { key: 'organization_id', reset: 'keeps' } }),
  serviceOptions: table<ServiceOptionRecord>()({ tenant: { shared: 'catalogue' } }),
  regions: table<RegionRecord>()({ tenant: { shared: 'catalogue' } }),
  statuses: table<StatusRecord>()({ indexes: ['code'], tenant: { shared: 'catalogue' } }),
  // An organization's own contracts are its; its broker's are shared with it through `contractShares`.
  contracts: table<ContractRecord>()({ indexes: ['carrier_id'], tenant: { key: 'owner', as: 'owner', reset: 'clears' } }),
  // A reset shares the broker's contracts again as seeded (controls/tenant-reset.ts) rather than clearing them.
  contractShares: table<ContractShareRecord>()({ indexes: ['contract_id', 'organization_id'], tenant: { key: 'organization_id', reset: 'keeps' } }),
  liabilityCoverages: table<LiabilityCoverageRecord>()({ indexes: ['contract_id'], tenant: { key: 'contract_id', of: 'contracts', reset: 'clears' } }),
  serviceRates: table<ServiceRateRecord>()({ indexes: ['contract_id', 'service_id'], tenant: { key: 'contract_id', of: 'contracts', reset: 'clears' } }),
  shipments: table<ShipmentRecord>()({
    indexes: ['organization_id', 'shop_id', 'tracking_code', 'collection_id', 'consolidation_shipment_id', 'multi_colli_shipment_id'],
    tenant: madeBy,
  }),
  shipmentStatuses: table<ShipmentStatusRecord>()({ indexes: ['shipment_id'], tenant: { key: 'shipment_id', of: 'shipments', reset: 'clears' } }),
  // Owned through its shipment; its `organization_id` is the shipment's, kept for the listing by organization.
  shipmentSurcharges: table<ShipmentSurchargeRecord>()({
    indexes: ['shipment_id', 'organization_id'],
    tenant: { key: 'shipment_id', of: 'shipments', reset: 'clears' },
  }),
  carrierSurcharges: table<CarrierSurchargeRecord>()({ indexes: ['organization_id'], tenant: madeBy }),
  // Owned through its shipment; by organization too: the quotas count a tenant's files, manifests' files and report files.
  files: table<FileRecord>()({ indexes: ['shipment_id', 'organization_id'], tenant: { key: 'shipment_id', of: 'shipments', reset: 'clears' } }),
  collections: table<CollectionRecord>()({ indexes: ['shop_id', 'organization_id'], tenant: madeBy }),
  collectionSchedules: table<CollectionScheduleRecord>()({ indexes: ['organization_id', 'shop_id'], tenant: madeBy }),
  manifests: table<ManifestRecord>()({ indexes: ['organization_id'], tenant: madeBy }),
  manifestFiles: table<ManifestFileRecord>()({ indexes: ['manifest_id', 'collection_id', 'organization_id'], tenant: madeBy }),
  hooks: table<HookRecord>()({ indexes: ['organization_id'], tenant: madeBy }),
  // By organization and client too: a tenant's removal drops its rows of the largest tables
  // without reading every row (200 tenants expiring beside 100,000 keys and hook logs took 354 ms).
  hookLogs: table<HookLogRecord>()({ indexes: ['hook_id', 'shipment_id', 'organization_id'], tenant: madeBy }),
  idempotencyKeys: table<IdempotencyRecord>()({ indexes: ['client_id'], tenant: { key: 'client_id', of: 'clients', reset: 'clears' } }),
  addresses: table<AddressRecord>()({ indexes: ['organization_id'], tenant: madeBy }),
  // The seeded zones (the catalogue's routes) have no organization: everyone's.
  zones: table<ZoneRecord>()({ indexes: ['organization_id'], tenant: madeBy }),
  contractTemplates: table<ContractTemplateRecord>()({
    indexes: ['broker_id'],
    tenant: { shared: "the broker's templates, for all its organizations; a pack's broker takes its own with it", broker: 'broker_id' },
  }),
  returnReasons: table<ReturnReasonRecord>()({ indexes: ['organization_id'], tenant: madeBy }),
  returnQuestions: table<ReturnQuestionRecord>()({ indexes: ['organization_id'], tenant: madeBy }),
  shopReasons: table<ShopReasonRecord>()({ indexes: ['shop_id', 'reason_id'], tenant: madeBy }),
  returnTags: table<ReturnTagRecord>()({ indexes: ['shop_id', 'organization_id'], tenant: madeBy }),
  returnMethods: table<ReturnMethodRecord>()({ indexes: ['shop_id', 'organization_id'], tenant: madeBy }),
  demoOrders: table<DemoOrderRecord>()({ indexes: ['shop_id', 'organization_id'], tenant: madeBy }),
  returns: table<ReturnRecord>()({ indexes: ['organization_id', 'order_id', 'shipment_id'], tenant: madeBy }),
  returnPayments: table<ReturnPaymentRecord>()({ indexes: ['return_id'], tenant: madeBy }),
  returnReports: table<ReturnReportRecord>()({ indexes: ['organization_id'], tenant: madeBy }),
  returnReportFiles: table<ReturnReportFileRecord>()({ indexes: ['organization_id'], tenant: madeBy }),
  systemMessages: table<SystemMessageRecord>()({
    indexes: ['broker_id'],
    tenant: { shared: "the broker's messages, to all its organizations; a pack's broker takes its own with it", broker: 'broker_id' },
  }),
};

/** Every table of the sandbox and the row type it holds. */
type Tables = { [T in keyof typeof declarations]: NonNullable<(typeof declarations)[T]['row']> };

export type TableName = keyof Tables;
export type Row<T extends TableName> = Tables[T];

/** Every table's declaration (a `Belonging`'s `of` names a table). */
export const tableDeclarations: { readonly [T in TableName]: TableDeclaration<Row<T>, TableName> } = declarations;

/** The table names, in the data file's order. */
export const tableNames = Object.keys(declarations) as readonly TableName[];

/** The tables of a broker's rows (a shared table's `broker`), with the field that names the broker. */
export const brokerTables: readonly { table: TableName; key: string }[] = tableNames.flatMap((table) => {
  const { tenant } = tableDeclarations[table];
  return 'broker' in tenant && tenant.broker ? [{ table, key: tenant.broker }] : [];
});

/** The newest data file version this sandbox reads, and the one it writes. */
export const DATA_VERSION = 1;

/** The persisted form of the whole sandbox: what the data file holds. */
export interface StateData {
  format: 'parcel-sandbox';
  version: typeof DATA_VERSION;
  seed: number;
  tables: { [T in TableName]?: Row<T>[] };
}

/** Names of rows of the `settings` table. */
export const CLOCK_OFFSET = 'clock_offset_ms';
export const ID_COUNTER = 'id_counter';
/**
 * The id each key of the seeded world became, when a start pack (`--fixtures`) shaped it: kept with
 * the data, since a later start on the same file may be given another pack, or none.
 */
export const WORLD_KEYS = 'world_keys';
