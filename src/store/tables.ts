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

/** Every table of the sandbox and the row type it holds. */
interface Tables {
  settings: SettingRecord;
  revokedTokens: RevokedTokenRecord;
  tenantClocks: TenantClockRecord;
  jobs: JobRecord;
  brokers: BrokerRecord;
  organizations: OrganizationRecord;
  users: UserRecord;
  clients: ClientRecord;
  shops: ShopRecord;
  logos: LogoRecord;
  carriers: CarrierRecord;
  services: ServiceRecord;
  serviceOptions: ServiceOptionRecord;
  regions: RegionRecord;
  statuses: StatusRecord;
  contracts: ContractRecord;
  contractShares: ContractShareRecord;
  liabilityCoverages: LiabilityCoverageRecord;
  serviceRates: ServiceRateRecord;
  shipments: ShipmentRecord;
  shipmentStatuses: ShipmentStatusRecord;
  shipmentSurcharges: ShipmentSurchargeRecord;
  carrierSurcharges: CarrierSurchargeRecord;
  files: FileRecord;
  collections: CollectionRecord;
  collectionSchedules: CollectionScheduleRecord;
  manifests: ManifestRecord;
  manifestFiles: ManifestFileRecord;
  hooks: HookRecord;
  hookLogs: HookLogRecord;
  idempotencyKeys: IdempotencyRecord;
  addresses: AddressRecord;
  zones: ZoneRecord;
  contractTemplates: ContractTemplateRecord;
  returnReasons: ReturnReasonRecord;
  returnQuestions: ReturnQuestionRecord;
  shopReasons: ShopReasonRecord;
  returnTags: ReturnTagRecord;
  returnMethods: ReturnMethodRecord;
  demoOrders: DemoOrderRecord;
  returns: ReturnRecord;
  returnPayments: ReturnPaymentRecord;
  returnReports: ReturnReportRecord;
  returnReportFiles: ReturnReportFileRecord;
}

export type TableName = keyof Tables;
export type Row<T extends TableName> = Tables[T];

export const tableNames: readonly TableName[] = [
  'settings',
  'revokedTokens',
  'tenantClocks',
  'jobs',
  'brokers',
  'organizations',
  'users',
  'clients',
  'shops',
  'logos',
  'carriers',
  'services',
  'serviceOptions',
  'regions',
  'statuses',
  'contracts',
  'contractShares',
  'liabilityCoverages',
  'serviceRates',
  'shipments',
  'shipmentStatuses',
  'shipmentSurcharges',
  'carrierSurcharges',
  'files',
  'collections',
  'collectionSchedules',
  'manifests',
  'manifestFiles',
  'hooks',
  'hookLogs',
  'idempotencyKeys',
  'addresses',
  'zones',
  'contractTemplates',
  'returnReasons',
  'returnQuestions',
  'shopReasons',
  'returnTags',
  'returnMethods',
  'demoOrders',
  'returns',
  'returnPayments',
  'returnReports',
  'returnReportFiles',
];

/** Fields with a secondary index, so lookups by foreign key never scan a table. */
export const indexedFields: { [T in TableName]?: readonly (keyof Row<T> & string)[] } = {
  jobs: ['subject'],
  organizations: ['broker_id'],
  users: ['organization_id'],
  clients: ['user_id'],
  shops: ['organization_id'],
  logos: ['shop_id'],
  services: ['carrier_id'],
  contracts: ['carrier_id'],
  contractShares: ['contract_id', 'organization_id'],
  liabilityCoverages: ['contract_id'],
  serviceRates: ['contract_id', 'service_id'],
  statuses: ['code'],
  shipments: ['organization_id', 'shop_id', 'tracking_code', 'collection_id', 'consolidation_shipment_id', 'multi_colli_shipment_id'],
  shipmentStatuses: ['shipment_id'],
  shipmentSurcharges: ['shipment_id', 'organization_id'],
  carrierSurcharges: ['organization_id'],
  // By organization too: the quotas count a tenant's files, manifests' files and report files.
  files: ['shipment_id', 'organization_id'],
  collections: ['shop_id', 'organization_id'],
  collectionSchedules: ['organization_id', 'shop_id'],
  manifests: ['organization_id'],
  manifestFiles: ['manifest_id', 'collection_id', 'organization_id'],
  hooks: ['organization_id'],
  // By organization and client too: a tenant's removal drops its rows of the largest tables
  // without reading every row (200 tenants expiring beside 100,000 keys and hook logs took 354 ms).
  hookLogs: ['hook_id', 'shipment_id', 'organization_id'],
  idempotencyKeys: ['client_id'],
  addresses: ['organization_id'],
  zones: ['organization_id'],
  contractTemplates: ['broker_id'],
  returnReasons: ['organization_id'],
  returnQuestions: ['organization_id'],
  shopReasons: ['shop_id', 'reason_id'],
  returnTags: ['shop_id', 'organization_id'],
  returnMethods: ['shop_id', 'organization_id'],
  demoOrders: ['shop_id', 'organization_id'],
  returns: ['organization_id', 'order_id', 'shipment_id'],
  returnPayments: ['return_id'],
  returnReports: ['organization_id'],
  returnReportFiles: ['organization_id'],
};

/** The persisted form of the whole sandbox: what the data file holds. */
export interface StateData {
  format: 'parcel-sandbox';
  version: 1;
  seed: number;
  tables: { [T in TableName]?: Row<T>[] };
}

/** Names of rows of the `settings` table. */
export const CLOCK_OFFSET = 'clock_offset_ms';
export const ID_COUNTER = 'id_counter';
