import { z } from 'zod';
import { address, emailAddress, timestamp } from '../common.js';
import { orderItem, type OrderItem } from './common.js';

/** Package types production names for an order's outbound parcel. */
export const packageTypes = ['letter', 'letterbox', 'multi-colli', 'parcel', 'unstamped'] as const;

/** Who bought what: the recipient must be a named person with an e-mail address. */
export const orderRecipient = address
  .extend({ first_name: z.string().min(1).max(255), last_name: z.string().min(1).max(255), email: emailAddress() })
  .meta({ id: 'OrderRecipientAddress' });

export const demoOrderAttributes = z
  .strictObject({
    created_at: timestamp,
    recipient_address: orderRecipient,
    items: z.array(orderItem).min(1),
    outbound_shipment_identifier: z.string().max(255).nullable().optional(),
    is_third_party: z.boolean().optional(),
  })
  .meta({ id: 'DemoOrderAttributes' });

/** The order a return portal looks up (production's `orders`): a demo order seen by reference. */
export const orderAttributes = z
  .strictObject({ created_at: timestamp, recipient_address: orderRecipient, items: z.array(orderItem) })
  .meta({ id: 'OrderAttributes' });

export const orderMeta = z
  .strictObject({
    shipping_and_return: z.boolean(),
    label_in_the_box: z.boolean(),
    package_type: z.enum(packageTypes),
    return_exists: z.boolean(),
    reissue_allowed: z.boolean().optional(),
  })
  .meta({ id: 'OrderMeta' });

/**
 * A demo order: what a shop sold, so a return portal has something to look up. Its id is a
 * whole number (production's `demo_order_id` is an integer) and is also the order reference.
 */
export type DemoOrderRecord = {
  id: string;
  shop_id: string;
  organization_id: string;
  recipient_address: z.infer<typeof orderRecipient>;
  items: OrderItem[];
  outbound_shipment_identifier?: string;
  is_third_party?: boolean;
  created_at: number;
  /** Set by `POST /returns/v1/allow-reissue`: the next return may return everything again. */
  reissue_allowed?: boolean;
};
