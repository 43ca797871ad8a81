import { createRequire } from 'node:module';
import { z } from 'zod';
import { CURRENCIES } from './currencies.js';

/** Lower-case UUID, the id format of every resource except pickup-dropoff locations. */
export const uuid = z.string().regex(/^[a-f\d]{8}(-[a-f\d]{4}){3}-[a-f\d]{12}$/, 'must be a lower-case UUID');

/** The last second a date can name here, 9999-12-31T23:59:59Z: the sandbox clocks stop there too. */
export const LATEST_SECONDS = 253402300799;

/**
 * An optional request member that also takes `null`, as production's schemas let many be: the
 * null means the member was left out (`withoutNulls` drops it before a row is written).
 */
export function orNull<T extends z.ZodType>(member: z.ZodOptional<T>): z.ZodOptional<z.ZodNullable<T>> {
  const schema = member.unwrap().nullable().optional();
  return member.description === undefined ? schema : schema.describe(member.description);
}

/** `value` without its `null` members, at every level of its objects (lists are kept as they are). */
export function withoutNulls<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([name, member]) => [name, withoutNulls(member)]),
  ) as T;
}

/** Integer Unix seconds, up to LATEST_SECONDS. */
export const timestamp = z.number().int().nonnegative().max(LATEST_SECONDS, `must be Unix seconds up to ${LATEST_SECONDS} (9999-12-31T23:59:59Z)`);

// The code table alone: the package's entry point also loads every locale's country names (~80
// modules, a tenth of the start-up time), which the sandbox never shows.
const alpha2 = new Set((createRequire(import.meta.url)('i18n-iso-countries/codes.json') as string[][]).map(([code]) => code));

/** ISO 3166-1 alpha-2 code that really names a country (not just two letters); one error per mistake. */
export const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be a 2-letter upper-case ISO 3166-1 country code')
  .refine((code) => !/^[A-Z]{2}$/.test(code) || alpha2.has(code), 'is not an ISO 3166-1 country code');

/**
 * An e-mail address as production takes one: its Email pattern (any of RFC 5322's atom characters
 * before the @, such as `&`, `/` or `{`, which zod's own e-mail check refuses) within what a
 * `format: email` check needs besides (no dot at either end or twice in a row, a dotted domain
 * whose last label starts with a letter, no label starting or ending with a hyphen).
 */
const EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
export const emailAddress = () => z.email({ pattern: EMAIL });

/** Production's weight units (a shipment item's `item_weight_unit`, a return's weights). */
export const weightUnits = ['mg', 'g', 'kg', 'oz', 'lb'] as const;
export type WeightUnit = (typeof weightUnits)[number];

const GRAMS_PER: Record<WeightUnit, number> = { mg: 0.001, g: 1, kg: 1000, oz: 28.349523125, lb: 453.59237 };

/** An amount of `unit` in grams, unrounded. */
export const inGrams = (amount: number, unit: WeightUnit): number => amount * GRAMS_PER[unit];

/** Production's currencies (ISO 4217); the spec names EUR and GBP, production's contract all of these. */
export const currency = z.enum(CURRENCIES, {
  // Listing all 179 codes made a 400 detail of ~1,200 characters.
  error: (issue) => (issue.input === undefined ? undefined : `must be an ISO 4217 currency code (such as 'EUR' or 'GBP'), not ${JSON.stringify(issue.input)}`),
});

/** Money in integer cents with an ISO 4217 currency. Closed, as production's Price and BasePrice are: an unknown member is a 400. */
export const price = z
  .strictObject({
    amount: z.number().int(),
    // Production's Currency enum: three capitals alone let 'XYZ' be stored and answered, outside production's shape.
    currency,
  })
  .meta({ id: 'Price' });
export type Price = z.infer<typeof price>;

const text = z.string().max(255);

/**
 * Address with every field optional; each context (shop, shipment, pickup location) states
 * which fields it requires with `requireFields`.
 */
export const address = z
  .object({
    street_1: text,
    street_2: text.optional(),
    street_number: z.number().int().min(1).max(2147483647).optional(),
    street_number_suffix: text.optional(),
    postal_code: z.string().max(20).optional(),
    city: text,
    state_code: z
      .string()
      .regex(/^[A-Z0-9]{1,3}$/, 'must be a 1 to 3 character ISO 3166-2 subdivision code')
      .optional(),
    country_code: countryCode,
    first_name: text.optional(),
    last_name: text.optional(),
    company: text.optional(),
    email: emailAddress().optional(),
    phone_number: z.string().max(50).optional(),
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof address>;

/** Address of a recipient: a person must be named. */
export const personAddress = address.extend({ first_name: text, last_name: text }).meta({ id: 'RecipientAddress' });

export type Identifier = { type: string; id: string };

/** Closed, as production's TaxIdentificationNumber is: an unknown member is a 400, not dropped. */
export const taxIdentificationNumber = z
  .strictObject({
    type: z.enum(['vat', 'ioss', 'eori', 'gst', 'ukims']),
    country_code: countryCode,
    number: z.string().min(1).max(64),
    // Null as production's schema lets it be (and answers it): kept as sent.
    description: z.string().max(255).nullable().optional(),
  })
  .meta({ id: 'TaxIdentificationNumber' });
export type TaxIdentificationNumber = z.infer<typeof taxIdentificationNumber>;
