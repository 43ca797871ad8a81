import { z } from 'zod';
import { suggestHsCodes } from '../../domain/hs-codes.js';
import { landedCosts } from '../../domain/landed-costs.js';
import { endpoint } from '../../http/endpoint.js';
import { plainJson } from '../../http/respond.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { countryCode, currency } from '../../model/common.js';
import { hsCodes } from '../../fixtures/reference/hs-codes.js';
import { euCountries, exchangeRates, importRules } from '../../fixtures/reference/import-rules.js';

// Production's scopes: landed_cost together with broker.member.
const scopes = { anyOf: [['landed_cost', 'broker.member']] } as const;
const json = ['application/json'] as const;
// Closed, as production's Price is: an unknown member of a value is a 400.
const money = z.strictObject({ amount: z.number().int().min(0).describe('Cents.'), currency });
// Production's descriptions, SKUs and postal codes are strings without a least length: an empty one is
// taken (a description without words matches no HS code).
const description = z.string().max(1000);
const hsCode = z
  .string()
  .regex(/^[0-9.]+$/, 'must be digits and dots')
  .max(16);

const hsRequest = z
  .object({
    data: z.object({
      sku: z.string().max(255).describe('Required as in production; it may be empty and does not change the answer.'),
      description,
      origin_country_code: countryCode.optional(),
    }),
  })
  .meta({ id: 'SuggestHsCodeRequest' });

const hsSuggestion = z
  .object({ hs_code: z.string(), commodity_code: z.string(), vector_weight: z.number(), product_description: z.string() })
  .meta({ id: 'HsCodeSuggestion' });

const landedRequest = z
  .object({
    data: z.object({
      recipient_country_code: countryCode,
      recipient_postal_code: z.string().max(20),
      sender_country_code: countryCode,
      sender_postal_code: z.string().max(20),
      weight: z.number().int().min(1).describe('Grams.'),
      shipping_value: money.optional(),
      items: z
        .array(
          z
            .object({ description, item_value: money, hs_code: hsCode.optional(), sku: z.string().max(255).optional() })
            .refine((item) => item.hs_code !== undefined || item.sku !== undefined, { message: 'an item needs an hs_code or a sku', path: ['hs_code'] }),
        )
        .min(1)
        .max(100),
    }),
    meta: z.object({ convert_to_destination_currency: z.boolean().optional().describe('Default true.') }).optional(),
  })
  .meta({ id: 'CalculateLandedCostsRequest' });

const landedItem = z.object({ description: z.string(), item_value: money, hs_code: z.string(), tax: money, duty: money });
const landedResponse = z.object({ data: z.object({ items: z.array(landedItem), total_tax: money, total_duty: money }) }).meta({ id: 'LandedCosts' });

const territories = Object.fromEntries(euCountries.map((code) => [code, 'EU']));
const destinations = Object.keys(importRules).join(', ');
const currencies = Object.keys(exchangeRates).join(', ');

export const customsHelperEndpoints = [
  endpoint({
    method: 'post',
    path: '/suggest-hscode',
    operationId: 'suggestHsCode',
    summary: 'Suggest HS codes for an item',
    description:
      " Deterministic suggestions from the sandbox's table of common web-shop goods, " +
      'matched on the words of `description` (`vector_weight` is how well, 0 to 1; best first, at most 5). `sku` is required as in production and does not change the answer. No match is an empty list.',
    tag: 'Shipments',
    auth: scopes,
    body: hsRequest,
    bodyFormat: 'json',
    maxBodyBytes: 16 * 1024,
    produces: json,
    responses: {
      200: { description: 'The suggestions.', schema: z.object({ data: z.array(hsSuggestion) }).meta({ id: 'HsCodeSuggestions' }), contentTypes: json },
    },
    handler: (_ctx, { body }) => plainJson({ data: suggestHsCodes(hsCodes, body.data.description) }),
  }),
  endpoint({
    method: 'post',
    path: '/calculate-landed-costs',
    operationId: 'calculateLandedCosts',
    summary: 'Calculate duties and import taxes',
    description:
      ` Duties and import VAT per item and in total (the totals add up the items) for imports into ${destinations}, ` +
      `from seeded rates per HS chapter, VAT rates and duty- and tax-free values; values in ${currencies}, converted with seeded exchange rates into the destination's currency ` +
      '(or, with `meta.convert_to_destination_currency: false`, kept in their one currency). Within the EU, or one country, nothing is charged. ' +
      'Shipping is shared over the items by value. An item with a `sku` but no `hs_code` takes the best HS code for its description. `weight` is required as in production and does not change the answer.',
    tag: 'Shipments',
    auth: scopes,
    body: landedRequest,
    bodyFormat: 'json',
    maxBodyBytes: 256 * 1024,
    produces: json,
    responses: {
      200: { description: 'The duties and taxes.', schema: landedResponse, contentTypes: json },
      422: {
        description: 'A destination or currency the sandbox does not price, mixed currencies without conversion, or an item no HS code matches (10008).',
        schema: errorDocument,
      },
    },
    handler: (_ctx, { body }) =>
      plainJson({
        data: landedCosts(
          { rules: importRules, territories, rates: exchangeRates, hsCodes },
          { ...body.data, convert: body.meta?.convert_to_destination_currency ?? true },
        ),
      }),
  }),
];
