/*
 * Carriers of the generated pick-up/drop-off locations: which kinds of locations each runs, and
 * what they are called. Plain data beside the generator (pickup-generate.ts).
 */

import type { Language } from './cities.js';
import type { LocationType } from './location-types.js';

export type Mix = readonly (readonly [LocationType, number])[];

const carrierMix: Record<string, Mix> = {
  postnl: [
    ['office-shop', 60],
    ['locker', 25],
    ['office-postal', 15],
  ],
  dpd: [
    ['office-shop', 70],
    ['locker', 30],
  ],
  'dhl-express': [
    ['office-shop', 45],
    ['locker', 25],
    ['office', 15],
    ['office-agency', 15],
  ],
  'royal-mail': [
    ['office-postal', 60],
    ['office-shop', 25],
    ['locker', 15],
  ],
  bpost: [
    ['office-postal', 30],
    ['office-agency', 30],
    ['office-shop', 20],
    ['locker', 20],
  ],
  evri: [
    ['office-shop', 75],
    ['locker', 25],
  ],
};
const defaultMix: Mix = [
  ['office-shop', 50],
  ['locker', 25],
  ['office-agency', 15],
  ['office', 10],
];

/** The kinds of locations a carrier runs, with their weights. */
export const mixOf = (carrierCode: string): Mix => carrierMix[carrierCode] ?? defaultMix;

const brands: Record<string, string> = {
  postnl: 'PostNL',
  dpd: 'DPD',
  'dhl-express': 'DHL',
  'royal-mail': 'Royal Mail',
  bpost: 'bpost',
  evri: 'Evri',
};

export const brandOf = (carrierCode: string): string =>
  brands[carrierCode] ??
  carrierCode
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/** Words for the location names, per language; `{last}` is a family name, `{street}` the street. */
export const words: Record<Language, { shops: readonly string[]; locker: string; postal: string; agency: string; office: string }> = {
  nl: {
    shops: [
      'Tabakszaak {last}',
      'Boekhandel {last}',
      'Supermarkt {last}',
      'Drogisterij {last}',
      'Kantoorboekhandel {last}',
      'Bloemenhuis {last}',
      'Buurtwinkel {last}',
    ],
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
