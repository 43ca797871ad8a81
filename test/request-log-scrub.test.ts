/**
 * Whatever reaches the request log, a secret of the request does not show in the entry it reads
 * back: the log is handed requests and answers as the capture keeps them (as the app would, with
 * answers the app may not give today), and each shape a secret can travel in is checked.
 */
import { describe, expect, it } from 'vitest';
import { RequestLog, type RawEntry, type RawMessage } from '../src/requestlog/log.js';
import type { Json } from './support/app.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** One logged request: `request` and `response` as the capture keeps them. */
function entry(url: string, request: Partial<RawMessage>, response: Partial<RawMessage>, method = 'POST'): RawEntry {
  const path = url.slice(url.indexOf('/', 8));
  return {
    id: 1,
    time: 1_700_000_000,
    method,
    url,
    path,
    status: 400,
    duration_ms: 1,
    request: { headers: {}, type: '', ...request },
    response: { headers: JSON_TYPE, type: 'application/json', ...response },
  };
}

/** The entry as GET /_sandbox/requests shows it, and its JSON text. */
function shown(raw: RawEntry) {
  const log = new RequestLog(4);
  log.add(raw);
  const [logged] = log.list({ limit: 1 });
  return { logged: logged as Json, text: JSON.stringify(logged) };
}

/** A JSON:API error document whose detail is `detail`. */
const errorAnswer = (detail: string) => JSON.stringify({ errors: [{ status: '400', code: '10003', title: 'Invalid JSON Schema', detail }] });

describe('the request log scrubs secrets of the request from the answer', () => {
  it('out of an error that quotes a short body it cannot parse, whole', () => {
    const body = '{"client_id":"x","client_secret":"pw1"x}';
    const { logged, text } = shown(
      entry(
        'http://sandbox.test/access-token',
        { headers: JSON_TYPE, type: 'application/json', text: body },
        {
          text: errorAnswer(`The request body is not valid JSON: Unexpected token 'x', "${body}" is not valid JSON.`),
        },
      ),
    );
    expect(logged.request.note).toMatch(/not shown/);
    expect(logged.response.body.errors[0].detail).toContain('"client_secret":"[REDACTED]"');
    expect(text).not.toContain('pw1');
  });

  it('out of an error that quotes a cut part of it', () => {
    const body = '{"client_id":"x","client_secret":SPARSESECRET789}';
    const { text } = shown(
      entry(
        'http://sandbox.test/access-token',
        { headers: JSON_TYPE, type: 'application/json', text: body },
        {
          text: errorAnswer(`The request body is not valid JSON: Unexpected token 'S', ..."t_secret":SPARSESECR"... is not valid JSON.`),
        },
      ),
    );
    expect(text).not.toContain('SPARSESECR');
  });

  it('out of an error that quotes a value it refused, under any name, also when short', () => {
    const body = JSON.stringify({ data: { attributes: { password: 'hunter2', webhook_secret: 'LONGSECRETVALUE1' } } });
    const { logged, text } = shown(
      entry(
        'http://sandbox.test/hooks',
        { headers: JSON_TYPE, type: 'application/json', text: body },
        {
          text: errorAnswer("'password' must not be 'hunter2'; 'name' must not be LONGSECRETVALUE1."),
        },
      ),
    );
    expect(logged.response.body.errors[0].detail).toBe("'password' must not be '[REDACTED]'; 'name' must not be [REDACTED].");
    expect(text).not.toMatch(/hunter2|LONGSECRETVALUE1/);
  });

  it('out of a text answer and a Location header that carry a secret query value', () => {
    const { logged, text } = shown(
      entry(
        'http://sandbox.test/files?token=tk1&api_key=KEYVALUE9876',
        {},
        {
          headers: { 'content-type': 'text/html', location: 'http://sandbox.test/files/1?api_key=KEYVALUE9876&token=tk1' },
          type: 'text/html',
          text: '<a href="/files?token=tk1&amp;page=2">next</a> KEYVALUE9876',
        },
        'GET',
      ),
    );
    expect(logged.path).toBe('/files?token=%5BREDACTED%5D&api_key=%5BREDACTED%5D');
    expect(logged.response.headers.location).toBe('http://sandbox.test/files/1?api_key=%5BREDACTED%5D&token=%5BREDACTED%5D');
    expect(logged.response.body).toBe('<a href="/files?token=%5BREDACTED%5D&amp;page=2">next</a> [REDACTED]');
    expect(text).not.toMatch(/tk1|KEYVALUE9876/);
  });

  it('out of request headers that are not secret by name (a Referer with a secret query)', () => {
    const { logged, text } = shown(
      entry('http://sandbox.test/shops', { headers: { referer: 'https://docs.test/try?password=opensesame1&x=1', 'x-api-key': 'APIKEYVALUE42' } }, {}, 'GET'),
    );
    expect(logged.request.headers).toEqual({ referer: 'https://docs.test/try?password=%5BREDACTED%5D&x=1', 'x-api-key': '[REDACTED]' });
    expect(text).not.toMatch(/opensesame1|APIKEYVALUE42/);
  });

  it('out of a query value that holds a secret member or pair, encoded', () => {
    const filter = encodeURIComponent(JSON.stringify({ password: 'pw2', note: 'x' }));
    const next = encodeURIComponent('https://shop.test/back?token=tk2');
    const { logged, text } = shown(entry(`http://sandbox.test/shops?filter=${filter}&next=${next}`, {}, {}, 'GET'));
    expect(text).not.toMatch(/pw2|tk2/);
    expect(decodeURIComponent(logged.path)).toBe('/shops?filter={"password":"[REDACTED]","note":"x"}&next=https://shop.test/back?token=[REDACTED]');
  });

  it('out of member names (a form whose key is JSON) and of answers that echo a secret as a whole string', () => {
    const { logged, text } = shown(
      entry(
        'http://sandbox.test/access-token',
        {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          type: 'application/x-www-form-urlencoded',
          text: '{"client_secret":"s3"}&client_secret=s4',
        },
        { text: JSON.stringify({ echo: { '{"client_secret":"s3"}': 's4', seen: 's3' } }) },
      ),
    );
    expect(logged.request.body).toEqual({ '{"client_secret":"[REDACTED]"}': '', client_secret: '[REDACTED]' });
    expect(logged.response.body).toEqual({ echo: { '{"client_secret":"[REDACTED]"}': '[REDACTED]', seen: '[REDACTED]' } });
    expect(text).not.toMatch(/s3|s4/);
  });
});
