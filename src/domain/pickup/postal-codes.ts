/*
 * Postal codes of the generated pick-up/drop-off locations: how a country writes them, which city
 * a searched one lies in, the codes around it, and a code in a given city (coordinate searches).
 */

import type { Faker } from '@faker-js/faker';
import type { City, CountryMap } from './cities.js';
import { normalizePostalCode } from './location-types.js';

/**
 * How a postal code is written on the locations' addresses: its usual notation in the country,
 * from its normalized form, so the answer does not depend on how the search wrote it.
 */
export function displayPostalCode(countryCode: string, normalized: string): string {
  const patterns: Record<string, RegExp> = {
    NL: /^(\d{4})([A-Z]{2})$/,
    GB: /^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})$/,
    CA: /^([A-Z]\d[A-Z])(\d[A-Z]\d)$/,
    IE: /^([A-Z]\d[\dW])([A-Z\d]{4})$/,
    SE: /^(\d{3})(\d{2})$/,
    CZ: /^(\d{3})(\d{2})$/,
    SK: /^(\d{3})(\d{2})$/,
    GR: /^(\d{3})(\d{2})$/,
  };
  const match = patterns[countryCode]?.exec(normalized);
  return match ? `${match[1]} ${match[2]}` : normalized;
}

export function cityFor(country: CountryMap, postalCode: string, pick: number): City {
  const code = normalizePostalCode(postalCode);
  if (country.match === 'range') {
    const digits = code.replace(/\D/g, '');
    let found: City | undefined;
    for (const city of country.cities) {
      const key = city[3];
      if (digits.slice(0, key.length) >= key) found = city;
    }
    if (found && /^\d/.test(digits)) return found;
  }
  if (country.match === 'area') {
    const area = /^[A-Z]+/.exec(code)?.[0];
    const city = country.cities.find((candidate) => candidate[3].split(' ').includes(area ?? ''));
    if (city) return city;
  }
  return country.cities[pick % country.cities.length]!;
}

/** A postal code near `postalCode`: same area, small changes in the last part, same notation. */
export function nearbyPostalCode(faker: Faker, countryCode: string, postalCode: string): string {
  const trimmed = postalCode.trim();
  const nl = /^(\d{4})(\s*)([A-Za-z]{2})$/.exec(trimmed);
  if (countryCode === 'NL' && nl) {
    const digits = Math.min(9999, Math.max(1000, Number(nl[1]) + faker.number.int({ min: -2, max: 2 })));
    const letters = faker.helpers.arrayElements('ABCEGHJKLMNPRSTVWXZ'.split(''), 2).join('');
    return `${digits}${nl[2]}${letters}`;
  }
  const gb = /^([A-Za-z]{1,2}\d[A-Za-z\d]?)\s*(\d[A-Za-z]{2})$/.exec(trimmed);
  if (countryCode === 'GB' && gb) {
    const inward = `${faker.number.int({ min: 0, max: 9 })}${faker.helpers.arrayElements('ABDEFGHJLNPQRSTUWXYZ'.split(''), 2).join('')}`;
    return `${gb[1]!.toUpperCase()} ${inward}`;
  }
  const ca = /^([A-Za-z]\d[A-Za-z])\s*(\d[A-Za-z]\d)$/.exec(trimmed);
  if (countryCode === 'CA' && ca) {
    const letter = faker.helpers.arrayElement('ABCEGHJKLMNPRSTVWXYZ'.split(''));
    return `${ca[1]!.toUpperCase()} ${faker.number.int({ min: 0, max: 9 })}${letter}${faker.number.int({ min: 0, max: 9 })}`;
  }
  // Otherwise nudge the last run of digits (`80331` -> `80335`, `00-950` -> `00-954`).
  const match = /(\d+)(\D*)$/.exec(trimmed);
  if (!match) return trimmed.toUpperCase();
  const width = match[1]!.length;
  const spread = width >= 5 ? 25 : width >= 3 ? 6 : 2;
  // Codes of four or more digits stay in the block of their first two digits (`9000` never becomes `8999`).
  const block = width >= 4 ? 10 ** (width - 2) : 10 ** width;
  const current = Number(match[1]);
  const low = Math.floor(current / block) * block;
  const value = Math.min(low + block - 1, Math.max(low, current + faker.number.int({ min: -spread, max: spread })));
  return (trimmed.slice(0, match.index) + String(value).padStart(width, '0') + match[2]).toUpperCase();
}

const LETTERS = 'ABCEGHJKLMNPRSTVWXZ';

/**
 * A postal code in `city`, in the country's notation (`map.postal`) and starting with the city's
 * key (one of its areas, for `area` countries); for a postal search it would find that city again.
 */
export function postalCodeIn(faker: Faker, countryCode: string, map: CountryMap, city: City): string {
  const prefix = map.match === 'area' ? faker.helpers.arrayElement(city[3].split(' ')) : city[3];
  const filled = map.postal
    .split('')
    .map((char, index) => {
      if (index < prefix.length) return prefix[index]!;
      if (char === '#' || char === '%') return String(faker.number.int({ min: char === '%' ? 1 : 0, max: 9 }));
      if (char === '@') return faker.helpers.arrayElement(LETTERS.split(''));
      return char;
    })
    .join('');
  return displayPostalCode(countryCode, normalizePostalCode(filled));
}
