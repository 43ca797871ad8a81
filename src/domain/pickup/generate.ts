/*
 * The generator of pick-up/drop-off locations: the seeded faker of a search, and the locations
 * around a centre point. The searches (pickup-locations.ts by postal code, pickup-near.ts by
 * coordinates) decide the city, the centre and the searched postal code; this draws the rest.
 */

import { createHash } from 'node:crypto';
import {
  Faker,
  base,
  cs_CZ,
  da,
  de,
  de_AT,
  de_CH,
  el,
  en,
  en_AU,
  en_CA,
  en_GB,
  en_IE,
  en_US,
  es,
  fi,
  fr,
  fr_LU,
  hr,
  hu,
  it,
  lv,
  nb_NO,
  nl,
  nl_BE,
  pl,
  pt_PT,
  ro,
  sk,
  sl_SI,
  sv,
  type LocaleDefinition,
} from '@faker-js/faker';

import type { City, CountryMap, Language } from './cities.js';
import { brandOf, mixOf, words } from './carriers.js';
import type { LocationCategory, LocationFeature, LocationType, OpeningHours, PickupLocation, Weekday } from './location-types.js';
import { weekdays } from './location-types.js';
import { nearbyPostalCode } from './postal-codes.js';

const locales: Record<string, LocaleDefinition> = {
  NL: nl,
  BE: nl_BE,
  LU: fr_LU,
  DE: de,
  AT: de_AT,
  CH: de_CH,
  GB: en_GB,
  IE: en_IE,
  FR: fr,
  ES: es,
  PT: pt_PT,
  IT: it,
  PL: pl,
  CZ: cs_CZ,
  SK: sk,
  HU: hu,
  SI: sl_SI,
  HR: hr,
  RO: ro,
  GR: el,
  LV: lv,
  DK: da,
  SE: sv,
  NO: nb_NO,
  FI: fi,
  US: en_US,
  CA: en_CA,
  AU: en_AU,
};

/** A faker in the country's language, seeded from the search: the same search, the same draws. */
export function searchFaker(countryCode: string, ...search: string[]): Faker {
  const faker = new Faker({ locale: [locales[countryCode] ?? en, en, base] });
  faker.seed(createHash('sha256').update(search.join('|')).digest().readUInt32BE(0));
  return faker;
}

const DAY_FULL: readonly OpeningHours[] = weekdays.map((day) => ({ day, open: '00:00', closed: '23:59' }));

function weighted<T>(faker: Faker, mix: readonly (readonly [T, number])[]): T {
  return faker.helpers.weightedArrayElement(mix.map(([value, weight]) => ({ value, weight })));
}

const time = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function openingHours(faker: Faker, type: LocationType): OpeningHours[] {
  if (type === 'locker') return DAY_FULL.map((entry) => ({ ...entry }));
  const at = (hour: number, minute = 0) => hour * 60 + minute;
  const hours: OpeningHours[] = [];
  const add = (day: Weekday, open: number, closed: number) => hours.push({ day, open: time(open), closed: time(closed) });
  const workdays = weekdays.slice(0, 5);
  switch (type) {
    case 'office-postal': {
      const open = faker.helpers.arrayElement([at(8, 30), at(9)]);
      const closed = faker.helpers.arrayElement([at(17), at(17, 30), at(18)]);
      for (const day of workdays) add(day, open, closed);
      add('Saturday', at(9), faker.helpers.arrayElement([at(12, 30), at(13)]));
      break;
    }
    case 'office-agency': {
      const lunch = faker.datatype.boolean();
      for (const day of workdays) {
        if (lunch) {
          add(day, at(9), at(12, 30));
          add(day, at(13, 30), at(17, 30));
        } else add(day, at(9), at(17, 30));
      }
      if (faker.datatype.boolean()) add('Saturday', at(10), at(16));
      break;
    }
    case 'office': {
      for (const day of workdays) add(day, at(8), at(18));
      if (faker.datatype.boolean()) add('Saturday', at(9), at(13));
      break;
    }
    default: {
      const open = faker.helpers.arrayElement([at(7), at(8), at(8, 30), at(9)]);
      const closed = faker.helpers.arrayElement([at(18), at(19), at(20), at(21), at(22)]);
      for (const day of weekdays.slice(0, 6)) add(day, open, day === 'Saturday' ? Math.min(closed, at(18)) : closed);
      if (faker.datatype.boolean({ probability: 0.4 })) add('Sunday', faker.helpers.arrayElement([at(10), at(12)]), at(17));
    }
  }
  return hours;
}

function categoriesOf(faker: Faker, type: LocationType): LocationCategory[] {
  const both: LocationCategory[] = ['pick-up', 'drop-off'];
  switch (type) {
    case 'office-postal':
    case 'office':
      return both;
    case 'locker':
      return weighted(faker, [
        [both, 80],
        [['pick-up'], 20],
      ] as const).slice();
    case 'office-agency':
      return weighted(faker, [
        [both, 70],
        [['drop-off'], 30],
      ] as const).slice();
    default:
      return weighted(faker, [
        [both, 70],
        [['drop-off'], 15],
        [['pick-up'], 15],
      ] as const).slice();
  }
}

const printChance: Record<LocationType, number> = { locker: 0, office: 0.6, 'office-agency': 0.2, 'office-postal': 0.7, 'office-shop': 0.4 };

function companyName(faker: Faker, language: Language, brand: string, type: LocationType, street: string, city: string): string {
  const w = words[language];
  const fill = (template: string) => template.replace('{last}', faker.person.lastName()).replace('{street}', street).replace('{company}', faker.company.name());
  switch (type) {
    case 'locker':
      return `${brand} ${w.locker} ${street}`;
    case 'office-postal':
      return language === 'en' ? `${street} ${w.postal}` : `${w.postal} ${city} ${street}`;
    case 'office-agency':
      return `${brand} ${w.agency} ${fill('{last}')}`;
    case 'office':
      return `${brand} ${w.office} ${city}`;
    default:
      return fill(faker.helpers.arrayElement(w.shops));
  }
}

/** Moves `metres` from a point in the direction `bearing` (radians). */
export function offset(latitude: number, longitude: number, metres: number, bearing: number) {
  const dLat = (metres * Math.cos(bearing)) / 111_320;
  const dLon = (metres * Math.sin(bearing)) / (111_320 * Math.cos((latitude * Math.PI) / 180));
  return { latitude: round(latitude + dLat), longitude: round(longitude + dLon) };
}

export const round = (value: number): number => Math.round(value * 1e6) / 1e6;

/** Where the locations of a search lie and what they are called. */
export interface Surroundings {
  carrierCode: string;
  countryCode: string;
  map: CountryMap;
  /** The city every address names. */
  city: City;
  /** The searched point: distances are measured from it, positions placed around it. */
  centre: { latitude: number; longitude: number };
  /** The searched postal code in the country's notation; the nearest locations share it. */
  postalCode: string;
}

/** 5 to 10 locations of the carrier around `centre`, nearest first, drawn from `faker`. */
export function generateLocations(faker: Faker, at: Surroundings): PickupLocation[] {
  const { countryCode, centre, postalCode } = at;
  const count = faker.number.int({ min: 5, max: 10 });
  const distances = Array.from({ length: count }, () => faker.number.int({ min: 60, max: 3500 })).sort((a, b) => a - b);
  const mix = mixOf(at.carrierCode);
  const brand = brandOf(at.carrierCode);
  const codes = new Set<string>();

  return distances.map((distance): PickupLocation => {
    const type = weighted(faker, mix);
    let code: string;
    do code = faker.string.numeric({ length: 6, allowLeadingZeros: false });
    while (codes.has(code));
    codes.add(code);
    const street = faker.location.street();
    const number = faker.number.int({ min: 1, max: 250 });
    // The nearest locations share the searched postal code; the others lie in neighbouring ones.
    const postal = distance < 400 ? postalCode : nearbyPostalCode(faker, countryCode, postalCode);
    const categories = categoriesOf(faker, type);
    const features: LocationFeature[] = faker.datatype.boolean({ probability: printChance[type] }) ? ['print-label-in-store'] : [];
    const company = companyName(faker, at.map.language, brand, type, street, at.city[0]);
    const opening_hours = openingHours(faker, type);
    const position = offset(centre.latitude, centre.longitude, distance, faker.number.float({ min: 0, max: 2 * Math.PI }));
    return {
      code,
      address: { company, street_1: street, street_number: number, postal_code: postal, city: at.city[0], country_code: countryCode },
      location_type: type,
      categories,
      features,
      opening_hours,
      position,
      distance,
    };
  });
}
