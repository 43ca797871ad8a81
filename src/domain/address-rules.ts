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
