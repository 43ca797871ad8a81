import type { Address, Price } from '../../model/common.js';

/*
 * Formatting for printed documents. Everything here is locale-free on purpose: the same
 * shipment must print the same text on every machine, whatever its locale or time zone.
 */

/**
 * English country names; `Intl` ships with Node, so this needs no data files. Made when a label first
 * asks: making it loads ICU's region data: 13 ms of every start in a node --cpu-prof of the bundle, 32 ms alone (a loaded machine).
 */
let regionNames: Intl.DisplayNames | undefined;

/** "UNITED KINGDOM (GB)": postal convention prints the destination country in capitals. */
export function countryLine(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  const name = regionNames.of(code) ?? code;
  return `${name.toUpperCase()} (${code})`;
}

export function personName(address: Address): string {
  return [address.first_name, address.last_name].filter(Boolean).join(' ');
}

export function streetLine(address: Address): string {
  return [address.street_1, address.street_number, address.street_number_suffix].filter((part) => part !== undefined && part !== '').join(' ');
}

export function cityLine(address: Address): string {
  return [address.postal_code, address.city, address.state_code].filter(Boolean).join(' ');
}

/** Collapses tabs and line breaks: every printed field is one line at a fixed place. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The lines of an address block, top to bottom, without empty lines. */
export function addressLines(address: Address): string[] {
  return [personName(address), address.company ?? '', streetLine(address), address.street_2 ?? '', cityLine(address), countryLine(address.country_code)]
    .map(oneLine)
    .filter((line) => line !== '');
}

/** Grams under a kilo, else kilograms with two decimals ("1.25 kg"). */
export function formatWeight(grams: number): string {
  return grams < 1000 ? `${grams} g` : `${(grams / 1000).toFixed(2)} kg`;
}

/** "2025-03-14 09:30 UTC": always UTC, so the date never depends on the server's zone. */
export function formatDateTime(unixSeconds: number): string {
  const iso = new Date(unixSeconds * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function formatDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 10);
}

/** Cents to "12.50 EUR" without `Intl.NumberFormat`, whose output varies with ICU data. */
export function formatMoney(price: Price): string {
  return `${formatAmount(price.amount)} ${price.currency}`;
}

export function formatAmount(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
