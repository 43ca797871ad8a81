import { z } from 'zod';

const labelFormat = z.object({
  mime_type: z.enum(['application/pdf', 'application/zpl', 'image/png']),
  size: z.enum(['A4', 'A6']),
});
type LabelFormat = z.infer<typeof labelFormat>;

/** What a carrier does with collections (production's `collections` member of a carrier). */
const carrierCollections = z.strictObject({
  offers_collections: z.boolean(),
  voids_registered_collections: z.boolean(),
  allows_adding_registered_shipments_to_collection: z.boolean(),
});
type CarrierCollections = z.infer<typeof carrierCollections>;

const pudo = z.strictObject({ can_get_pudo_by_id: z.boolean() });
const deliveryDates = z.strictObject({ can_get_delivery_dates: z.boolean() });

/** Attributes as answered: production's closed set, with the deprecated `label_mime_types`. */
export const carrierAttributes = z
  .strictObject({
    name: z.string(),
    code: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a slug'),
    logo_url: z.url(),
    credentials_format: z.record(z.string(), z.unknown()).describe('JSON Schema of contract credentials'),
    label_formats: z.array(labelFormat),
    label_mime_types: z.array(z.string()).describe('Deprecated: the distinct mime types of `label_formats`.'),
    collections: carrierCollections,
    pudo,
    delivery_dates: deliveryDates,
  })
  .meta({ id: 'CarrierAttributes' });

/**
 * A stored carrier. The capabilities are optional because data files written before they
 * existed lack them; `logo_url` and `label_mime_types` are derived when answering.
 */
export type CarrierRecord = {
  id: string;
  name: string;
  code: string;
  credentials_format: Record<string, unknown>;
  label_formats: LabelFormat[];
  collections?: CarrierCollections;
  pudo?: z.infer<typeof pudo>;
  delivery_dates?: z.infer<typeof deliveryDates>;
  /** Tags every shipment of the carrier behaves as if it carried (a fixture's `sandbox_triggers`); never answered. */
  sandbox_triggers?: string[];
  /** The tenant (its organization) a carrier loaded with a pack belongs to; only that tenant sees it. Left out: everyone's. */
  organization_id?: string;
};
