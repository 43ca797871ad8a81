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
