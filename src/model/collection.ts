import { z } from 'zod';
import { address, timestamp } from './common.js';

export const collectionTime = z.object({ from: timestamp, to: timestamp }).meta({ id: 'CollectionTime' });

export const collectionAttributes = z
  .strictObject({
    name: z.string().max(255).optional().describe('Deprecated in production: use `description`.'),
    description: z.string().max(255).optional(),
    address,
    collection_time: collectionTime,
    register: z.boolean().optional(),
    tracking_code: z.string().optional(),
    created_at: timestamp,
  })
  .meta({ id: 'CollectionAttributes' });

/** A carrier pick-up at an address in a time window, gathering shipments of one shop. */
export type CollectionRecord = Omit<z.infer<typeof collectionAttributes>, 'register'> & {
  id: string;
  shop_id: string;
  organization_id: string;
  contract_id?: string;
  status_id: string;
  register?: boolean;
  /** The latest manifest made for it (`POST /create-manifest-for-collection`). */
  manifest_id?: string;
  /** The collection schedule that booked it. */
  schedule_id?: string;
};
