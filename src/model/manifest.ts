import { z } from 'zod';
import { address, timestamp } from './common.js';

/** Attributes of a manifest as answered: production's closed set. */
export const manifestAttributes = z
  .strictObject({
    name: z.string().max(255),
    address,
    created_at: timestamp,
  })
  .meta({ id: 'ManifestAttributes' });

export type ManifestOwner = { type: 'shops' | 'organizations'; id: string };

/** A list of registered shipments handed to a carrier together, with its printable document. */
export type ManifestRecord = {
  id: string;
  name: string;
  address: z.infer<typeof address>;
  created_at: number;
  organization_id: string;
  owner: ManifestOwner;
  shop_id?: string;
  contract_id?: string;
  shipment_ids: string[];
  /** The collection it was made for (`POST /create-manifest-for-collection`). */
  collection_id?: string;
  /** Shipments of the collection left off the manifest, and why (production's `meta.errors`). */
  errors?: string[];
};

/** The document of a manifest; its bytes are rendered when downloaded. */
export type ManifestFileRecord = {
  id: string;
  manifest_id: string;
  collection_id?: string;
  organization_id: string;
  document_type: 'manifest';
  formats: { extension: string; mime_type: string }[];
  created_at: number;
};
