/** The vocabulary of pickup-dropoff locations, apart from the generator (which loads faker). */

export const locationTypes = ['locker', 'office', 'office-agency', 'office-postal', 'office-shop'] as const;
export const locationCategories = ['pick-up', 'drop-off'] as const;
export const locationFeatures = ['print-label-in-store'] as const;
export const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export type LocationType = (typeof locationTypes)[number];
export type LocationCategory = (typeof locationCategories)[number];
export type LocationFeature = (typeof locationFeatures)[number];
export type Weekday = (typeof weekdays)[number];

export interface OpeningHours {
  day: Weekday;
  /** `HH:MM`, local time. */
  open: string;
  closed: string;
}

export interface PickupLocationAddress {
  company: string;
  street_1: string;
  street_number: number;
  postal_code: string;
  city: string;
  country_code: string;
}

export interface PickupLocation {
  code: string;
  address: PickupLocationAddress;
  location_type: LocationType;
  categories: LocationCategory[];
  features: LocationFeature[];
  opening_hours: OpeningHours[];
  position: { latitude: number; longitude: number };
  /** Metres from the searched postal code; lists are in ascending order. */
  distance: number;
}

/** Optional hints of a search; they change names on the addresses, never codes or positions. */
export interface NearTo {
  street?: string;
  street_number?: number;
  city?: string;
}

export interface LocationFilter {
  /** Every listed category must be offered. */
  categories?: readonly LocationCategory[];
  /** Every listed feature must be offered. */
  features?: readonly LocationFeature[];
  /** The location type must be one of these. */
  location_types?: readonly LocationType[];
}

/** Upper case without spaces: `1012 ab` and `1012AB` are the same postal code. */
export function normalizePostalCode(postalCode: string): string {
  return postalCode.toUpperCase().replace(/\s+/g, '');
}

/**
 * The id of a location names the search that found it: country, postal code (upper case, no
 * spaces) and the carrier's code, e.g. `NL-1012AB-205604`. Locations are generated, not stored, so
 * this is what lets `GET .../pickup-dropoff-locations/{id}` find one again; like the locations, it
 * does not depend on how the postal code was written.
 */
export function pickupLocationId(countryCode: string, postalCode: string, code: string): string {
  return `${countryCode.toUpperCase()}-${normalizePostalCode(postalCode)}-${code}`;
}

/** The search and code an id names, or `undefined` when it is no id of `pickupLocationId`. */
export function parsePickupLocationId(id: string): { countryCode: string; postalCode: string; code: string } | undefined {
  const match = /^([A-Z]{2})-([A-Z0-9][A-Z0-9-]{0,19})-(\d{1,12})$/.exec(id);
  if (!match) return undefined;
  return { countryCode: match[1]!, postalCode: match[2]!, code: match[3]! };
}
