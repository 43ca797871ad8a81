import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

/**
 * An empty filter gets one answer everywhere: a 400 naming it. Before, `filter[shop]=` on
 * /shipments answered an empty list, `filter[name]=` on /regions every region and
 * `filter[search]=` a 400, so a filter whose value was never set hid itself differently per filter.
 */

let sandbox: TestSandbox;
let token: string;
let filtered: { path: string; filter: string }[];

/** A value each kind of path parameter takes, so that the request reaches its query. */
function filledIn(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name.endsWith('_id')) return '00000000-0000-4000-8000-000000000000';
    if (name === 'country_code') return 'NL';
    if (name === 'postal_code') return '1012AB';
    throw new Error(`no value for path parameter ${name} of ${path}`);
  });
}

beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
  const { paths } = (await sandbox.get('/openapi.json')).body as { paths: Record<string, Json> };
  filtered = Object.entries(paths).flatMap(([path, operations]) =>
    ((operations.get?.parameters ?? []) as Json[])
      .filter((parameter) => parameter.in === 'query' && parameter.name.startsWith('filter['))
      .map((parameter) => ({ path, filter: parameter.name as string })),
  );
});

describe('an empty filter', () => {
  it('is found on the list endpoints', () => {
    expect(filtered.length).toBeGreaterThan(50);
    expect(filtered).toContainEqual({ path: '/shipments', filter: 'filter[shop]' });
    expect(filtered).toContainEqual({ path: '/regions', filter: 'filter[name]' });
  });

  it('is a 400 naming the filter on every endpoint, whatever the filter', async () => {
    for (const { path, filter } of filtered) {
      for (const value of ['', '%20%20']) {
        const answer = await sandbox.get(`${filledIn(path)}?${filter}=${value}`, token);
        expect(answer.status, `${path}?${filter}=${value}: ${answer.text}`).toBe(400);
        const error = firstError(answer);
        expect(error.source, `${path}?${filter}`).toEqual({ parameter: filter });
        expect(error.detail).toContain('is empty');
      }
    }
  });

  it('is also a list of commas alone, where a filter takes a list', async () => {
    for (const filter of ['filter[shop]', 'filter[tags]', 'filter[current_status_code]']) {
      const answer = await sandbox.get(`/shipments?${filter}=,%20,`, token);
      expect(answer.status, `${filter}: ${answer.text}`).toBe(400);
      expect(firstError(answer).source).toEqual({ parameter: filter });
    }
  });

  it('leaves a filter with a value, and empty entries between values, as they were', async () => {
    const shops = (await sandbox.get('/shops', token)).body.data as Json[];
    const answer = await sandbox.get(`/shipments?filter[shop]=${shops[0].id},,`, token);
    expect(answer.status, answer.text).toBe(200);
    expect((await sandbox.get('/regions?filter[name]=Earth', token)).status).toBe(200);
  });
});
