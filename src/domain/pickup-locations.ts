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

/*
 * Pick-up/drop-off locations ("PUDO points"), generated rather than stored: the same carrier,
 * country and postal code always give the same list, so a code seen in one answer can be checked
 * later (`findPickupLocation`). Pure: no store, no clock, no randomness beyond the seeded faker.
 */

export * from './pickup-location-types.js';
import type { LocationCategory, LocationFeature, LocationFilter, LocationType, NearTo, OpeningHours, PickupLocation, Weekday } from './pickup-location-types.js';
import { normalizePostalCode, weekdays } from './pickup-location-types.js';

// ---------------------------------------------------------------------------------------------
// Geography: a handful of real cities per country, so positions, city names and postal codes fit.

type City = readonly [name: string, latitude: number, longitude: number, key?: string];
type Language = 'nl' | 'de' | 'en' | 'fr' | 'other';

interface Country {
  locale: LocaleDefinition;
  language: Language;
  /**
   * How a postal code picks its city: `range` compares the leading digits with each city's key
   * (the city with the greatest key not above them); `area` matches GB-style leading letters;
   * otherwise a hash of the postal code picks one.
   */
  match?: 'range' | 'area';
  cities: readonly City[];
}

const countries: Record<string, Country> = {
  NL: {
    locale: nl,
    language: 'nl',
    match: 'range',
    cities: [
      ['Amsterdam', 52.3728, 4.8936, '10'],
      ['Hilversum', 52.2292, 5.1669, '12'],
      ['Alkmaar', 52.6324, 4.7534, '18'],
      ['Haarlem', 52.3874, 4.6462, '20'],
      ['Leiden', 52.1601, 4.497, '23'],
      ['Den Haag', 52.0705, 4.3007, '25'],
      ['Delft', 52.0116, 4.3571, '26'],
      ['Rotterdam', 51.9244, 4.4777, '30'],
      ['Dordrecht', 51.8133, 4.6901, '33'],
      ['Utrecht', 52.0907, 5.1214, '35'],
      ['Amersfoort', 52.1561, 5.3878, '38'],
      ['Middelburg', 51.4988, 3.6109, '43'],
      ['Breda', 51.5719, 4.7683, '48'],
      ['Tilburg', 51.5555, 5.0913, '50'],
      ["'s-Hertogenbosch", 51.6978, 5.3037, '52'],
      ['Eindhoven', 51.4416, 5.4697, '56'],
      ['Venlo', 51.3704, 6.1724, '59'],
      ['Maastricht', 50.8514, 5.691, '62'],
      ['Nijmegen', 51.8126, 5.8372, '65'],
      ['Arnhem', 51.9851, 5.8987, '68'],
      ['Apeldoorn', 52.2112, 5.9699, '73'],
      ['Enschede', 52.2215, 6.8937, '75'],
      ['Zwolle', 52.5168, 6.083, '80'],
      ['Leeuwarden', 53.2012, 5.7999, '89'],
      ['Groningen', 53.2194, 6.5665, '97'],
    ],
  },
  BE: {
    locale: nl_BE,
    language: 'nl',
    match: 'range',
    cities: [
      ['Brussel', 50.8503, 4.3517, '10'],
      ['Antwerpen', 51.2194, 4.4025, '20'],
      ['Leuven', 50.8798, 4.7005, '30'],
      ['Liège', 50.6326, 5.5797, '40'],
      ['Namur', 50.4674, 4.872, '50'],
      ['Charleroi', 50.4108, 4.4446, '60'],
      ['Mons', 50.4542, 3.9523, '70'],
      ['Brugge', 51.2093, 3.2247, '80'],
      ['Gent', 51.0543, 3.7174, '90'],
    ],
  },
  LU: { locale: fr_LU, language: 'fr', cities: [['Luxembourg', 49.6116, 6.1319], ['Esch-sur-Alzette', 49.4958, 5.9806]] },
  DE: {
    locale: de,
    language: 'de',
    match: 'range',
    cities: [
      ['Dresden', 51.0504, 13.7373, '01'],
      ['Leipzig', 51.3397, 12.3731, '04'],
      ['Berlin', 52.52, 13.405, '10'],
      ['Rostock', 54.0924, 12.0991, '18'],
      ['Hamburg', 53.5511, 9.9937, '20'],
      ['Kiel', 54.3233, 10.1228, '24'],
      ['Bremen', 53.0793, 8.8017, '28'],
      ['Hannover', 52.3759, 9.732, '30'],
      ['Bielefeld', 52.0302, 8.5325, '33'],
      ['Kassel', 51.3127, 9.4797, '34'],
      ['Magdeburg', 52.1205, 11.6276, '39'],
      ['Düsseldorf', 51.2277, 6.7735, '40'],
      ['Dortmund', 51.5136, 7.4653, '44'],
      ['Essen', 51.4556, 7.0116, '45'],
      ['Münster', 51.9607, 7.6261, '48'],
      ['Köln', 50.9375, 6.9603, '50'],
      ['Bonn', 50.7374, 7.0982, '53'],
      ['Mainz', 49.9929, 8.2473, '55'],
      ['Frankfurt am Main', 50.1109, 8.6821, '60'],
      ['Saarbrücken', 49.2402, 6.9969, '66'],
      ['Mannheim', 49.4875, 8.466, '68'],
      ['Stuttgart', 48.7758, 9.1829, '70'],
      ['Karlsruhe', 49.0069, 8.4037, '76'],
      ['Freiburg im Breisgau', 47.999, 7.8421, '79'],
      ['München', 48.1351, 11.582, '80'],
      ['Augsburg', 48.3705, 10.8978, '86'],
      ['Ulm', 48.4011, 9.9876, '89'],
      ['Nürnberg', 49.4521, 11.0767, '90'],
      ['Regensburg', 49.0134, 12.1016, '93'],
      ['Würzburg', 49.7913, 9.9534, '97'],
      ['Erfurt', 50.9848, 11.0299, '99'],
    ],
  },
  AT: { locale: de_AT, language: 'de', cities: [['Wien', 48.2082, 16.3738], ['Graz', 47.0707, 15.4395], ['Linz', 48.3069, 14.2858], ['Salzburg', 47.8095, 13.055], ['Innsbruck', 47.2692, 11.4041]] },
  CH: { locale: de_CH, language: 'de', cities: [['Zürich', 47.3769, 8.5417], ['Basel', 47.5596, 7.5886], ['Bern', 46.948, 7.4474], ['Genève', 46.2044, 6.1432], ['Lausanne', 46.5197, 6.6323]] },
  GB: {
    locale: en_GB,
    language: 'en',
    match: 'area',
    cities: [
      ['London', 51.5074, -0.1278, 'E EC N NW SE SW W WC'],
      ['Birmingham', 52.4862, -1.8904, 'B'],
      ['Manchester', 53.4808, -2.2426, 'M'],
      ['Liverpool', 53.4084, -2.9916, 'L'],
      ['Leeds', 53.8008, -1.5491, 'LS'],
      ['Sheffield', 53.3811, -1.4701, 'S'],
      ['Bristol', 51.4545, -2.5879, 'BS'],
      ['Newcastle upon Tyne', 54.9783, -1.6178, 'NE'],
      ['Nottingham', 52.9548, -1.1581, 'NG'],
      ['Leicester', 52.6369, -1.1398, 'LE'],
      ['Oxford', 51.752, -1.2577, 'OX'],
      ['Cambridge', 52.2053, 0.1218, 'CB'],
      ['Brighton', 50.8225, -0.1372, 'BN'],
      ['Southampton', 50.9097, -1.4044, 'SO'],
      ['Cardiff', 51.4816, -3.1791, 'CF'],
      ['Glasgow', 55.8642, -4.2518, 'G'],
      ['Edinburgh', 55.9533, -3.1883, 'EH'],
      ['Aberdeen', 57.1497, -2.0943, 'AB'],
      ['Belfast', 54.5973, -5.9301, 'BT'],
    ],
  },
  IE: { locale: en_IE, language: 'en', cities: [['Dublin', 53.3498, -6.2603], ['Cork', 51.8985, -8.4756], ['Galway', 53.2707, -9.0568], ['Limerick', 52.6638, -8.6267]] },
  FR: {
    locale: fr,
    language: 'fr',
    match: 'range',
    cities: [
      ['Nice', 43.7102, 7.262, '06'],
      ['Marseille', 43.2965, 5.3698, '13'],
      ['Dijon', 47.322, 5.0415, '21'],
      ['Toulouse', 43.6047, 1.4442, '31'],
      ['Bordeaux', 44.8378, -0.5792, '33'],
      ['Montpellier', 43.6108, 3.8767, '34'],
      ['Rennes', 48.1173, -1.6778, '35'],
      ['Grenoble', 45.1885, 5.7245, '38'],
      ['Nantes', 47.2184, -1.5536, '44'],
      ['Orléans', 47.9029, 1.9093, '45'],
      ['Nancy', 48.6921, 6.1844, '54'],
      ['Lille', 50.6292, 3.0573, '59'],
      ['Strasbourg', 48.5734, 7.7521, '67'],
      ['Lyon', 45.764, 4.8357, '69'],
      ['Paris', 48.8566, 2.3522, '75'],
      ['Rouen', 49.4432, 1.0999, '76'],
    ],
  },
  ES: { locale: es, language: 'other', cities: [['Madrid', 40.4168, -3.7038], ['Barcelona', 41.3874, 2.1686], ['Valencia', 39.4699, -0.3763], ['Sevilla', 37.3891, -5.9845], ['Bilbao', 43.263, -2.935]] },
  PT: { locale: pt_PT, language: 'other', cities: [['Lisboa', 38.7223, -9.1393], ['Porto', 41.1579, -8.6291], ['Braga', 41.5454, -8.4265], ['Coimbra', 40.2033, -8.4103]] },
  IT: { locale: it, language: 'other', cities: [['Roma', 41.9028, 12.4964], ['Milano', 45.4642, 9.19], ['Napoli', 40.8518, 14.2681], ['Torino', 45.0703, 7.6869], ['Bologna', 44.4949, 11.3426], ['Firenze', 43.7696, 11.2558]] },
  PL: {
    locale: pl,
    language: 'other',
    match: 'range',
    cities: [['Warszawa', 52.2297, 21.0122, '00'], ['Kraków', 50.0647, 19.945, '30'], ['Wrocław', 51.1079, 17.0385, '50'], ['Poznań', 52.4064, 16.9252, '60'], ['Gdańsk', 54.352, 18.6466, '80']],
  },
  CZ: { locale: cs_CZ, language: 'other', cities: [['Praha', 50.0755, 14.4378], ['Brno', 49.1951, 16.6068], ['Ostrava', 49.8209, 18.2625]] },
  SK: { locale: sk, language: 'other', cities: [['Bratislava', 48.1486, 17.1077], ['Košice', 48.7164, 21.2611]] },
  HU: { locale: hu, language: 'other', cities: [['Budapest', 47.4979, 19.0402], ['Debrecen', 47.5316, 21.6273], ['Szeged', 46.253, 20.1414]] },
  SI: { locale: sl_SI, language: 'other', cities: [['Ljubljana', 46.0569, 14.5058], ['Maribor', 46.5547, 15.6459]] },
  HR: { locale: hr, language: 'other', cities: [['Zagreb', 45.815, 15.9819], ['Split', 43.5081, 16.4402], ['Rijeka', 45.3271, 14.4422]] },
  RO: { locale: ro, language: 'other', cities: [['București', 44.4268, 26.1025], ['Cluj-Napoca', 46.7712, 23.6236], ['Timișoara', 45.7489, 21.2087]] },
  GR: { locale: el, language: 'other', cities: [['Athina', 37.9838, 23.7275], ['Thessaloniki', 40.6401, 22.9444]] },
  LV: { locale: lv, language: 'other', cities: [['Rīga', 56.9496, 24.1052], ['Daugavpils', 55.8714, 26.5161]] },
  DK: { locale: da, language: 'other', cities: [['København', 55.6761, 12.5683], ['Aarhus', 56.1629, 10.2039], ['Odense', 55.4038, 10.4024]] },
  SE: { locale: sv, language: 'other', cities: [['Stockholm', 59.3293, 18.0686], ['Göteborg', 57.7089, 11.9746], ['Malmö', 55.605, 13.0038], ['Uppsala', 59.8586, 17.6389]] },
  NO: { locale: nb_NO, language: 'other', cities: [['Oslo', 59.9139, 10.7522], ['Bergen', 60.3913, 5.3221], ['Trondheim', 63.4305, 10.3951]] },
  FI: { locale: fi, language: 'other', cities: [['Helsinki', 60.1699, 24.9384], ['Tampere', 61.4978, 23.761], ['Turku', 60.4518, 22.2666]] },
  US: { locale: en_US, language: 'en', cities: [['New York', 40.7128, -74.006], ['Chicago', 41.8781, -87.6298], ['Los Angeles', 34.0522, -118.2437], ['Houston', 29.7604, -95.3698], ['Seattle', 47.6062, -122.3321]] },
  CA: { locale: en_CA, language: 'en', cities: [['Toronto', 43.6532, -79.3832], ['Montréal', 45.5017, -73.5673], ['Vancouver', 49.2827, -123.1207], ['Calgary', 51.0447, -114.0719]] },
  AU: { locale: en_AU, language: 'en', cities: [['Sydney', -33.8688, 151.2093], ['Melbourne', -37.8136, 144.9631], ['Brisbane', -27.4698, 153.0251], ['Perth', -31.9505, 115.8605]] },
};

/** The countries the sandbox has locations in; elsewhere a search finds none. */
export const pickupCountries: readonly string[] = Object.keys(countries);

// ---------------------------------------------------------------------------------------------
// Carriers: which kinds of locations each runs, and what they are called.

type Mix = readonly (readonly [LocationType, number])[];

const carrierMix: Record<string, Mix> = {
  postnl: [['office-shop', 60], ['locker', 25], ['office-postal', 15]],
  dpd: [['office-shop', 70], ['locker', 30]],
  'dhl-express': [['office-shop', 45], ['locker', 25], ['office', 15], ['office-agency', 15]],
  'royal-mail': [['office-postal', 60], ['office-shop', 25], ['locker', 15]],
  bpost: [['office-postal', 30], ['office-agency', 30], ['office-shop', 20], ['locker', 20]],
  evri: [['office-shop', 75], ['locker', 25]],
};
const defaultMix: Mix = [['office-shop', 50], ['locker', 25], ['office-agency', 15], ['office', 10]];

const brands: Record<string, string> = {
  postnl: 'PostNL',
  dpd: 'DPD',
  'dhl-express': 'DHL',
  'royal-mail': 'Royal Mail',
  bpost: 'bpost',
  evri: 'Evri',
};

const brandOf = (carrierCode: string): string =>
  brands[carrierCode] ?? carrierCode.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');

/** Words for the location names, per language; `{last}` is a family name, `{street}` the street. */
const words: Record<Language, { shops: readonly string[]; locker: string; postal: string; agency: string; office: string }> = {
  nl: {
    shops: ['Tabakszaak {last}', 'Boekhandel {last}', 'Supermarkt {last}', 'Drogisterij {last}', 'Kantoorboekhandel {last}', 'Bloemenhuis {last}', 'Buurtwinkel {last}'],
    locker: 'Pakketautomaat',
    postal: 'Postkantoor',
    agency: 'Servicepunt',
    office: 'Depot',
  },
  de: {
    shops: ['Kiosk {last}', 'Schreibwaren {last}', 'Lotto-Toto {last}', 'Getränkemarkt {last}', 'Reinigung {last}', 'Blumen {last}', 'Tabakwaren {last}'],
    locker: 'Paketstation',
    postal: 'Postfiliale',
    agency: 'Partnerfiliale',
    office: 'Depot',
  },
  en: {
    shops: ['{last} News', '{last} Convenience Store', '{last} Newsagents', '{last} Pharmacy', '{last} Dry Cleaners', '{last} Off Licence', '{street} Stores'],
    locker: 'Parcel Locker',
    postal: 'Post Office',
    agency: 'Agency',
    office: 'Depot',
  },
  fr: {
    shops: ['Tabac Presse {last}', 'Librairie {last}', 'Épicerie {last}', 'Pressing {last}', 'Fleuriste {last}', 'Supérette {last}'],
    locker: 'Consigne',
    postal: 'Bureau de Poste',
    agency: 'Point Relais',
    office: 'Agence',
  },
  other: {
    shops: ['{company}'],
    locker: 'Locker',
    postal: 'Post Office',
    agency: 'Service Point',
    office: 'Depot',
  },
};

// ---------------------------------------------------------------------------------------------
// Generation.

const DAY_FULL: readonly OpeningHours[] = weekdays.map((day) => ({ day, open: '00:00', closed: '23:59' }));

/** A 32-bit seed from the search, so the same search always gives the same faker draws. */
function seedOf(...parts: string[]): number {
  return createHash('sha256').update(parts.join('|')).digest().readUInt32BE(0);
}

/**
 * How a postal code is written on the locations' addresses: its usual notation in the country,
 * from its normalized form, so the answer does not depend on how the search wrote it.
 */
function displayPostalCode(countryCode: string, normalized: string): string {
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

function cityFor(country: Country, postalCode: string, pick: number): City {
  const code = normalizePostalCode(postalCode);
  if (country.match === 'range') {
    const digits = code.replace(/\D/g, '');
    let found: City | undefined;
    for (const city of country.cities) {
      const key = city[3]!;
      if (digits.slice(0, key.length) >= key) found = city;
    }
    if (found && /^\d/.test(digits)) return found;
  }
  if (country.match === 'area') {
    const area = /^[A-Z]+/.exec(code)?.[0];
    const city = country.cities.find((candidate) => candidate[3]!.split(' ').includes(area ?? ''));
    if (city) return city;
  }
  return country.cities[pick % country.cities.length]!;
}

const sameName = (a: string, b: string): boolean =>
  a.localeCompare(b, undefined, { sensitivity: 'base' }) === 0;

/** A postal code near `postalCode`: same area, small changes in the last part, same notation. */
function nearbyPostalCode(faker: Faker, countryCode: string, postalCode: string): string {
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
      return weighted(faker, [[both, 80], [['pick-up'], 20]] as const).slice();
    case 'office-agency':
      return weighted(faker, [[both, 70], [['drop-off'], 30]] as const).slice();
    default:
      return weighted(faker, [[both, 70], [['drop-off'], 15], [['pick-up'], 15]] as const).slice();
  }
}

const printChance: Record<LocationType, number> = { locker: 0, office: 0.6, 'office-agency': 0.2, 'office-postal': 0.7, 'office-shop': 0.4 };

function companyName(faker: Faker, language: Language, brand: string, type: LocationType, street: string, city: string): string {
  const w = words[language];
  const fill = (template: string) =>
    template.replace('{last}', faker.person.lastName()).replace('{street}', street).replace('{company}', faker.company.name());
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
function offset(latitude: number, longitude: number, metres: number, bearing: number) {
  const dLat = (metres * Math.cos(bearing)) / 111_320;
  const dLon = (metres * Math.sin(bearing)) / (111_320 * Math.cos((latitude * Math.PI) / 180));
  return { latitude: round(latitude + dLat), longitude: round(longitude + dLon) };
}

const round = (value: number): number => Math.round(value * 1e6) / 1e6;

/**
 * The locations of `carrierCode` around `postalCode` in `countryCode`: 5 to 10 of them, nearest
 * first. Countries the sandbox has no geography for have none. `near` only renames: the nearest
 * location moves to the given street, and every address takes the given city (and its position,
 * when it is one of the sandbox's cities).
 */
export function pickupLocations(carrierCode: string, countryCode: string, postalCode: string, near: NearTo = {}): PickupLocation[] {
  const country = countries[countryCode.toUpperCase()];
  if (!country) return [];
  const shown = displayPostalCode(countryCode.toUpperCase(), normalizePostalCode(postalCode.trim()));
  const faker = new Faker({ locale: [country.locale, en, base] });
  faker.seed(seedOf(carrierCode, countryCode.toUpperCase(), normalizePostalCode(postalCode)));

  const home = cityFor(country, postalCode, faker.number.int({ min: 0, max: 1_000_000 }));
  // The searched postal code lies somewhere in its city, up to a few kilometres from the centre.
  const centre = offset(home[1], home[2], faker.number.int({ min: 0, max: 2500 }), faker.number.float({ min: 0, max: 2 * Math.PI }));
  const count = faker.number.int({ min: 5, max: 10 });
  const distances = Array.from({ length: count }, () => faker.number.int({ min: 60, max: 3500 })).sort((a, b) => a - b);
  const mix = carrierMix[carrierCode] ?? defaultMix;
  const brand = brandOf(carrierCode);
  const codes = new Set<string>();

  const locations = distances.map((distance): PickupLocation => {
    const type = weighted(faker, mix);
    let code: string;
    do code = faker.string.numeric({ length: 6, allowLeadingZeros: false });
    while (codes.has(code));
    codes.add(code);
    const street = faker.location.street();
    const number = faker.number.int({ min: 1, max: 250 });
    // The nearest locations share the searched postal code; the others lie in neighbouring ones.
    const postal = distance < 400 ? shown : nearbyPostalCode(faker, countryCode.toUpperCase(), shown);
    const categories = categoriesOf(faker, type);
    const features: LocationFeature[] = faker.datatype.boolean({ probability: printChance[type] }) ? ['print-label-in-store'] : [];
    const company = companyName(faker, country.language, brand, type, street, home[0]);
    const opening_hours = openingHours(faker, type);
    const position = offset(centre.latitude, centre.longitude, distance, faker.number.float({ min: 0, max: 2 * Math.PI }));
    return {
      code,
      address: { company, street_1: street, street_number: number, postal_code: postal, city: home[0], country_code: countryCode.toUpperCase() },
      location_type: type,
      categories,
      features,
      opening_hours,
      position,
      distance,
    };
  });
  return shiftTowards(locations, country, home, near);
}

/** Applies the `street`, `street_number` and `city` hints of a search without drawing from the faker. */
function shiftTowards(locations: PickupLocation[], country: Country, home: City, near: NearTo): PickupLocation[] {
  const city = near.city?.trim();
  const street = near.street?.trim();
  const known = city ? country.cities.find((candidate) => sameName(candidate[0], city)) : undefined;
  return locations.map((location, index) => {
    const address = { ...location.address };
    let { position } = location;
    if (city) {
      address.city = known?.[0] ?? city;
      if (known && known !== home) {
        const dLat = known[1] - home[1];
        const dLon = known[2] - home[2];
        position = { latitude: round(position.latitude + dLat), longitude: round(position.longitude + dLon) };
      }
      if (address.company.includes(home[0])) address.company = address.company.replace(home[0], address.city);
    }
    if (street && index === 0) {
      address.company = address.company.replace(location.address.street_1, street);
      address.street_1 = street;
      if (near.street_number !== undefined) {
        // A few doors away from the given number, on the same side of the street.
        const step = 2 * ((Number(location.code) % 5) + 1);
        address.street_number = near.street_number > step ? near.street_number - step : near.street_number + step;
      }
    }
    return Object.assign({}, location, { address, position });
  });
}

/** The locations that pass every part of `filter`. */
export function filterLocations(locations: readonly PickupLocation[], filter: LocationFilter): PickupLocation[] {
  return locations.filter(
    (location) =>
      (filter.categories ?? []).every((category) => location.categories.includes(category)) &&
      (filter.features ?? []).every((feature) => location.features.includes(feature)) &&
      (!filter.location_types?.length || filter.location_types.includes(location.location_type)),
  );
}

/**
 * The location with `code` among those of a search for `postalCode` (any notation: `1012AB` and
 * `1012 ab` are the same search), or `undefined`. For checking a shipment's `pickup_location.code`.
 */
export function findPickupLocation(carrierCode: string, countryCode: string, postalCode: string, code: string): PickupLocation | undefined {
  return pickupLocations(carrierCode, countryCode, postalCode).find((location) => location.code === code);
}
