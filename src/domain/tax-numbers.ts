import type { TaxIdentificationNumber } from '../model/common.js';
import { DomainError, type Problem } from './errors.js';

/**
 * An organization holds one tax identification number per type and country: production's
 * documentation allows several of one type only "as long as they have a different country_code".
 * Registration merges them into a shipment's sender numbers by that pair, so a second number for
 * the same pair would leave to chance which one the carrier is given. Throws `unprocessable`
 * naming every entry that repeats an earlier pair.
 */
export function assertOnePerTypeAndCountry(numbers: readonly TaxIdentificationNumber[] | null | undefined): void {
  const first = new Map<string, number>();
  const problems: Problem[] = [];
  (numbers ?? []).forEach(({ type, country_code }, index) => {
    const pair = `${type} ${country_code}`;
    const earlier = first.get(pair);
    if (earlier === undefined) first.set(pair, index);
    else
      problems.push({
        detail: `Entry ${earlier} is already the organization's ${type} number for ${country_code}: an organization has one number per type and country_code.`,
        field: { attribute: `tax_identification_numbers[${index}].country_code` },
      });
  });
  if (problems.length > 0) throw new DomainError('unprocessable', problems);
}
