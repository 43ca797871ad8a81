import { mkdtemp, mkdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToExit, startServer, type RunningServer } from './support/server.js';

/*
 * The sandbox started on a pack: `--fixtures <folder or file>` (FIXTURES) over the base set,
 * `--fixtures-only` alone. A broken pack ends the start with exit 2 and one line per problem.
 */

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parcel-sandbox-start-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

type Json = Record<string, any>;

async function call(url: string, path: string, token?: string): Promise<Json> {
  const answer = await fetch(url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(answer.status, path).toBe(200);
  return (await answer.json()) as Json;
}

async function tokenFor(url: string, clientId: string, secret: string): Promise<string> {
  const answer = await fetch(`${url}/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: '*' }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

describe('--fixtures', () => {
  /*
   * One sandbox on the returns-shop pack, started on first use: the first test reads it, the
   * --fixtures-only test starts on its export. A start is ~0.8 s of CPU.
   */
  let onPack: Promise<RunningServer> | undefined;
  const returnsShop = () => (onPack ??= startServer({}, ['--memory', '--fixtures', 'fixtures/packs/returns-shop']));
  afterAll(async () => {
    await (await onPack)?.stop();
  });

  it('seeds a pack folder over the base set; the banner names it and its clients', async () => {
    const server = await returnsShop();
    expect(server.output()).toContain('fixtures:    fixtures/packs/returns-shop over the base set');
    expect(server.output()).toMatch(/returns-merchant-client\s+returns-merchant-secret/);
    expect(server.output()).toMatch(/sandbox-client\s+sandbox-secret/);
    const token = await tokenFor(server.url, 'returns-merchant-client', 'returns-merchant-secret');
    expect((await call(server.url, '/returns/v1/demo-orders?page[size]=100', token)).data).toHaveLength(8);
  });

  it('takes one file (FIXTURES), whose rows may name the base set by key', async () => {
    const file = join(work, 'one-shop.json');
    await writeFile(file, JSON.stringify({ shops: [{ key: 'extra-shop', organization: 'organization-a', name: 'Extra Shop' }] }));
    const server = await startServer({ FIXTURES: file }, ['--memory']);
    try {
      const token = await tokenFor(server.url, 'sandbox-client', 'sandbox-secret');
      const names = (await call(server.url, '/shops', token)).data.map((row: Json) => row.attributes.name);
      expect(names).toHaveLength(3);
      expect(names).toContain('Extra Shop');
    } finally {
      await server.stop();
    }
  });

  it("with --fixtures-only starts on the admin's export of another sandbox, which exports the same again", async () => {
    const exported = await call((await returnsShop()).url, '/_sandbox/fixtures');
    const file = join(work, 'export.json');
    await writeFile(file, JSON.stringify(exported));
    const second = await startServer({}, ['--memory', '--seed', '5', '--fixtures', file, '--fixtures-only']);
    try {
      expect(second.output()).toContain('(alone)');
      // The export holds the base set's clients with their published secrets: the banner offers them
      // (before, it said none of the seeded clients was in the data).
      expect(second.output()).toMatch(/^ {4}sandbox-client +sandbox-secret /m);
      expect(await call(second.url, '/_sandbox/fixtures')).toEqual(exported);
    } finally {
      await second.stop();
    }
  });
});

describe('--fixtures and --seed on a data file that exists', () => {
  const tokenStatus = async (url: string, clientId: string, secret: string) =>
    (
      await fetch(`${url}/access-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
      })
    ).status;
  const warnings = (output: string) => output.split('\n').filter((line) => line.startsWith('parcel-sandbox: '));

  it('says in one line that they were not applied, and the banner offers only clients the file holds; --reset applies them', async () => {
    const file = join(work, 'kept', 'sandbox.json');
    const first = await startServer({}, ['--data', file]);
    await first.stop();
    expect(warnings(first.output())).toEqual([]);

    const kept = await startServer({}, ['--data', file, '--fixtures', 'fixtures/packs/returns-shop', '--seed', '7']);
    try {
      // The warning is on stderr, "listening" on stdout: two pipes, so it may arrive second.
      await kept.waitFor('are not applied');
      expect(warnings(kept.output())).toEqual([
        `parcel-sandbox: the data file ${file} exists and is used as it is, so FIXTURES (--fixtures) fixtures/packs/returns-shop and SEED (--seed) 7 (it holds seed 1) are not applied; add --reset (RESET=true) to start from them, replacing its data`,
      ]);
      expect(kept.output()).toContain('fixtures:    fixtures/packs/returns-shop not seeded: the data file was there');
      expect(kept.output()).not.toContain('returns-merchant-client');
      expect(kept.output()).toMatch(/sandbox-client\s+sandbox-secret/);
      expect(await tokenStatus(kept.url, 'returns-merchant-client', 'returns-merchant-secret')).not.toBe(200);
    } finally {
      await kept.stop();
    }

    // The file's own seed, given again, is no seed left unused.
    const sameSeed = await startServer({ SEED: '1' }, ['--data', file]);
    await sameSeed.stop();
    expect(warnings(sameSeed.output())).toEqual([]);

    const reset = await startServer({}, ['--data', file, '--fixtures', 'fixtures/packs/returns-shop', '--seed', '7', '--reset']);
    try {
      expect(warnings(reset.output())).toEqual([]);
      expect(reset.output()).toMatch(/returns-merchant-client\s+returns-merchant-secret/);
      expect(await tokenStatus(reset.url, 'returns-merchant-client', 'returns-merchant-secret')).toBe(200);
    } finally {
      await reset.stop();
    }
    // The reset data file is the seed's: started again with it, nothing is left unused.
    const again = await startServer({}, ['--data', file, '--seed', '7']);
    await again.stop();
    expect(warnings(again.output())).toEqual([]);
  });
});

describe('a broken pack at start: exit 2, one line per problem', () => {
  it('names the file and the JSON pointer of each problem', async () => {
    const pack = join(work, 'broken');
    await mkdir(pack);
    await writeFile(
      join(pack, 'contracts.json'),
      JSON.stringify({
        contracts: [
          { key: 'c', name: 'C', carrier: 'nobody', organization: 'organization-a', currency: 'EUR', status: 'active', volumetric_weight_divisor_factor: 1 },
        ],
      }),
    );
    await writeFile(
      join(pack, 'shops.json'),
      JSON.stringify({ shops: [{ key: 's', organization: 'organization-a', return_address: { street_1: 'x', city: 'y', country_code: 'QQ' } }] }),
    );
    const { code, output } = await runToExit({}, ['--memory', '--fixtures', pack]);
    expect(code).toBe(2);
    expect(output.trim().split('\n')).toEqual([
      `parcel-sandbox: fixtures: ${pack}/contracts.json#/contracts/0/carrier: There is no carrier 'nobody'.`,
      `parcel-sandbox: fixtures: ${pack}/shops.json#/shops/0/return_address/country_code: 'QQ' is not an ISO 3166-1 country code.`,
    ]);
  });

  it('refuses a file that is not JSON, saying where, and one of 50 MB without reading it', async () => {
    const text = join(work, 'not-json.json');
    await writeFile(text, '{ "shops": [ }');
    const notJson = await runToExit({}, ['--memory', '--fixtures', text]);
    expect(notJson.code).toBe(2);
    expect(notJson.output.trim()).toBe(`parcel-sandbox: fixtures: ${text}: Not JSON: a value or ']' was expected at line 1, column 14 (character 14).`);
    const big = join(work, 'big.json');
    await writeFile(big, '');
    await truncate(big, 50 * 1024 * 1024);
    const tooBig = await runToExit({}, ['--memory', '--fixtures', big]);
    expect(tooBig.code).toBe(2);
    expect(tooBig.output.trim()).toBe(`parcel-sandbox: fixtures: ${big}: The pack is 50.0 MiB; a pack may hold at most 16.0 MiB.`);
  });

  it('--fixtures-only without a pack is a usage error', async () => {
    const { code, output } = await runToExit({}, ['--memory', '--fixtures-only']);
    expect(code).toBe(2);
    expect(output.trim()).toBe('parcel-sandbox: FIXTURES_ONLY (--fixtures-only) needs a pack: set FIXTURES (--fixtures)');
  });
});
