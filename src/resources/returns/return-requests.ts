import { z } from 'zod';
import { resourceRequest, toOneRef } from '../../jsonapi/request.js';
import { currency, uuid } from '../../model/common.js';
import { consumerAddress, money } from '../../model/returns/common.js';
import { outcomes } from '../../model/returns/return.js';
import { shopLocales } from '../../model/shop.js';
import { readOnly } from './common.js';

/** An item a consumer returns (production's PostReturnItem). */
const postReturnItem = z
  .strictObject({
    id: z.string().min(1).max(255).describe('The id of the order item.'),
    quantity: z.number().int().min(1).max(10_000),
    // The reason, its attachments and answers are open in production: a member it does not know is dropped.
    reason: z
      .object({
        code: z.string().min(1).max(255),
        comment: z.string().max(255).nullable().optional(),
        attachments: z
          .array(
            z.object({
              data: z.string().min(1).meta({ description: 'Base64 image data.', contentEncoding: 'base64' }),
              extension: z.enum(['jpg', 'jpeg', 'png']),
            }),
          )
          .max(5)
          .optional(),
        questions: z
          .array(z.object({ code: z.string().min(1).max(255), answer: z.union([z.string().max(1000), z.boolean()]) }))
          .max(20)
          .optional(),
      })
      .optional(),
    preferred_outcome: z.enum(outcomes).optional().describe('Default refund.'),
    // What production answers of an item (its GetReturnItem), sent back by a client that posts
    // an item as it read it: the order item's own values count, these are ignored.
    sku: readOnly,
    name: readOnly,
    description: readOnly,
    image_url: readOnly,
    item_price: readOnly,
    item_weight: readOnly,
    features: readOnly,
  })
  .meta({ id: 'PostReturnItem' });

export const createReturnRequest = resourceRequest({
  id: 'ReturnCreateRequest',
  // Open, as production's ReturnRequest attributes: an attribute it does not know is dropped.
  attributes: z.object({
    order_reference: z.string().min(1).max(255),
    consumer_address: consumerAddress,
    items: z.array(postReturnItem).min(1).max(100),
    locale: z.enum(shopLocales).optional().describe("The consumer's language; default Accept-Language, else the shop's."),
    created_at: readOnly,
    return_address: readOnly,
    rejection_message: readOnly,
    has_preferred_outcome_refund: readOnly,
    has_preferred_outcome_exchange: readOnly,
    shipment_registrations: readOnly,
    registration_retry_after: readOnly,
    payment: readOnly,
  }),
  relationships: z.object({ shop: toOneRef, return_method: toOneRef, tags: toOneRef.optional() }),
});

// Open where production's bodies are (the tag body and its data, the payment's data): a member it does not know is dropped.
export const tagRequest = z.object({ data: z.object({ return_tag_ids: z.array(uuid).max(50) }) }).meta({ id: 'ReturnTagRequest' });

export const rejectRequest = z
  .object({ data: z.object({ message: z.string().max(255).nullable().optional().describe('Why, for the consumer.') }).optional() })
  .meta({ id: 'ReturnRejectRequest' });

// Production's Price takes an ISO 4217 currency only; the price becomes the return's payment, answered with the return.
export const paymentRequest = z.strictObject({ data: z.object({ return_payment: money.extend({ currency }) }) }).meta({ id: 'ReturnPaymentRequest' });
