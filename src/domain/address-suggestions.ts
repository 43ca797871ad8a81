import type { AddressTable, StreetEntry } from '../model/reference.js';
import { DomainError, type Problem } from './errors.js';

/** What a form has typed so far. */
export interface AddressQuery {
  country_code?: string;
  postal_code?: string;
  street_number?: number;
  street_number_suffix?: string;
  city?: string;
  street_1?: string;
}

/** A complete address the partial input fits. */
export interface AddressSuggestion {
  country_code: string;
  postal_code: string;
  street_1: string;
  city: string;
  street_number?: number;
  street_number_suffix?: string;
}

/** At most this many suggestions are answered. */
const MAX_SUGGESTIONS = 10;

/** Lower case, without accents or spaces: `Mönckebergstraße ` and `monckebergstrasse` compare alike. */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/\s+/g, '')
    .toLowerCase();

function fits(entry: StreetEntry, query: AddressQuery): boolean {
  const [postalCode, street, city, first, last] = entry;
  return (
    (query.postal_code === undefined || fold(postalCode) === fold(query.postal_code)) &&
    (query.street_1 === undefined || fold(street).includes(fold(query.street_1))) &&
    (query.city === undefined || fold(city).includes(fold(query.city))) &&
    (query.street_number === undefined || (first <= query.street_number && query.street_number <= last))
  );
}

/**
 * Suggestions from the seeded address table: every street of the country that fits the input,
 * in table order. A postal code (with a house number, to pick the street it is on) or a street
 * with its city is needed; without it, or for a country the table does not hold, 422 names what
 * is missing. No match is an empty list, as in production.
 */
export function suggestAddresses(table: AddressTable, query: AddressQuery): AddressSuggestion[] {
  const problems: Problem[] = [];
  if (!query.country_code) problems.push({ detail: 'country_code is required.', field: { input: 'country_code' } });
  else if (!table[query.country_code]) {
    const countries = Object.keys(table).join(', ');
    problems.push({ detail: `Addresses are suggested in ${countries}; not in ${query.country_code}.`, field: { input: 'country_code' } });
  }
  if (query.postal_code === undefined) {
    // Looked up by street once either street_1 or city is sent; by postal code otherwise.
    const byStreet = query.street_1 !== undefined || query.city !== undefined;
    const missing = byStreet ? (['street_1', 'city'] as const).filter((field) => query[field] === undefined) : ['postal_code'];
    for (const field of missing) {
      problems.push({ detail: `${field} is required: send a postal_code (with street_number), or street_1 with city.`, field: { input: field } });
    }
  }
  if (problems.length > 0) throw new DomainError('unprocessable', problems);
  const entries = table[query.country_code!]!.filter((entry) => fits(entry, query));
  return entries.slice(0, MAX_SUGGESTIONS).map(([postalCode, street, city]) => ({
    country_code: query.country_code!,
    postal_code: postalCode,
    street_1: street,
    city,
    ...(query.street_number !== undefined ? { street_number: query.street_number } : {}),
    ...(query.street_number !== undefined && query.street_number_suffix ? { street_number_suffix: query.street_number_suffix } : {}),
  }));
}
