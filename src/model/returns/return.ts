import { z } from 'zod';
import { timestamp } from '../common.js';
import { shopLocales } from '../shop.js';
import { consumerAddress, itemFeature, money, returnToAddress, weight, type LocalizedText, type OrderItem } from './common.js';
import { packageTypes } from './order.js';

export const returnStatusCodes = [
  'return-pending',
  'return-approved',
  'return-rejected',
  'return-deadline-passed',
  'return-payment-pending',
  'return-payment-failed',
  'return-reissued',
] as const;
export type ReturnStatusCode = (typeof returnStatusCodes)[number];

export const outcomes = ['refund', 'exchange'] as const;

const text = z.union([z.string(), z.record(z.string(), z.string())]);

/** A returned item as answered (production's GetReturnItem, a closed object). */
const returnItem = z
  .strictObject({
    id: z.string(),
    sku: z.string().nullable().optional(),
    name: z.string().optional(),
    description: z.string(),
    image_url: z.string().nullable().optional(),
    quantity: z.number().int(),
    item_price: money,
    item_weight: weight.optional(),
    features: z.array(itemFeature).optional(),
    reason: z
      .object({
        code: z.string(),
        description: text,
        comment: z.string().nullable().optional(),
        attachments: z.array(z.object({ url: z.string() })).optional(),
        questions: z.array(z.object({ code: z.string(), answer: z.union([z.string(), z.boolean()]), description: text })).optional(),
      })
      .optional(),
    preferred_outcome: z.enum(outcomes),
  })
  .meta({ id: 'ReturnItem' });

const shipmentRegistration = z
  .object({
    invocation: z.enum(['manual', 'automatic']),
    status: z.enum(['pending', 'success', 'failed']),
    error: z.string().optional(),
    created_at: timestamp,
  })
  .meta({ id: 'ReturnShipmentRegistration' });

const returnPayment = z
  .object({
    created_at: timestamp,
    paid_at: timestamp.optional(),
    amount: z.number().int(),
    currency: z.string(),
    external_payment_id: z.string().optional(),
    checkout_url: z.url(),
    failures: z.array(z.object({ code: z.enum(['failed', 'cancelled', 'expired']), description: z.string().optional(), created_at: timestamp })).optional(),
  })
  .meta({ id: 'ReturnPayment' });

const simpleAttributes = {
  created_at: timestamp,
  order_reference: z.string().max(255),
  return_address: returnToAddress,
  consumer_address: consumerAddress,
  locale: z.enum(shopLocales).optional(),
  rejection_message: z.string().max(255).optional(),
  has_preferred_outcome_refund: z.boolean(),
  has_preferred_outcome_exchange: z.boolean(),
};

export const returnAttributes = z
  .strictObject({
    ...simpleAttributes,
    items: z.array(returnItem).min(1),
    shipment_registrations: z.array(shipmentRegistration).optional(),
    registration_retry_after: timestamp.optional(),
    payment: returnPayment.optional(),
  })
  .meta({ id: 'ReturnAttributes' });

/** The attributes of a return in a list (production's ReturnSimpleResponse). */
export const returnSimpleAttributes = z.strictObject(simpleAttributes).meta({ id: 'ReturnSimpleAttributes' });

export const returnMeta = z
  .strictObject({
    order_created_at: timestamp.optional(),
    outbound_shipment_delivered_at: timestamp.optional(),
    package_type: z.enum(packageTypes),
    allows_reissue: z.boolean(),
  })
  .meta({ id: 'ReturnMeta' });

export const returnSimpleMeta = z
  .strictObject({
    order_created_at: timestamp.optional(),
    outbound_shipment_delivered_at: timestamp.optional(),
    package_type: z.enum(packageTypes),
    shipment_tracking_code: z.string().optional(),
    shipment_status_code: z.string().optional(),
    shipment_status_level: z.string().optional(),
    shipment_status_name: z.string().optional(),
  })
  .meta({ id: 'ReturnSimpleMeta' });

/** A returned item as stored: the order item's facts, the quantity, the reason as given. */
export type ReturnItemRecord = Omit<OrderItem, 'non_returnable' | 'quantity'> & {
  quantity: number;
  preferred_outcome: (typeof outcomes)[number];
  reason?: {
    code: string;
    description: LocalizedText;
    comment?: string;
    /** Images as uploaded; answered as `data:` URLs. */
    attachments?: { mime_type: string; data: string }[];
    questions?: { code: string; answer: string | boolean; description: LocalizedText }[];
  };
};

/** One time the return shipment was sent to the carrier; its outcome is read from the shipment. */
export type RegistrationAttempt = { invocation: 'manual' | 'automatic'; created_at: number; shipment_id: string };

export type ReturnRecord = {
  id: string;
  organization_id: string;
  shop_id: string;
  order_id: string;
  order_reference: string;
  return_method_id: string;
  tag_ids: string[];
  consumer_address: z.infer<typeof consumerAddress>;
  return_address: z.infer<typeof returnToAddress>;
  locale?: (typeof shopLocales)[number];
  rejection_message?: string;
  items: ReturnItemRecord[];
  status_code: ReturnStatusCode;
  status_id: string;
  shipment_id?: string;
  registrations: RegistrationAttempt[];
  payment_id?: string;
  created_at: number;
  updated_at: number;
  approved_at?: number;
};

/** A payment asked of the consumer (`request-payment`), paid through its checkout URL. */
export type ReturnPaymentRecord = {
  id: string;
  return_id: string;
  organization_id: string;
  amount: number;
  currency: string;
  created_at: number;
  paid_at?: number;
  external_payment_id?: string;
  failures: { code: 'failed' | 'cancelled' | 'expired'; description?: string; created_at: number }[];
};
