import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/domain/canonical-json.js';

/** The first way fingerprints were computed; stored fingerprints are hashes of its text. */
function sortedThenStringified(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((key) => [key, canonical((v as Record<string, unknown>)[key])]),
      );
    return v;
  };
  return JSON.stringify(canonical(value));
}

// Keys that order differently as object keys than as sorted strings, and keys JSON treats specially.
const awkwardKey = fc.constantFrom('10', '9', '0', '01', '4294967294', '4294967295', '-1', '1.5', '__proto__', 'constructor', 'é', 'Z', 'a', '');
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), tie('object'), fc.array(tie('value'), { maxLength: 4 })),
  object: fc.dictionary(fc.oneof(awkwardKey, fc.string({ maxLength: 6 })), tie('value'), { maxKeys: 6 }),
})).value;

describe('canonical JSON', () => {
  it('gives exactly the text of sorting keys into new objects and stringifying, for any JSON value', () => {
    fc.assert(
      fc.property(json, (value) => {
        const parsed = JSON.parse(JSON.stringify(value)) as unknown;
        expect(canonicalJson(parsed)).toBe(sortedThenStringified(parsed));
      }),
      { numRuns: 500 },
    );
  });

  it('ignores key order and whitespace', () => {
    const a = JSON.parse('{"b": [ {"y": 1, "x": 2} ], "a": {"10": true, "9": null, "k": "v"}}');
    const b = JSON.parse('{"a":{"k":"v","9":null,"10":true},"b":[{"x":2,"y":1}]}');
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":{"9":null,"10":true,"k":"v"},"b":[{"x":2,"y":1}]}');
  });

  it('keeps a __proto__ key of parsed JSON as data', () => {
    expect(canonicalJson(JSON.parse('{"__proto__": {"polluted": 1}, "a": 2}'))).toBe('{"__proto__":{"polluted":1},"a":2}');
  });
});
