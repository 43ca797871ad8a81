import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { within, type Field, type FieldKind } from '../src/domain/errors.js';
import { pathSteps, sourceOf } from '../src/http/domain-errors.js';

/** The reference tokens of a JSON pointer, unescaped as RFC 6901 says. */
const tokensOf = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));

describe('the fields domain errors name, and where the edge says they are', () => {
  it.each<[Field, object]>([
    [{ attribute: 'recipient_address.country_code' }, { pointer: '/data/attributes/recipient_address/country_code' }],
    [{ attribute: 'items[2].quantity' }, { pointer: '/data/attributes/items/2/quantity' }],
    [{ attribute: 'action.values[0].includes[3]' }, { pointer: '/data/attributes/action/values/0/includes/3' }],
    [{ relationship: 'contract' }, { pointer: '/data/relationships/contract' }],
    [{ relationship: 'contract.id' }, { pointer: '/data/relationships/contract/data/id' }],
    [{ relationship: 'owner.type' }, { pointer: '/data/relationships/owner/data/type' }],
    [{ relationship: 'shipments[3].id' }, { pointer: '/data/relationships/shipments/data/3/id' }],
    [{ relationship: 'service_options[2]' }, { pointer: '/data/relationships/service_options/data/2' }],
    [{ relationship: 'service_options[1].meta.price.amount' }, { pointer: '/data/relationships/service_options/data/1/meta/price/amount' }],
    [{ relationship: '' }, { pointer: '/data/relationships' }],
    [{ resourceMeta: 'logo.contents' }, { pointer: '/data/meta/logo/contents' }],
    [{ meta: 'add_to_next_collection' }, { pointer: '/meta/add_to_next_collection' }],
    [{ meta: 'collection.collection_time' }, { pointer: '/meta/collection/collection_time' }],
    [{ input: 'shipment_ids[3]' }, { pointer: '/data/shipment_ids/3' }],
    [{ input: '[2].id' }, { pointer: '/data/2/id' }],
    [{ input: 'items[0].item_value.currency' }, { pointer: '/data/items/0/item_value/currency' }],
    [{ parameter: 'filter[date_to]' }, { parameter: 'filter[date_to]' }],
    [{ header: 'Idempotency-Key' }, { header: 'Idempotency-Key' }],
  ])('%j is %j', (field, source) => {
    expect(sourceOf(field)).toEqual(source);
  });

  it('appends a path within a field (a logo sent in either meta, a price and its members)', () => {
    expect(within({ meta: 'logo' }, 'contents')).toEqual({ meta: 'logo.contents' });
    expect(within({ resourceMeta: 'logo' }, 'mime_type')).toEqual({ resourceMeta: 'logo.mime_type' });
    expect(within({ relationship: 'service_options[1].meta.price' }, 'currency')).toEqual({ relationship: 'service_options[1].meta.price.currency' });
    expect(within({ input: 'items' }, '[0]')).toEqual({ input: 'items[0]' });
    expect(within({ relationship: '' }, 'contract')).toEqual({ relationship: 'contract' });
  });

  // Every field maps (the mapping is a Record over the kinds, so the compiler asks for each one),
  // and a body field's pointer holds exactly the steps of its path below its kind's place.
  const name = fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/);
  const step = fc.oneof(name, fc.nat({ max: 99 }));
  const path = fc.array(step, { maxLength: 5 }).map((steps) => steps.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join(''));
  const places: Record<Exclude<FieldKind, 'parameter' | 'header'>, (steps: string[]) => string[]> = {
    attribute: (steps) => ['data', 'attributes', ...steps],
    relationship: ([first, ...rest]) => ['data', 'relationships', ...(first === undefined ? [] : [first, ...(rest.length > 0 ? ['data', ...rest] : [])])],
    resourceMeta: (steps) => ['data', 'meta', ...steps],
    meta: (steps) => ['meta', ...steps],
    input: (steps) => ['data', ...steps],
  };

  it('gives every field of the body the pointer of its path, and names parameters and headers as they are', () => {
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(places) as (keyof typeof places)[])), path, (kind, path) => {
        const source = sourceOf({ [kind]: path } as Field);
        expect(source).toHaveProperty('pointer');
        expect(tokensOf((source as { pointer: string }).pointer)).toEqual(places[kind](pathSteps(path)));
        expect(pathSteps(path).join('')).toBe(path.replace(/[.[\]]/g, ''));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.constantFrom<'parameter' | 'header'>('parameter', 'header'), fc.string(), (kind, name) => {
        expect(sourceOf({ [kind]: name } as Field)).toEqual({ [kind]: name });
      }),
      { numRuns: 100 },
    );
  });

  it('escapes a step that holds / or ~ as RFC 6901 says', () => {
    expect(sourceOf({ attribute: 'a/b.c~d' })).toEqual({ pointer: '/data/attributes/a~1b/c~0d' });
  });
});
