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
  /** At most this many metres from the searched point (`distance`). */
  radius?: number;
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

/**
 * Coordinates as a coordinate search reads them: production's patterns for the two path segments
 * (decimal degrees, an optional sign; latitude -90..90, longitude -180..180), or `undefined`.
 */
export function parseCoordinates(latitude: string, longitude: string): { latitude: number; longitude: number } | undefined {
  if (!/^[-+]?([1-8]?\d(\.\d+)?|90(\.0+)?)$/.test(latitude)) return undefined;
  if (!/^[-+]?(180(\.0+)?|((1[0-7]\d)|([1-9]?\d))(\.\d+)?)$/.test(longitude)) return undefined;
  return { latitude: roundCoordinate(Number(latitude)), longitude: roundCoordinate(Number(longitude)) };
}

/** Coordinate searches are rounded to 4 decimals (about 10 m): nearer points are the same search. */
export function roundCoordinate(degrees: number): number {
  const rounded = Math.round(degrees * 1e4) / 1e4;
  return rounded === 0 ? 0 : rounded;
}

/**
 * The id of a location found around coordinates names them (rounded, with hemispheres) and the
 * carrier's code: `N52.3728-E4.8936-205604`, `S33.8688-E151.2093-318245`.
 */
export function pointLocationId(latitude: number, longitude: number, code: string): string {
  const lat = roundCoordinate(latitude);
  const lon = roundCoordinate(longitude);
  return `${lat < 0 ? 'S' : 'N'}${Math.abs(lat).toFixed(4)}-${lon < 0 ? 'W' : 'E'}${Math.abs(lon).toFixed(4)}-${code}`;
}

/** The search an id names: by postal code (`pickupLocationId`) or around coordinates (`pointLocationId`). */
export type LocationSearchId =
  { kind: 'postal'; countryCode: string; postalCode: string; code: string } | { kind: 'point'; latitude: number; longitude: number; code: string };

/** The search and code an id names, or `undefined` when it is no id of either form. */
export function parsePickupLocationId(id: string): LocationSearchId | undefined {
  const point = /^([NS])(\d{1,2}\.\d{4})-([EW])(\d{1,3}\.\d{4})-(\d{1,12})$/.exec(id);
  if (point) {
    const latitude = Number(point[2]) * (point[1] === 'S' ? -1 : 1);
    const longitude = Number(point[4]) * (point[3] === 'W' ? -1 : 1);
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
    return { kind: 'point', latitude: roundCoordinate(latitude), longitude: roundCoordinate(longitude), code: point[5]! };
  }
  const match = /^([A-Z]{2})-([A-Z0-9][A-Z0-9-]{0,19})-(\d{1,12})$/.exec(id);
  if (!match) return undefined;
  return { kind: 'postal', countryCode: match[1]!, postalCode: match[2]!, code: match[3]! };
}
