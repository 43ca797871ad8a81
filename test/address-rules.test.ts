import { describe, expect, it } from 'vitest';
import { compiledPatternCount, coversAddress, MAX_COMPILED_PATTERNS } from '../src/domain/address-rules.js';

/*
 * Services cover addresses by rules whose postal codes are patterns; each pattern is compiled once
 * and kept. Tenant packs bring patterns of their own and tenants come and go, so what is kept is
 * bounded however many distinct patterns a long-running sandbox has seen.
 */
describe('postal-code patterns of address rules', () => {
  it('match as compiled, and no more of them are kept than the bound, however many were seen', () => {
    const rule = (postal_code: string) => [{ country_code: 'NL', postal_code }];
    for (let n = 0; n < MAX_COMPILED_PATTERNS + 50; n++) {
      const pattern = `^${String(n).padStart(5, '0')}[A-Z]{2}$`;
      expect(coversAddress(rule(pattern), { country_code: 'NL', postal_code: `${String(n).padStart(5, '0')}AB` })).toBe(true);
      expect(coversAddress(rule(pattern), { country_code: 'NL', postal_code: `${String(n + 1).padStart(5, '0')}AB` })).toBe(false);
    }
    expect(compiledPatternCount()).toBeLessThanOrEqual(MAX_COMPILED_PATTERNS);
    // A pattern seen before the memory started afresh still matches (compiled again).
    expect(coversAddress(rule('^00000[A-Z]{2}$'), { country_code: 'NL', postal_code: '00000AB' })).toBe(true);
  });
});
