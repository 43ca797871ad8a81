import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteRing } from '../src/requestlog/byte-ring.js';
import { EntryWriter, decodeEntry } from '../src/requestlog/codec.js';
import type { RawEntry, RawMessage } from '../src/requestlog/log.js';

const kept = (ring: ByteRing): number[][] => [...ring.newestFirst()].map((bytes) => [...bytes]);

describe('the byte ring behind the request log', () => {
  it('keeps the newest records intact, newest first, within its record and byte limits', () => {
    const maxRecords = 8;
    const maxBytes = 256;
    const record = fc.uint8Array({ minLength: 0, maxLength: maxBytes / 4 });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 60 }), (records) => {
        const ring = new ByteRing(maxRecords, maxBytes, 16);
        records.forEach((bytes) => ring.push(bytes));
        const out = kept(ring);
        const newest = records.slice().reverse().map((bytes) => [...bytes]);
        // What is kept is the newest records, exactly as pushed, in order.
        expect(out).toEqual(newest.slice(0, out.length));
        expect(out.length).toBeLessThanOrEqual(maxRecords);
        expect(ring.capacity).toBeLessThanOrEqual(maxBytes);
        // It drops a record only when it must: the newest records that fit with room for one more are all there.
        let fit = 0;
        let bytes = 0;
        while (fit < Math.min(maxRecords, newest.length) && bytes + newest[fit]!.length + ring.maxRecordBytes <= maxBytes) bytes += newest[fit++]!.length;
        expect(out.length).toBeGreaterThanOrEqual(fit);
      }),
      { numRuns: 300 },
    );
  });

  it('grows from a small buffer rather than drop records, and shrinks back when cleared', () => {
    const ring = new ByteRing(100, 64 * 1024, 1024);
    for (let i = 0; i < 100; i += 1) ring.push(Buffer.alloc(100, i));
    expect(ring.size).toBe(100);
    expect(ring.capacity).toBe(16 * 1024);
    expect(kept(ring).map((bytes) => bytes[0])).toEqual([...Array(100).keys()].reverse());
    ring.clear();
    expect(ring.size).toBe(0);
    expect(ring.capacity).toBe(1024);
    expect(kept(ring)).toEqual([]);
  });

  it('refuses a record larger than a quarter of its largest buffer', () => {
    const ring = new ByteRing(4, 1024);
    expect(() => ring.push(Buffer.alloc(257))).toThrow(RangeError);
    ring.push(Buffer.alloc(256, 7));
    expect(kept(ring)).toEqual([Array(256).fill(7)]);
  });
});

const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const headerList = fc.array(fc.tuple(fc.stringMatching(/^[a-z-]{1,12}$/), fc.string({ maxLength: 20 })), { maxLength: 5 });
const message: fc.Arbitrary<{ raw: RawMessage; flat: string[] }> = fc
  .record(
    {
      headers: fc.oneof(
        headerList.map((pairs) => ({ raw: pairs.flat(), flat: pairs.flat() })),
        headerList.map((pairs) => {
          const record = Object.fromEntries(pairs);
          return { raw: record, flat: Object.entries(record).flat() };
        }),
      ),
      type: fc.constantFrom('', 'application/json', 'application/vnd.api+json', 'text/plain'),
      text,
      truncated: fc.constant(true),
      note: text,
    },
    { requiredKeys: ['headers', 'type'] },
  )
  .map(({ headers, ...rest }) => ({ raw: { ...rest, headers: headers.raw }, flat: headers.flat }));

describe('request log entries as bytes', () => {
  it('decode to what was encoded, with headers as a flat list of names and values', () => {
    const writer = new EntryWriter();
    fc.assert(
      fc.property(
        fc.record(
          {
            id: fc.nat(),
            time: fc.nat(),
            method: fc.constantFrom('GET', 'POST', 'PATCH'),
            url: fc.webUrl(),
            path: text,
            status: fc.integer({ min: 100, max: 599 }),
            duration_ms: fc.double({ min: 0, max: 1e6, noNaN: true }),
            client_id: text,
            request: message,
            response: message,
          },
          { requiredKeys: ['id', 'time', 'method', 'url', 'path', 'status', 'duration_ms', 'request', 'response'] },
        ),
        ({ request, response, ...fields }) => {
          const entry: RawEntry = { ...fields, request: request.raw, response: response.raw };
          expect(decodeEntry(writer.encode(entry))).toEqual({ ...entry, request: { ...request.raw, headers: request.flat }, response: { ...response.raw, headers: response.flat } });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps header values of a Headers object', () => {
    const headers = new Headers({ 'Content-Type': 'application/json', 'X-Trace': 'é-1' });
    const entry: RawEntry = { id: 1, time: 2, method: 'GET', url: 'http://h/x', path: '/x', status: 200, duration_ms: 0.5, request: { headers, type: '' }, response: { headers: {}, type: '' } };
    expect(decodeEntry(new EntryWriter().encode(entry)).request.headers).toEqual(['content-type', 'application/json', 'x-trace', 'é-1']);
  });
});
