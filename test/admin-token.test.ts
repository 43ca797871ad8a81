/**
 * The admin token is compared in constant time: both sides are hashed to SHA-256 first, so
 * `timingSafeEqual` always compares 32 bytes with 32 bytes, whatever was sent.
 */
import { timingSafeEqual } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { isAdminToken } from '../src/http/control-access.js';

describe('the comparison of the admin token', () => {
  it('compares fixed-length digests: 32 bytes against 32 bytes for any length presented', () => {
    const compare = vi.fn(timingSafeEqual);
    const admin = 'Admin-Token-1';
    const cases: [string, boolean][] = [
      [admin, true],
      ['A', false],
      ['Admin-Token-', false],
      ['Admin-Token-2', false],
      ['x'.repeat(10_000), false],
      ['', false],
    ];
    for (const [presented, expected] of cases) {
      compare.mockClear();
      expect(isAdminToken(presented, admin, compare), presented.slice(0, 20)).toBe(expected);
      expect(compare).toHaveBeenCalledTimes(1);
      const [a, b] = compare.mock.calls[0]! as [Buffer, Buffer];
      expect([a.length, b.length]).toEqual([32, 32]);
    }
    // As served, without a comparer given: the same answers.
    for (const [presented, expected] of cases) expect(isAdminToken(presented, admin)).toBe(expected);
  });
});
