import { z } from 'zod';
import { suggestAddresses } from '../../domain/address-suggestions.js';
import { endpoint } from '../../http/endpoint.js';
import { plainJson } from '../../http/respond.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { countryCode } from '../../model/common.js';
import { addressTable } from '../../fixtures/reference/address-table.js';

const text = z.string().min(1).max(255);

const suggestRequest = z
  .object({
    data: z.object({
      country_code: countryCode.optional(),
      postal_code: z.string().min(1).max(20).optional(),
      street_number: z.number().int().min(1).max(2147483647).optional(),
      street_number_suffix: z.string().max(20).optional(),
      city: text.optional(),
      street_1: text.optional(),
    }),
  })
  .meta({ id: 'SuggestAddressRequest' });

const suggestion = z
  .object({
    country_code: z.string(),
    postal_code: z.string(),
    street_1: z.string(),
    city: z.string(),
    street_number: z.number().int().optional(),
    street_number_suffix: z.string().optional(),
  })
  .meta({ id: 'AddressSuggestion' });

const countries = Object.keys(addressTable).join(', ');

export const suggestAddressEndpoint = endpoint({
  method: 'post',
  path: '/suggest-address',
  operationId: 'suggestAddress',
  summary: 'Suggest complete addresses for partial input',
  description:
    ` Deterministic suggestions from the sandbox's table of known streets in ${countries}: ` +
    'a postal code gives its street(s) and city (with `street_number`, the street that number is on, echoed with its suffix); ' +
    'or `street_1` with `city` gives the postal codes. No match is an empty list; a missing `country_code`, a country outside the table, ' +
    'or neither a postal code nor street and city is 422 naming each missing attribute.',
  tag: 'Addresses',
  auth: { anyOf: ['addresses.suggest'] },
  body: suggestRequest,
  bodyFormat: 'json',
  maxBodyBytes: 16 * 1024,
  produces: ['application/json'],
  responses: {
    200: {
      description: 'The suggestions, at most 10.',
      schema: z.object({ data: z.array(suggestion) }).meta({ id: 'AddressSuggestions' }),
      contentTypes: ['application/json'],
    },
    422: { description: 'An attribute the lookup needs is missing, or the country has no table (10008).', schema: errorDocument },
  },
  handler: (_ctx, { body }) => plainJson({ data: suggestAddresses(addressTable, body.data) }),
});
