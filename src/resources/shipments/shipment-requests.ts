import { z } from 'zod';
import { fields, type DraftAttributes, type ShipmentDraft } from '../../domain/shipments/draft.js';
import { relatedId, resourceRequest, toOneRef, type ToOneRef } from '../../jsonapi/request.js';
import { ApiError } from '../../jsonapi/errors.js';
import { orNull } from '../../model/common.js';
import {
  customs,
  item,
  physicalProperties,
  writableShipmentAttributes,
  type Customs,
  type Item,
  type PhysicalProperties,
  type ShipmentRecord,
} from '../../model/shipment.js';

// Clients send whole resources back: read-only attributes are accepted and ignored.
const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');
const readOnlyAttributes = {
  price: readOnly,
  barcode: readOnly,
  tracking_code: readOnly,
  tracking_url: readOnly,
  tracking_page_url: readOnly,
  created_at: readOnly,
  updated_at: readOnly,
  synced_at: readOnly,
  final_mile_carrier: readOnly,
  sync_active: readOnly,
  verified: readOnly,
  collo_number: readOnly,
};

/** Members of an item production answers and computes itself: a request may send them back, and they are dropped. */
const READ_ONLY_ITEM = ['tax', 'duty'] as const;
/** The same of customs. */
const READ_ONLY_CUSTOMS = ['total_tax', 'total_duty', 'payment'] as const;

/**
 * An item as a request sends it: production lets the members below be `null`, which is as if
 * they were left out, and takes its read-only members back (`storedItems` drops both).
 */
const { shape } = item;
export const requestItem = item
  .extend({
    sku: orNull(shape.sku),
    image_url: orNull(shape.image_url),
    item_value: orNull(shape.item_value),
    item_weight: orNull(shape.item_weight),
    item_weight_unit: orNull(shape.item_weight_unit),
    hs_code: orNull(shape.hs_code),
    origin_country_code: orNull(shape.origin_country_code),
    vat_percentage: orNull(shape.vat_percentage),
    tax: readOnly,
    duty: readOnly,
  })
  .meta({ id: 'ShipmentItemRequest' });
type RequestItem = z.output<typeof requestItem>;

/** Physical properties as a request sends them: production lets all but the weight be `null`, which is as if they were left out. */
const physical = physicalProperties.shape;
export const requestPhysicalProperties = physicalProperties
  .extend({
    length: orNull(physical.length),
    width: orNull(physical.width),
    height: orNull(physical.height),
    volume: orNull(physical.volume),
    volumetric_weight: orNull(physical.volumetric_weight),
  })
  .meta({ id: 'PhysicalPropertiesRequest' });

/** Physical properties as they are stored: without the members sent as `null`. */
export function storedPhysicalProperties(given: z.output<typeof requestPhysicalProperties>): PhysicalProperties;
export function storedPhysicalProperties(given: z.output<typeof requestPhysicalProperties> | undefined): PhysicalProperties | undefined;
export function storedPhysicalProperties(given: z.output<typeof requestPhysicalProperties> | undefined): PhysicalProperties | undefined {
  return given === undefined ? undefined : (writtenMembers(given, []) as PhysicalProperties);
}

/** Customs as a request sends them: with the read-only members production answers, which are dropped, and `null` for the optional members. */
const customsShape = customs.shape;
const requestCustoms = customs
  .extend({
    // Production lets every member be null, as if left out.
    content_type: orNull(customsShape.content_type),
    non_delivery: orNull(customsShape.non_delivery),
    incoterm: orNull(customsShape.incoterm),
    invoice_number: orNull(customsShape.invoice_number),
    shipping_value: orNull(customsShape.shipping_value),
    license_number: orNull(customsShape.license_number),
    certificate_number: orNull(customsShape.certificate_number),
    total_tax: readOnly,
    total_duty: readOnly,
    payment: readOnly,
  })
  .meta({ id: 'CustomsRequest' });

/** `given` without the members sent as `null` and the read-only ones. */
function writtenMembers(given: object, readOnlyNames: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(given).filter(([name, value]) => value !== null && !readOnlyNames.includes(name)));
}

/** Items as they are stored: without the members sent as `null` and the read-only ones. */
export function storedItems(items: readonly RequestItem[]): Item[];
export function storedItems(items: readonly RequestItem[] | undefined): Item[] | undefined;
export function storedItems(items: readonly RequestItem[] | undefined): Item[] | undefined {
  return items?.map((given) => writtenMembers(given, READ_ONLY_ITEM) as Item);
}

/** The attributes a request may write: the stored ones, with items and customs as a request sends them. */
const writable = {
  ...writableShipmentAttributes,
  physical_properties: requestPhysicalProperties,
  items: z.array(requestItem).max(500).optional(),
  customs: requestCustoms.optional(),
};

/** Attributes production's request schema lets be `null`: on create that is the same as leaving them out, on update it removes them. */
const NULLABLE = [
  'pickup_location',
  'drop_off_location',
  'description',
  'customer_reference',
  'channel',
  'total_value',
  'items',
  'customs',
  'register_at',
  'tags',
  'sender_tax_number',
  'recipient_tax_number',
] as const;
type Writable = typeof writable;
type RequestAttributes = { [K in keyof Writable]: K extends (typeof NULLABLE)[number] ? z.ZodNullable<Writable[K]> : Writable[K] };
const requestAttributes = Object.fromEntries(
  Object.entries(writable).map(([name, schema]) => [name, (NULLABLE as readonly string[]).includes(name) ? (schema as z.ZodType).nullable() : schema]),
) as RequestAttributes;

/**
 * The chosen service options. An entry's `meta`, when sent, carries the option's `values` as an
 * object (production's identifier meta requires it so): a text or a list there, or a `meta`
 * without it, is refused rather than dropped and the option judged as if it had no values.
 */
const serviceOptionRefs = z.object({
  data: z.array(
    z.object({
      type: z.string(),
      id: z.string(),
      meta: z.looseObject({ values: z.record(z.string(), z.unknown()) }).optional(),
    }),
  ),
});

/**
 * Production lets these relationships be `null` themselves (`"contract": null`, as a client
 * serialising an unset link sends it): taken as left out, on create and on update alike
 * (`{"data": null}` is what unlinks).
 */
const relationshipShape = {
  service: toOneRef.nullable().optional(),
  contract: toOneRef.nullable().optional(),
  service_options: serviceOptionRefs.nullable().optional(),
  liability_coverage: toOneRef.nullable().optional(),
  collection: toOneRef.optional(),
  consolidation_shipment: toOneRef.nullable().optional(),
  // Read-only: accepted and ignored. Production's contract has `manifest` writable, but only
  // registered shipments (which PATCH cannot change) go on a manifest, and a manifest never changes
  // once made: a shipment's is the latest that lists it (a hook cannot set it either).
  colli: readOnly,
  files: readOnly,
  hook_logs: readOnly,
  shipment_surcharges: readOnly,
  multi_colli_shipment: readOnly,
  shipment_status: readOnly,
  manifest: readOnly,
};

/** The request meta every create takes: the label format and the service code. */
export const labelAndServiceMeta = {
  label: z
    .object({ mime_type: z.string(), size: z.string() })
    .partial()
    .optional()
    .describe('Label format: mime_type (default application/pdf) and size (default A6).'),
  label_mime_type: z.string().optional().describe('Deprecated form of label.mime_type.'),
  service_code: z.string().min(1).max(255).optional().describe('Picks the service with this code and the cheapest active contract.'),
};

const documentMeta = z
  .object({
    ...labelAndServiceMeta,
    add_to_next_collection: z
      .boolean()
      .optional()
      .describe(
        'Adds the shipment to the next collection of its shop and contract, where the carrier picks it up (not a parcel handed over at a drop-off point); otherwise meta.warnings says why it was not.',
      ),
  })
  .meta({ id: 'ShipmentRequestMeta' });

/** The attributes and relationships of a create request, for the creates that differ in their meta (registered, multi-colli). */
export const createAttributes = { ...requestAttributes, ...readOnlyAttributes };
export const createRelationships = z.object({ shop: toOneRef, ...relationshipShape });

export const createShipmentRequest = resourceRequest({
  id: 'ShipmentCreateRequest',
  attributes: z.strictObject(createAttributes),
  relationships: createRelationships,
  documentMeta,
});

const partialWritable = Object.fromEntries(Object.entries(requestAttributes).map(([name, schema]) => [name, (schema as z.ZodType).optional()])) as {
  [K in keyof RequestAttributes]: z.ZodOptional<RequestAttributes[K]>;
};

export const updateShipmentRequest = resourceRequest({
  id: 'ShipmentUpdateRequest',
  update: true,
  attributes: z.strictObject({ ...partialWritable, ...readOnlyAttributes }).optional(),
  // The shop is sent back as it is (and ignored: a shipment stays in its shop); production's
  // contract has no null for it, so `{"data": null}` is a 400 rather than silently kept.
  relationships: z.object({ shop: z.object({ data: z.object({ type: z.string(), id: z.string() }) }).optional(), ...relationshipShape }).optional(),
  documentMeta: documentMeta.omit({ add_to_next_collection: true }).extend({ add_to_next_collection: readOnly }),
});

type CreateBody = z.output<typeof createShipmentRequest>;
type UpdateBody = z.output<typeof updateShipmentRequest>;
type Relationships = Partial<CreateBody['data']['relationships']>;
type Meta = { label?: { mime_type?: string; size?: string }; label_mime_type?: string; service_code?: string; add_to_next_collection?: boolean } | undefined;
/** What a create request of any of the create endpoints holds. */
type CreateLike = { data: { attributes: object; relationships: CreateBody['data']['relationships'] }; meta?: Meta };

function options(ref: Relationships['service_options']): ShipmentDraft['options'] {
  return (ref?.data ?? []).map((entry, index) => {
    if (entry.type !== 'service-options') {
      throw ApiError.unprocessable(
        `Service options must be of type 'service-options', not '${entry.type}'.`,
        `/data/relationships/service_options/data/${index}/type`,
      );
    }
    const values = entry.meta?.values;
    return values ? { id: entry.id, values } : { id: entry.id };
  });
}

/**
 * The id a to-one relationship names. An empty id names nothing that exists: it is refused as the
 * shop's and a service option's are, rather than read as no link at all, which would store the
 * shipment without the coverage (or service, contract...) the request asked for.
 */
function toOne(ref: ToOneRef | null | undefined, name: string, type: string): string | undefined {
  const id = relatedId(ref ?? undefined, name, [type], false);
  if (id === '') {
    throw ApiError.unprocessable(
      `The relationship '${name}' names no ${type} (its id is empty): send the id, or {"data": null} for none.`,
      `/data/relationships/${name}/data/id`,
    );
  }
  return id;
}

function label(meta: Meta): ShipmentDraft['label'] {
  const mime = meta?.label?.mime_type ?? meta?.label_mime_type;
  if (!mime && !meta?.label?.size) return undefined;
  return { mime_type: mime ?? 'application/pdf', size: meta?.label?.size ?? 'A6' };
}

/** The member of the request meta that chose the label: the deprecated `label_mime_type` when it alone named it. */
function labelField(meta: Meta): ShipmentDraft['labelField'] {
  return meta?.label_mime_type !== undefined && meta?.label === undefined ? { meta: 'label_mime_type' } : undefined;
}

/** An attribute as it is stored, from its value in a validated request. */
function stored(name: string, value: unknown): unknown {
  if (name === 'items') return storedItems(value as RequestItem[]);
  if (name === 'customs') return writtenMembers(value as object, READ_ONLY_CUSTOMS) as Customs;
  if (name === 'physical_properties') return storedPhysicalProperties(value as z.output<typeof requestPhysicalProperties>);
  return value;
}

/** The draft of a new shipment from a validated create request. */
export function draftFromCreate(body: CreateLike): ShipmentDraft {
  const { attributes, relationships } = body.data;
  const given = Object.entries(attributes).filter(([, value]) => value !== null);
  return {
    attributes: Object.fromEntries(given.map(([name, value]) => [name, stored(name, value)])) as unknown as DraftAttributes,
    shopId: relatedId(relationships.shop, 'shop', ['shops'])!,
    serviceId: toOne(relationships.service, 'service', 'services'),
    contractId: toOne(relationships.contract, 'contract', 'contracts'),
    options: options(relationships.service_options),
    coverageId: toOne(relationships.liability_coverage, 'liability_coverage', 'liability-coverages'),
    collectionId: toOne(relationships.collection, 'collection', 'collections'),
    consolidationShipmentId: toOne(relationships.consolidation_shipment, 'consolidation_shipment', 'shipments'),
    label: label(body.meta),
    labelField: labelField(body.meta),
    serviceCode: body.meta?.service_code,
    addToNextCollection: body.meta?.add_to_next_collection,
  };
}

/**
 * The draft of a shipment after an update: given attributes replace the stored ones (`null`
 * removes an optional one), given relationships replace the stored links, the rest stays.
 */
export function draftFromUpdate(current: ShipmentRecord, body: UpdateBody): ShipmentDraft {
  const given = (body.data.attributes ?? {}) as Record<string, unknown>;
  const attributes = { ...(current as unknown as Record<string, unknown>) };
  for (const name of Object.keys(writableShipmentAttributes)) {
    if (!(name in given)) continue;
    if (given[name] === null && name !== 'register_at') delete attributes[name];
    else attributes[name] = stored(name, given[name]);
  }
  // The stored items' values made the total value: items replaced or removed take it with them, so
  // the total is the new items' (or none) rather than a sum of items the shipment no longer has.
  if ('items' in given && !('total_value' in given) && current.items?.some((item) => item.item_value)) delete attributes.total_value;
  const rel = (body.data.relationships ?? {}) as Relationships;
  const keep = <T>(name: keyof Relationships, fresh: () => T, stored: T): T => (rel[name] !== undefined && rel[name] !== null ? fresh() : stored);
  // A new service code chooses service and contract afresh, unless the body names them too.
  const serviceCode = body.meta?.service_code;
  return {
    attributes: attributes as unknown as DraftAttributes,
    shopId: current.shop_id,
    serviceId: keep('service', () => toOne(rel.service, 'service', 'services'), serviceCode ? undefined : current.service_id),
    contractId: keep('contract', () => toOne(rel.contract, 'contract', 'contracts'), serviceCode ? undefined : current.contract_id),
    options: keep('service_options', () => options(rel.service_options), current.service_options),
    coverageId: keep('liability_coverage', () => toOne(rel.liability_coverage, 'liability_coverage', 'liability-coverages'), current.liability_coverage_id),
    collectionId: keep('collection', () => toOne(rel.collection, 'collection', 'collections'), current.collection_id),
    currentCollectionId: current.collection_id,
    consolidationShipmentId: keep(
      'consolidation_shipment',
      () => toOne(rel.consolidation_shipment, 'consolidation_shipment', 'shipments'),
      current.consolidation_shipment_id,
    ),
    ...updatedLabel(body.meta as Meta, rel, current),
    serviceCode,
    named: new Set(Object.keys(rel).filter((name) => rel[name as keyof Relationships] !== undefined && rel[name as keyof Relationships] !== null)),
    namedAttributes: new Set(Object.keys(given).filter((name) => name in writableShipmentAttributes)),
  };
}

/**
 * The label format of an update: as its meta asks, else the shipment's own, kept. A kept format
 * the new carrier does not offer is blamed on the member that chose that carrier (the update has
 * no `meta.label` to point at): the contract, the service, or `meta.service_code`.
 */
function updatedLabel(meta: Meta, rel: Relationships, current: ShipmentRecord): Pick<ShipmentDraft, 'label' | 'labelField' | 'labelKept'> {
  const asked = label(meta);
  if (asked) return { label: asked, labelField: labelField(meta) };
  const sent = (name: 'contract' | 'service') => rel[name] !== undefined && rel[name] !== null;
  const chooser = sent('contract')
    ? fields.relationship('contract')
    : sent('service')
      ? fields.relationship('service')
      : meta?.service_code !== undefined
        ? fields.meta('service_code')
        : undefined;
  return { label: current.label, labelField: chooser, labelKept: true };
}
