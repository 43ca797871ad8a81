/*
 * Reference tables the helpers read (seeded in src/fixtures/reference/, handed to the rules by the
 * endpoints): streets for address suggestions, HS codes, and duty and tax rules per country.
 */

/** A street segment of the address table: one postal code, a range of house numbers. */
export type StreetEntry = readonly [postalCode: string, street: string, city: string, firstNumber: number, lastNumber: number];

/** The seeded streets of one country. */
export type AddressTable = Readonly<Record<string, readonly StreetEntry[]>>;

/** An HS code with the words that describe what it covers. */
export interface HsCodeEntry {
  /** Six-digit HS subheading, dotted (`6109.10`). */
  hs_code: string;
  /** Ten-digit commodity code of the import tariff. */
  commodity_code: string;
  description: string;
  keywords: readonly string[];
}

/** Duty rates in percent by HS chapter (two digits), with the rate of every other chapter. */
export interface DutySchedule {
  chapters: Readonly<Record<string, number>>;
  default: number;
}

/** How a destination country charges imports. Amounts in cents of its currency. */
export interface ImportRules {
  currency: string;
  /** Customs territory: no import between two countries of the same one (the EU customs union). */
  territory: string;
  /** Standard VAT or sales tax rate in percent (0: none at the border). */
  vat: number;
  /** Lower rates for some HS chapters (books, food). */
  reducedVat?: { rate: number; chapters: readonly string[] };
  duties: DutySchedule;
  /** No duty on consignments worth at most this much. */
  dutyFreeUpTo: number;
  /** No import tax on consignments worth at most this much. */
  taxFreeUpTo: number;
  /** Whether shipping counts in the value duty is charged on (CIF) or not (FOB). */
  dutyOnShipping: boolean;
}
