import { describe, expect, it } from 'vitest';
import { hashSecret, secretMatches } from '../src/auth/secrets.js';

// A right secret is remembered after its first check; these pin that remembering changes no answer.
describe('client secret check', () => {
  it('accepts the right secret every time and refuses a wrong one after the right one was accepted', () => {
    const digest = hashSecret('right-secret');
    expect(secretMatches('right-secret', digest)).toBe(true);
    expect(secretMatches('right-secret', digest)).toBe(true);
    expect(secretMatches('right-secreT', digest)).toBe(false);
    expect(secretMatches('', digest)).toBe(false);
  });

  it('refuses a secret accepted before once the stored digest is another (the secret changed)', () => {
    const old = hashSecret('first-secret');
    expect(secretMatches('first-secret', old)).toBe(true);
    const changed = hashSecret('second-secret');
    expect(secretMatches('first-secret', changed)).toBe(false);
    expect(secretMatches('second-secret', changed)).toBe(true);
    expect(secretMatches('first-secret', old)).toBe(true);
  });

  it('refuses any secret for an unknown client (the all-zero digest)', () => {
    expect(secretMatches('right-secret', '0'.repeat(64))).toBe(false);
  });
});
