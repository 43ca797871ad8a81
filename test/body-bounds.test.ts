/**
 * Every body costs work in proportion to its size, bounded per endpoint (issue 25): the nesting
 * scan looks at each character a bounded number of times, however the body is escaped. Costs are
 * counted (characters looked at, parses), never timed.
 */
import { describe, expect, it, vi } from 'vitest';
import { JsonDepthScanner } from '../src/http/json-depth.js';
import { testSandbox, type TestSandbox } from './support/app.js';

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

/** `count` members `"m0":0,...` in one object, as text. */
const members = (count: number, name = 'm') => Array.from({ length: count }, (_, i) => `"${name}${i}":0`).join(',');

describe('hostile bodies are answered 4xx at a bounded cost', () => {
  const post = (sandbox: TestSandbox, path: string, body: string, headers: Record<string, string> = {}) =>
    sandbox.request('POST', path, { body, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } });

  it('a form endpoint takes bytes: 1 MB of escapes to the anonymous checkout is refused on its Content-Length, naming the limit', async () => {
    const sandbox = await testSandbox();
    const body = `{"outcome":"${'\\u0000'.repeat(170_000)}"}`;
    const answer = await post(sandbox, '/return-portal/checkout/x.y', body);
    expect(answer.status).toBe(413);
    expect(answer.body.errors).toEqual([
      {
        status: '413',
        code: '10003',
        title: 'Request Body Too Large',
        detail: 'The request body is larger than 1 KiB, the most POST /return-portal/checkout/{checkout_token} takes.',
        source: { header: 'Content-Length' },
        meta: { max_bytes: 1024 },
      },
    ]);
  });

  it('a JSON endpoint without files takes 256 KiB: a 1 MB tags array to POST /shipments is refused before the token is even looked at', async () => {
    const sandbox = await testSandbox();
    const body = `{"data":{"type":"shipments","attributes":{"tags":[${Array.from({ length: 250_000 }, () => '"a"').join(',')}]}}}`;
    for (const headers of [{}, { authorization: `Bearer ${await sandbox.token()}` }] as Record<string, string>[]) {
      const answer = await post(sandbox, '/shipments', body, headers);
      expect(answer.status).toBe(413);
      expect(answer.body.errors[0].detail).toBe('The request body is larger than 256 KiB, the most POST /shipments takes.');
    }
  });

  it('a body holding more than 20,000 values is refused before it is parsed, even where files make the limit large', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const parse = vi.spyOn(JSON, 'parse');
    const wide = `{"data":{"type":"shops","attributes":{${members(30_000)}}}}`;
    const answer = await post(sandbox, '/shops', wide, { authorization: `Bearer ${token}` });
    const parsedBody = parse.mock.calls.filter(([text]) => text === wide).length;
    parse.mockRestore();
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        detail: 'The request body holds more than 20,000 values (members and items); no request of this API holds that many.',
        source: { pointer: '' },
      }),
    ]);
    expect(parsedBody).toBe(0);
    const long = `{"advance":[${'0,'.repeat(25_000)}0]}`;
    const clock = await post(sandbox, '/_sandbox/clock', long);
    expect(clock.status).toBe(400);
    expect(clock.body.errors[0].detail).toMatch(/more than 20,000 values/);
  });

  it('lists the first 100 violations of a body of 5,000 unknown members, and says how many more there are', async () => {
    const sandbox = await testSandbox();
    const answer = await post(sandbox, '/_sandbox/clock', `{${members(5_000, 'u')}}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toHaveLength(101);
    expect(answer.body.errors[0]).toMatchObject({ detail: "'u0' is not a known member here.", source: { pointer: '/u0' } });
    expect(answer.body.errors[99]).toMatchObject({ source: { pointer: '/u99' } });
    expect(answer.body.errors[100]).toEqual({
      status: '400',
      code: '10003',
      title: 'Invalid JSON Schema',
      detail: '4900 more violations are not listed: the first 100 of 5000 are above.',
      source: { pointer: '' },
      meta: { more_errors: 4900, total_errors: 5000 },
    });
    expect(answer.text.length).toBeLessThan(25_000);
  });

  it('a large body is scanned once and parsed once, the request log included, and the log keeps a bounded entry', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const feed = vi.spyOn(JsonDepthScanner.prototype, 'feed');
    const parse = vi.spyOn(JSON, 'parse');
    // 200 KB of a long string and a few hundred members: within every limit of POST /shops.
    const body = `{"data":{"type":"shops","attributes":{"name":"${'n'.repeat(200_000)}",${members(300)}}}}`;
    const answer = await post(sandbox, '/shops', body, { authorization: `Bearer ${token}` });
    const scanned = feed.mock.calls.reduce((sum, [text]) => sum + text.length, 0);
    const parses = parse.mock.calls.filter(([text]) => text === body).length;
    feed.mockRestore();
    parse.mockRestore();
    expect(answer.status).toBe(400);
    expect(scanned).toBe(body.length);
    expect(parses).toBe(1);
    const [entry] = (await sandbox.get('/_sandbox/requests?path=/shops&limit=1')).body.data;
    expect(entry.request).toMatchObject({ truncated: true, size: body.length });
    expect(JSON.stringify(entry.request.body).length).toBeLessThanOrEqual(17 * 1024);
  });

  it('a body that is not UTF-8 is refused, whole or streamed, rather than stored with replacement characters', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const before = sandbox.store.all('shops').length;
    const address = { street_1: 'Kalverstraat', street_number: 1, postal_code: '1012 NX', city: 'Amsterdam', country_code: 'NL' };
    const organization = (await sandbox.get('/shops', token)).body.data[0].relationships.organization;
    const addresses = `"sender_address":${JSON.stringify(address)},"return_address":${JSON.stringify(address)}},"relationships":{"organization":${JSON.stringify(organization)}`;
    const json = (name: Uint8Array) => Buffer.concat([Buffer.from('{"data":{"type":"shops","attributes":{"name":"'), name, Buffer.from(`",${addresses}}}}`)]);
    const send = (body: Uint8Array, length: boolean) =>
      sandbox.app.request('http://sandbox.test/shops', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/vnd.api+json',
          ...(length ? { 'content-length': String(body.byteLength) } : {}),
        },
        // Without a Content-Length the body is streamed and scanned as it arrives.
        body: length ? body : new Blob([body]).stream(),
        duplex: 'half',
      } as RequestInit);
    for (const bytes of [
      [0x41, 0xff, 0x42],
      [0xc3, 0x28],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
    ]) {
      for (const length of [true, false]) {
        const answer = await send(json(Uint8Array.from(bytes)), length);
        expect(answer.status, `${bytes} ${length}`).toBe(400);
        const [error] = ((await answer.json()) as { errors: { code: string; detail: string; source: unknown }[] }).errors;
        expect(error).toMatchObject({ code: '10003', source: { pointer: '' } });
        expect(error!.detail).toMatch(/^The request body is not valid UTF-8/);
      }
    }
    // The whole body says where it breaks: after the 46 bytes before the name and its first letter,
    // also when characters of two and three bytes come before the broken one.
    const [first] = ((await (await send(json(Uint8Array.from([0x41, 0xff])), true)).json()) as { errors: { detail: string }[] }).errors;
    expect(first!.detail).toBe('The request body is not valid UTF-8 (after byte 47); send JSON encoded as UTF-8.');
    const late = Uint8Array.from([...Buffer.from('é€'.repeat(20)), 0xff]);
    const [second] = ((await (await send(json(late), true)).json()) as { errors: { detail: string }[] }).errors;
    expect(second!.detail).toBe(`The request body is not valid UTF-8 (after byte ${46 + 100}); send JSON encoded as UTF-8.`);
    expect(sandbox.store.all('shops')).toHaveLength(before);
    // Characters of every length in UTF-8 still go through, whole and streamed.
    for (const length of [true, false]) {
      const fine = await send(json(Buffer.from('Łódź – 東京 🚚')), length);
      expect(fine.status, await fine.clone().text()).toBe(201);
      expect(((await fine.json()) as { data: { attributes: { name: string } } }).data.attributes.name).toBe('Łódź – 東京 🚚');
    }
  });

  it('a body that is not JSON is answered with where it breaks, never with its text', async () => {
    const sandbox = await testSandbox();
    const answer = await post(sandbox, '/_sandbox/clock', '{"advance": 60,\n "client_secret": "hunter2-s3cret" "x": 1}');
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        detail: "The request body is not valid JSON: ',' or '}' was expected at line 2, column 36 (character 52).",
        source: { pointer: '' },
      }),
    ]);
    const short = await post(sandbox, '/_sandbox/clock', 'hunter2-s3cret');
    expect(short.body.errors[0].detail).toBe('The request body is not valid JSON: a value was expected at line 1, column 1 (character 1).');
    const [logged] = (await sandbox.get('/_sandbox/requests?limit=2')).body.data;
    expect(JSON.stringify(logged)).not.toContain('hunter2');
  });
});
