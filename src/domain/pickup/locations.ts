/*
 * Pick-up/drop-off locations ("PUDO points"), generated rather than stored: the same carrier,
 * country and postal code always give the same list, so a code seen in one answer can be checked
 * later (`findPickupLocation`); so do the same carrier and coordinates (pickup-near.ts). Pure: no
 * store, no clock, no randomness beyond the seeded faker.
 */

export * from './location-types.js';
export { findPointLocation, nearestCity, pointLocations } from './near.js';
import { countryMaps, type City, type CountryMap } from './cities.js';
import { generateLocations, offset, round, searchFaker } from './generate.js';
import type { LocationFilter, NearTo, PickupLocation } from './location-types.js';
import { normalizePostalCode } from './location-types.js';
import { cityFor, displayPostalCode } from './postal-codes.js';

/** The countries the sandbox has locations in; elsewhere a search finds none. */
export const pickupCountries: readonly string[] = Object.keys(countryMaps);

const sameName = (a: string, b: string): boolean => a.localeCompare(b, undefined, { sensitivity: 'base' }) === 0;

/**
 * The locations of `carrierCode` around `postalCode` in `countryCode`: 5 to 10 of them, nearest
 * first. Countries the sandbox has no geography for have none. `near` only renames: the nearest
 * location moves to the given street, and every address takes the given city (and its position,
 * when it is one of the sandbox's cities).
 */
export function pickupLocations(carrierCode: string, countryCode: string, postalCode: string, near: NearTo = {}): PickupLocation[] {
  const country = countryCode.toUpperCase();
  const map = countryMaps[country];
  if (!map) return [];
  const shown = displayPostalCode(country, normalizePostalCode(postalCode.trim()));
  const faker = searchFaker(country, carrierCode, country, normalizePostalCode(postalCode));
  const home = cityFor(map, postalCode, faker.number.int({ min: 0, max: 1_000_000 }));
  // The searched postal code lies somewhere in its city, up to a few kilometres from the centre.
  const centre = offset(home[1], home[2], faker.number.int({ min: 0, max: 2500 }), faker.number.float({ min: 0, max: 2 * Math.PI }));
  const locations = generateLocations(faker, { carrierCode, countryCode: country, map, city: home, centre, postalCode: shown });
  return shiftTowards(locations, map, home, near);
}

/** Applies the `street`, `street_number` and `city` hints of a search without drawing from the faker. */
function shiftTowards(locations: PickupLocation[], country: CountryMap, home: City, near: NearTo): PickupLocation[] {
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
    return { ...location, address, position };
  });
}

/** The locations that pass every part of `filter`. */
export function filterLocations(locations: readonly PickupLocation[], filter: LocationFilter): PickupLocation[] {
  return locations.filter(
    (location) =>
      (filter.categories ?? []).every((category) => location.categories.includes(category)) &&
      (filter.features ?? []).every((feature) => location.features.includes(feature)) &&
      (!filter.location_types?.length || filter.location_types.includes(location.location_type)) &&
      (filter.radius === undefined || location.distance <= filter.radius),
  );
}

/**
 * The location with `code` among those of a search for `postalCode` (any notation: `1012AB` and
 * `1012 ab` are the same search), or `undefined`. For checking a shipment's `pickup_location.code`.
 */
export function findPickupLocation(carrierCode: string, countryCode: string, postalCode: string, code: string): PickupLocation | undefined {
  return pickupLocations(carrierCode, countryCode, postalCode).find((location) => location.code === code);
}
