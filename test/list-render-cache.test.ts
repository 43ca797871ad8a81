import { describe, expect, it } from 'vitest';
import { testSandbox, type Json } from './support/app.js';
import { REQUEST_LOG_RESPONSE_LIMIT } from '../src/requestlog/log.js';

/** Lists answered from rendered documents kept until the data changes: never stale, never another caller's. */

const zoneBody = (code: string) => ({ data: { type: 'zones', attributes: { name: code, code, country_codes: ['NL'] } } });

describe('a list asked for again', () => {
  it('is answered with the same bytes while nothing changed, and shows a change at once', async () => {
    const sandbox = await testSandbox();
    const a = await sandbox.token('sandbox-client');
    const first = await sandbox.get('/zones?page[size]=50', a);
    const again = await sandbox.get('/zones?page[size]=50', a);
    expect(again.text).toBe(first.text);
    const created = await sandbox.request('POST', '/zones', { token: a, body: zoneBody('CACHE1') });
    expect(created.status, created.text).toBe(201);
    const after = await sandbox.get('/zones?page[size]=50', a);
    expect(after.body.data.map((zone: Json) => zone.attributes.code)).toContain('CACHE1');
    expect(after.body.meta.total_records).toBe(first.body.meta.total_records + 1);
  });

  it("is another organization's own list at the same URL", async () => {
    const sandbox = await testSandbox();
    const a = await sandbox.token('sandbox-client');
    const b = await sandbox.token('other-client');
    expect((await sandbox.request('POST', '/zones', { token: a, body: zoneBody('ONLYA') })).status).toBe(201);
    const codes = async (token: string) => (await sandbox.get('/zones', token)).body.data.map((zone: Json) => zone.attributes.code);
    expect(await codes(a)).toContain('ONLYA');
    expect(await codes(b)).not.toContain('ONLYA');
    expect(await codes(a)).toContain('ONLYA');
  });

  it('keeps the query as each request wrote it in its links, and each filter its own rows', async () => {
    const sandbox = await testSandbox();
    const a = await sandbox.token('sandbox-client');
    const one = await sandbox.get('/zones?filter[country_code]=GB&filter[search]=ireland', a);
    const other = await sandbox.get('/zones?filter[search]=ireland&filter[country_code]=GB', a);
    expect(one.body.data).toEqual(other.body.data);
    expect(one.body.links.self).toContain('zones?filter[country_code]=GB&filter[search]=ireland&');
    expect(other.body.links.self).toContain('zones?filter[search]=ireland&filter[country_code]=GB&');
    const dutch = await sandbox.get('/zones?filter[country_code]=NL&filter[search]=ireland', a);
    expect(dutch.body.data).not.toEqual(one.body.data);
  });
});

describe('a large list answered again from the kept document', () => {
  it('is kept in the request log cut down as the first answer was, with each request its own headers', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const first = await sandbox.get('/services?page[size]=30', token);
    const again = await sandbox.get('/services?page[size]=30', token);
    expect(again.text).toBe(first.text);
    expect(first.text.length).toBeGreaterThan(REQUEST_LOG_RESPONSE_LIMIT);
    const log = await sandbox.get('/_sandbox/requests');
    const [second, one] = log.body.data as Json[];
    expect(one.response).toMatchObject({ truncated: true, size: Buffer.byteLength(first.text) });
    expect(second.response.body).toEqual(one.response.body);
    expect(second.response.headers['ratelimit-remaining']).toBe(String(Number(one.response.headers['ratelimit-remaining']) - 1));
  });
});
