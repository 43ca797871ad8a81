/**
 * Every body costs work in proportion to its size, bounded per endpoint (issue 25): the nesting
 * scan looks at each character a bounded number of times, however the body is escaped. Costs are
 * counted (characters looked at, parses), never timed.
 */
import { describe, expect, it } from 'vitest';
import { JsonDepthScanner } from '../src/http/json-depth.js';

/** How many characters `String.prototype.indexOf` looks at while `run` runs (from its start to what it finds, or to the end). */
function charactersSearched(run: () => void): number {
  const original = String.prototype.indexOf;
  let searched = 0;
  String.prototype.indexOf = function (this: string, search: string, from?: number) {
    const start = Math.max(0, Math.min(from ?? 0, this.length));
    const at = original.call(this, search, start);
    searched += (at < 0 ? this.length : at + search.length) - start;
    return at;
  };
  try {
    run();
  } finally {
    String.prototype.indexOf = original;
  }
  return searched;
}

describe('the nesting scan is linear', () => {
  const escaped = (count: number) => `{"outcome":"${'\\u0000'.repeat(count)}"}`;

  it('looks at each character of a string full of escapes a bounded number of times, whole or in pieces', () => {
    const text = escaped(50_000);
    const whole = charactersSearched(() => expect(new JsonDepthScanner(64).feed(text)).toBe(true));
    expect(whole).toBeLessThanOrEqual(3 * text.length);
    const pieces = charactersSearched(() => {
      const scanner = new JsonDepthScanner(64);
      for (let at = 0; at < text.length; at += 4096) expect(scanner.feed(text.slice(at, at + 4096))).toBe(true);
    });
    expect(pieces).toBeLessThanOrEqual(3 * text.length);
  });

  it('escaped quotes and backslashes do not make it search again from each one', () => {
    const text = `["${'\\"\\\\'.repeat(30_000)}",[1]]`;
    const scanner = new JsonDepthScanner(1);
    const searched = charactersSearched(() => expect(scanner.feed(text)).toBe(false));
    expect(searched).toBeLessThanOrEqual(3 * text.length);
  });
});
