import { createHash } from 'node:crypto';
import type { ServiceRecord } from '../../model/service.js';

/**
 * Whether the carrier tracks shipments of a service. Letters are posted untracked (PostNL,
 * Royal Mail and bpost letters alike): registered, such a shipment gets its label and the status
 * `shipment-created-without-tracking`, but no tracking code, tracking URL or tracking page, and no
 * carrier statuses follow. Letterbox parcels are tracked products, and so stay tracked.
 */
export const offersTracking = (service: Pick<ServiceRecord, 'package_type'>): boolean => service.package_type !== 'letter';

/** The number printed under an untracked letter's barcode: it identifies the piece, and tracks nothing. */
export const mailPieceNumber = (seed: string): string => `MP${digits(seed, 14)}`;

/** Digits derived from a shipment id, so a shipment always gets the same tracking code. */
function digits(seed: string, count: number): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  let out = '';
  for (let i = 0; out.length < count; i += 2) out += (parseInt(hex.slice(i % 64, (i % 64) + 2), 16) % 10).toString();
  return out;
}

/** UPU S10 check digit, as on international postal items (weights 8 6 4 2 3 5 9 7). */
function s10CheckDigit(serial: string): number {
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = [...serial].reduce((total, digit, i) => total + Number(digit) * weights[i]!, 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/**
 * A tracking code in the style of the carrier: PostNL `3S` codes, DPD 14 digits, DHL Express
 * 10 digits, Royal Mail and bpost S10 codes with a real check digit, Evri 16 characters.
 * `seed` is the shipment id (plus a counter for re-registrations).
 */
export function trackingCode(carrierCode: string, seed: string): string {
  switch (carrierCode) {
    case 'postnl':
      return `3SSBX${digits(seed, 9)}`;
    case 'dpd':
      return `0${digits(seed, 13)}`;
    case 'dhl-express':
      return digits(seed, 10);
    case 'royal-mail':
    case 'bpost': {
      const serial = digits(seed, 8);
      const prefix = carrierCode === 'royal-mail' ? 'GB' : 'BE';
      return `${carrierCode === 'royal-mail' ? 'RM' : 'CE'}${serial}${s10CheckDigit(serial)}${prefix}`;
    }
    case 'evri':
      return `H00${digits(seed, 13)}`;
    default:
      return `SBX${digits(seed, 12)}`;
  }
}

/** Where the "carrier" tracking page of a code would be; `.example` hosts never resolve. */
export function carrierTrackingUrl(carrierCode: string, code: string): string {
  return `https://track.${carrierCode}.example/${encodeURIComponent(code)}`;
}
