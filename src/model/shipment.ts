import { z } from 'zod';
import { address, countryCode, personAddress, price, taxIdentificationNumber, timestamp, weightUnits, type Price } from './common.js';

/** Weights in grams, dimensions in mm, volume in litres; `volumetric_weight` is computed by the sandbox. Closed, as production's. */
export const physicalProperties = z
  .strictObject({
    weight: z.number().int('must be a whole number of grams').min(1, 'must be at least 1 gram').max(10_000_000),
    length: z.number().int().positive().max(100_000).optional(),
    width: z.number().int().positive().max(100_000).optional(),
    height: z.number().int().positive().max(100_000).optional(),
    // Production's least volume is 0.01 litre (10 cm3): a smaller one is refused there, so here too.
    volume: z.number().min(0.01, 'must be at least 0.01 litre').max(1_000_000).optional(),
    volumetric_weight: z.number().int().nonnegative().optional().describe('Read-only: computed from length, width and height.'),
  })
  .meta({ id: 'PhysicalProperties' });
export type PhysicalProperties = z.infer<typeof physicalProperties>;

/** Closed, with the types and bounds of production's BaseShipmentItem; a request also takes its read-only members (`requestItem`). */
export const item = z
  .strictObject({
    sku: z.string().max(255).optional(),
    description: z.string().max(255),
    image_url: z.string().max(255).optional(),
    item_value: price.optional(),
    quantity: z.number().int().min(1),
    hs_code: z
      .string()
      .regex(/^[0-9.]+$/, 'must be digits and dots (an HS code such as 8471.60)')
      .max(255)
      .optional(),
    origin_country_code: countryCode.optional(),
    is_preferential_origin: z.boolean().optional(),
    nett_weight: z.number().int().nonnegative().optional().describe('Net weight of one unit in grams.'),
    item_weight: z.number().int().min(1).optional().describe('Weight of one unit, in item_weight_unit.'),
    item_weight_unit: z.enum(weightUnits).optional().describe('The unit of item_weight; g when left out.'),
    vat_percentage: z.number().int().min(0).max(100).optional(),
  })
  .meta({ id: 'ShipmentItem' });
export type Item = z.infer<typeof item>;

/** Closed, as production's BaseCustoms; a request also takes its read-only members (`requestCustoms`). */
export const customs = z
  .strictObject({
    // Optional, as in production's schema; an international shipment needs all three (domain/shipments/checks.ts).
    content_type: z.enum(['gifts', 'documents', 'merchandise', 'sample_merchandise', 'returned_merchandise']).optional(),
    invoice_number: z.string().max(255).optional(),
    non_delivery: z.enum(['return', 'abandon']).optional(),
    incoterm: z.enum(['DDP', 'DAP']).optional(),
    shipping_value: price.optional(),
    license_number: z.string().max(255).optional(),
    certificate_number: z.string().max(255).optional(),
  })
  .meta({ id: 'Customs' });
export type Customs = z.infer<typeof customs>;

/**
 * A location's code, as a shipment names it: production bounds it nowhere here, and the code a
 * client copies in is a pickup-dropoff location's, which production's schema allows 255 characters.
 */
const locationCode = z.string().min(1).max(255);

/** Closed, as production's PickupLocation is: an unknown member (a misspelt `adress`) is a 400, not dropped. */
const pickupLocation = z.strictObject({ code: locationCode, address: address.optional() }).meta({ id: 'PickupLocation' });

/** Where the sender hands the parcel in; the sandbox stores it as given (no carrier checks it). Closed, as production's DropOffLocation is. */
const dropOffLocation = z.strictObject({ code: locationCode, address: address.optional() }).meta({ id: 'DropOffLocation' });

/** The attributes a client may write; the read-only ones are added by `shipmentAttributes`. */
export const writableShipmentAttributes = {
  recipient_address: personAddress,
  return_address: address,
  sender_address: address,
  physical_properties: physicalProperties,
  pickup_location: pickupLocation.nullable().optional(),
  drop_off_location: dropOffLocation.optional(),
  description: z.string().max(255).optional(),
  items: z.array(item).max(500).optional(),
  customs: customs.optional(),
  sender_tax_identification_numbers: z.array(taxIdentificationNumber).max(20).optional(),
  recipient_tax_identification_numbers: z.array(taxIdentificationNumber).max(20).optional(),
  sender_tax_number: z.string().max(255).optional().describe('Deprecated: use sender_tax_identification_numbers.'),
  recipient_tax_number: z.string().max(255).optional().describe('Deprecated: use recipient_tax_identification_numbers.'),
  is_consolidation: z.boolean().optional().describe('Whether this shipment is a consolidation shipment that others are consolidated into.'),
  customer_reference: z.string().max(255).optional(),
  channel: z.string().max(255).optional(),
  total_value: price.optional(),
  register_at: timestamp.nullable().optional(),
  tags: z
    .array(z.union([z.string().max(255), z.number()]))
    .max(100)
    .optional()
    .describe('Strings or numbers; answered as strings.'),
};

export const shipmentAttributes = z
  .object({
    ...writableShipmentAttributes,
    // Stored and answered as strings, as production answers them (requests may send numbers).
    tags: z.array(z.string()).optional(),
    price: price.optional(),
    barcode: z.string().optional(),
    tracking_code: z.string().optional(),
    tracking_url: z.url().optional(),
    tracking_page_url: z.url().optional(),
    created_at: timestamp,
    updated_at: timestamp,
    synced_at: timestamp.optional(),
    collo_number: z.number().int().positive().optional().describe('Read-only: the number of a collo of a multi-colli shipment, from 1.'),
    sync_active: z.boolean().describe('Whether the carrier status is being synced; the sandbox never syncs, so always false.'),
  })
  .meta({ id: 'ShipmentAttributes' });

export type ShipmentAttributes = z.infer<typeof shipmentAttributes>;

/** A service option chosen for a shipment, with the values its `values_format` asks for. */
export type ChosenOption = { id: string; values?: Record<string, unknown> };

/** The label a shipment asked for (`meta.label`). */
export type LabelChoice = { mime_type: string; size: string };

export type ShipmentRecord = Omit<ShipmentAttributes, 'price' | 'sync_active'> & {
  id: string;
  price?: Price;
  shop_id: string;
  /** Denormalized from the shop, so tenancy checks need no second lookup. */
  organization_id: string;
  service_id?: string;
  contract_id?: string;
  service_options: ChosenOption[];
  liability_coverage_id?: string;
  collection_id?: string;
  /** The latest manifest that lists it. */
  manifest_id?: string;
  /** The consolidation shipment this one is consolidated into. */
  consolidation_shipment_id?: string;
  /** For a collo: the master shipment of its multi-colli shipment. */
  multi_colli_shipment_id?: string;
  /** The current shipment-status row and its status code (kept for filtering). */
  shipment_status_id: string;
  status_code: string;
  label: LabelChoice;
  /** Client that created it; idempotency and the request log refer to it. */
  client_id: string;
};

/** What kind of event a carrier status is (production's CarrierStatusCategory). */
export const carrierStatusCategories = [
  'change-in-flight',
  'damaged',
  'default',
  'delay',
  'dropped-at-pudo-by-sender',
  'failed-cash-on-delivery',
  'failed-collection',
  'failed-collection-attempt',
  'failed-collection-attempt-force-majeure',
  'failed-collection-attempt-invalid-data',
  'failed-collection-attempt-invalid-data-address',
  'failed-collection-attempt-invalid-data-time',
  'failed-collection-attempt-package-issue',
  'failed-collection-attempt-user',
  'failed-customs-clearance',
  'failed-delivery-attempt',
  'failed-delivery-attempt-force-majeure',
  'failed-delivery-attempt-user',
  'failed-miscellaneous',
  'failed-oversized',
  'failed-pre-advice',
  'failed-refused-delivery',
  'failed-shipment-damaged',
  'failed-shipment-lost',
  'failed-shipment-missing',
  'partial-collection',
  'partial-delivery',
  'relabelling',
  'require-delivery-instructions',
  'security-alert',
  'successful-collection',
] as const;
export type CarrierStatusCategory = (typeof carrierStatusCategories)[number];

/** One entry of a shipment's status history. */
export type CarrierStatus = { code: string; description: string; assigned_at: number; category?: string; tracking_code?: string };

export type ShipmentStatusRecord = {
  id: string;
  shipment_id: string;
  status_id: string;
  carrier_statuses: CarrierStatus[];
  errors: Record<string, unknown>[];
  created_at: number;
};

/** Production's `DocumentType` enum: every kind of file its API knows, of shipments and of other owners. */
export const documentTypes = [
  'label',
  'printcode',
  'customs-declaration-form',
  'commercial-invoice',
  'manifest',
  'manifest-itemized',
  'manifest-summarized',
  'manifest-csv',
  'rates-import',
  'report',
] as const;

/** A document of a registered shipment; its bytes are rendered when downloaded. */
export type FileRecord = {
  id: string;
  shipment_id: string;
  /** The shipment's organization, which the files quota counts by (filled in for rows of older data files as they load). */
  organization_id: string;
  document_type: 'label' | 'customs-declaration-form';
  formats: { extension: string; mime_type: string }[];
  created_at: number;
};
