/*
 * Pick-up/drop-off locations around coordinates: the search lies in the nearest city the sandbox
 * knows (pickup-cities.ts), whose country and name the addresses take, and the locations are
 * placed around the given point itself. Like the postal search, the same carrier and (rounded)
 * coordinates always give the same list, so an id of it can be looked up later.
 */

import { countryMaps, type City } from './cities.js';
import { generateLocations, searchFaker } from './generate.js';
import { roundCoordinate, type PickupLocation } from './location-types.js';
import { postalCodeIn } from './postal-codes.js';

/** A point farther than this from every city the sandbox knows has no locations. */
const NEAREST_CITY_LIMIT = 50_000;

const EARTH_RADIUS = 6_371_000;
const radians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
function metresBetween(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The known city nearest to a point, its country and how far it is (metres), whatever the distance. */
export function nearestCity(latitude: number, longitude: number): { countryCode: string; city: City; metres: number } {
  let best: { countryCode: string; city: City; metres: number } | undefined;
  for (const [countryCode, map] of Object.entries(countryMaps)) {
    for (const city of map.cities) {
      const metres = metresBetween({ latitude, longitude }, { latitude: city[1], longitude: city[2] });
      if (!best || metres < best.metres) best = { countryCode, city, metres };
    }
  }
  return best!;
}

/**
 * The locations of `carrierCode` around a point (rounded to 4 decimals): 5 to 10 of them, nearest
 * first, `distance` in metres from the point, in the country and city of the nearest known city.
 * None when that city is more than `NEAREST_CITY_LIMIT` away (the sea, a country without a map).
 */
export function pointLocations(carrierCode: string, latitude: number, longitude: number): PickupLocation[] {
  const centre = { latitude: roundCoordinate(latitude), longitude: roundCoordinate(longitude) };
  const { countryCode, city, metres } = nearestCity(centre.latitude, centre.longitude);
  if (metres > NEAREST_CITY_LIMIT) return [];
  const map = countryMaps[countryCode]!;
  const faker = searchFaker(countryCode, carrierCode, 'point', centre.latitude.toFixed(4), centre.longitude.toFixed(4));
  const postalCode = postalCodeIn(faker, countryCode, map, city);
  return generateLocations(faker, { carrierCode, countryCode, map, city, centre, postalCode });
}

/** The location with `code` among those around a point, or `undefined`. */
export function findPointLocation(carrierCode: string, latitude: number, longitude: number, code: string): PickupLocation | undefined {
  return pointLocations(carrierCode, latitude, longitude).find((location) => location.code === code);
}
