import type { ServiceRateRecord } from '../model/service-rate.js';

/**
 * The size limits of a service rate (`length_max`, `width_max`, `height_max` in millimetres,
 * `volume_max` in litres), held against a parcel as its weight range is.
 *
 * The sides are compared by rank, not by name: the longest side against `length_max` (as the
 * oversize surcharge measures it), the next against `width_max`, the shortest against
 * `height_max`, so a parcel that fits once turned is not refused for the way it was written down.
 * Only the sides given are ranked, so a parcel with a side left out is never refused for a side
 * it may not have. Above `length_max` a rate with an `oversize_surcharge` carries the parcel for
 * that surcharge (pricing.ts), as step pricing carries weight above `weight_max`; without one, it
 * does not carry it.
 */

type Side = 'length' | 'width' | 'height';

/** The member of `physical_properties` at fault (none for a volume worked out from the sides), and why. */
export interface SizeExcess {
  member: Side | 'volume' | undefined;
  detail: string;
}

type Parcel = { length?: number; width?: number; height?: number; volume?: number };

const RANKS = [
  { limit: 'length_max', name: 'longest side' },
  { limit: 'width_max', name: 'second-longest side' },
  { limit: 'height_max', name: 'shortest side' },
] as const;

/** Every way a parcel is too large for a rate; empty when it fits. */
export function parcelSizeExcesses(rate: ServiceRateRecord, parcel: Parcel): SizeExcess[] {
  const excesses: SizeExcess[] = [];
  // Longest first; a tie keeps the order length, width, height, so the pointer is stable.
  const sides = (['length', 'width', 'height'] as const)
    .filter((side) => parcel[side] !== undefined)
    .map((side) => ({ side, size: parcel[side]! }))
    .sort((a, b) => b.size - a.size);
  for (const [rank, { side, size }] of sides.entries()) {
    const { limit, name } = RANKS[rank]!;
    const max = rate[limit];
    if (max === undefined || size <= max) continue;
    if (limit === 'length_max' && rate.oversize_surcharge) continue;
    excesses.push({ member: side, detail: `The parcel's ${name} (its ${side}, ${size} mm) exceeds the rate's ${limit} of ${max} mm.` });
  }
  const max = rate.volume_max;
  if (max === undefined) return excesses;
  const { length, width, height, volume } = parcel;
  if (volume !== undefined) {
    if (volume > max) excesses.push({ member: 'volume', detail: `The parcel's volume (${volume} l) exceeds the rate's volume_max of ${max} l.` });
    return excesses;
  }
  // A volume worked out from sides already refused would only repeat them.
  if (excesses.length > 0 || length === undefined || width === undefined || height === undefined) return excesses;
  // One litre is 1,000,000 mm3.
  const litres = (length * width * height) / 1_000_000;
  if (litres > max) {
    excesses.push({
      member: undefined,
      detail: `The parcel's volume (${litres} l, from its length, width and height) exceeds the rate's volume_max of ${max} l.`,
    });
  }
  return excesses;
}
