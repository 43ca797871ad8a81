import { z } from 'zod';
import { address, countryCode, currency, emailAddress, inGrams, weightUnits } from '../common.js';

/** A weight in one of production's units; the sandbox converts to grams where it weighs. */
export const weight = z.strictObject({ amount: z.number().int().min(0), unit: z.enum(weightUnits) }).meta({ id: 'ReturnWeight' });
export type Weight = z.infer<typeof weight>;

/** Whole grams, at least 1. */
export const grams = (w: Weight): number => Math.max(1, Math.round(inGrams(w.amount, w.unit)));

/** Production's money: integer cents and a currency code. */
export const money = z.strictObject({ amount: z.number().int(), currency }).meta({ id: 'ReturnPrice' });

/** A text per locale, `{"en-GB": "...", "nl-NL": "..."}`. */
const localizedField = z
  .record(z.string().regex(/^[a-z]{2}-[A-Z]{2}$/, 'keys must be locales such as en-GB'), z.string().min(1).max(255))
  .refine((value) => Object.keys(value).length > 0, 'needs at least one locale')
  .meta({ id: 'LocalizedField' });

/** A plain text, or one per locale. */
export const localizedText = z.union([z.string().min(1).max(255), localizedField]);
export type LocalizedText = z.infer<typeof localizedText>;

export const itemFeature = z
  .strictObject({
    key: z.string().max(255),
    value: z.union([z.string().max(255), z.number(), z.boolean()]),
    annotation: z.enum(['color', 'brand', 'size']).nullable().optional(),
  })
  .meta({ id: 'ItemFeature' });

/** What a shop sold: production's BaseOrderItem (open: a member it does not know is dropped). */
export const orderItemInput = z
  .object({
    sku: z.string().max(255).nullable().optional(),
    name: z.string().min(1).max(255),
    description: z.string().max(255),
    image_url: z.string().max(2048).nullable().optional(),
    quantity: z.number().int().min(1).max(10_000),
    item_price: money,
    item_weight: weight.optional(),
    features: z.array(itemFeature).max(20).optional(),
    non_returnable: z.boolean().optional().describe('Default false.'),
  })
  .meta({ id: 'OrderItemInput' });

/** An order item as stored and answered: with its id and `non_returnable` set. */
export const orderItem = orderItemInput.extend({ id: z.string(), non_returnable: z.boolean() }).meta({ id: 'OrderItem' });
export type OrderItem = z.infer<typeof orderItem>;

/** An address of a consumer: a person with an e-mail address. */
export const consumerAddress = address
  .extend({ first_name: z.string().min(1).max(255), last_name: z.string().min(1).max(255), email: emailAddress() })
  .meta({ id: 'ConsumerAddress' });

/** Where returns go: a named person or desk at an address. */
export const returnToAddress = address
  .extend({ first_name: z.string().min(1).max(255), last_name: z.string().min(1).max(255) })
  .meta({ id: 'ReturnToAddress' });

export const returnCountryCodes = z.array(countryCode).max(250);
