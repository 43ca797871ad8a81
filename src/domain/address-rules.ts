import { postalCodeMatcher } from '../model/linear-regexp.js';
import type { AddressRule } from '../model/service.js';

/** The parts of an address that decide whether a service covers it. */
export type AddressQuery = { country_code?: string; state_code?: string; postal_code?: string };

/**
 * Whether an address falls under a rule: same country, same subdivision when both name one, and
 * a postal code matching the rule's pattern when both have one. Parts the address leaves out
 * do not narrow the match.
 */
function matchesRule(rule: AddressRule, address: AddressQuery): boolean {
  if (address.country_code && rule.country_code !== address.country_code.toUpperCase()) return false;
  if (address.state_code && rule.state_code && rule.state_code !== address.state_code.toUpperCase()) return false;
  if (address.postal_code && rule.postal_code && !postalCodeTest(rule.postal_code)(address.postal_code.trim())) return false;
  return true;
}

/** Whether any of the rules covers the address. */
export function coversAddress(rules: readonly AddressRule[], address: AddressQuery): boolean {
  return rules.some((rule) => matchesRule(rule, address));
}

/**
 * Whether a shipment's address lies inside a rule: unlike a catalogue filter, which names only
 * the parts it asks about, an address a parcel goes to or from must show every part the rule
 * narrows by. An address without a state code is not in a rule's state (a Northern Ireland-only
 * service cannot take a London address that leaves the state out), nor is one without a postal
 * code under a rule's postal code pattern.
 */
function holdsAddress(rule: AddressRule, address: AddressQuery): boolean {
  if (rule.country_code !== address.country_code?.toUpperCase()) return false;
  if (rule.state_code && rule.state_code !== address.state_code?.toUpperCase()) return false;
  if (rule.postal_code && !(address.postal_code && postalCodeTest(rule.postal_code)(address.postal_code.trim()))) return false;
  return true;
}

/** Whether any of the rules holds a shipment's address (every part a rule narrows by given and matching). */
export function holdsShipmentAddress(rules: readonly AddressRule[], address: AddressQuery): boolean {
  return rules.some((rule) => holdsAddress(rule, address));
}

/** The part of a shipment's address the rules leave out: its country, else a state or a postal code its country's rules narrow by. */
export function missedPart(rules: readonly AddressRule[], address: AddressQuery): 'country_code' | 'state_code' | 'postal_code' {
  const ofCountry = rules.filter((rule) => rule.country_code === address.country_code?.toUpperCase());
  if (ofCountry.length === 0) return 'country_code';
  return ofCountry.some((rule) => rule.state_code && rule.state_code !== address.state_code?.toUpperCase()) ? 'state_code' : 'postal_code';
}

/**
 * Why the rules of a service's country leave a shipment's address out, for a refusal; undefined
 * when no rule is of the address's country (the country itself is then the reason).
 */
export function narrowerThanAddress(rules: readonly AddressRule[], address: AddressQuery, whose: string): string | undefined {
  const country = address.country_code?.toUpperCase();
  const ofCountry = rules.filter((rule) => rule.country_code === country);
  if (ofCountry.length === 0) return undefined;
  const regions = ofCountry.map((rule) =>
    [rule.state_code && `state_code ${rule.state_code}`, rule.postal_code && `postal codes matching ${rule.postal_code}`].filter(Boolean).join(' and '),
  );
  const given = [
    address.state_code ? `state_code ${address.state_code}` : 'no state_code',
    address.postal_code ? `postal code ${address.postal_code}` : 'no postal code',
  ].join(' and ');
  return `In ${country} it serves only ${regions.join(', or ')}; the ${whose} address has ${given}.`;
}

/**
 * Compiled postal-code patterns, by pattern. Tenant packs bring patterns of their own and tenants
 * come and go, so the memory is bounded: past this many patterns it starts afresh (the seeded
 * services' few hundred fit many times over).
 */
export const MAX_COMPILED_PATTERNS = 4096;
const compiled = new Map<string, (postalCode: string) => boolean>();

/** How many compiled patterns are kept (for the test of the bound). */
export const compiledPatternCount = (): number => compiled.size;

/** A pattern that cannot run in linear time (a pack checks its own; older data may hold one) matches no postal code. */
const matchesNothing = () => false;

function postalCodeTest(pattern: string): (postalCode: string) => boolean {
  let test = compiled.get(pattern);
  if (!test) {
    try {
      test = postalCodeMatcher(pattern);
    } catch {
      test = matchesNothing;
    }
    if (compiled.size >= MAX_COMPILED_PATTERNS) compiled.clear();
    compiled.set(pattern, test);
  }
  return test;
}
