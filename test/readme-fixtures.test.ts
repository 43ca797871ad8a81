import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/server/library.js';
import { README, readmeBlocks } from './support/readme.js';
import { testSandbox, type Json } from './support/app.js';

/*
 * README.md's "Your own fixtures": its small pack (the ```json fixtures-pack block) loads as the
 * section says, at start and into a tenant, and every shipped pack has its line in the table.
 */

const block = readmeBlocks().find((candidate) => candidate.lang === 'json' && candidate.flags.includes('fixtures-pack'));
const pack = JSON.parse(block?.code ?? '{}') as Json;

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parcel-sandbox-readme-pack-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("README.md's pack", () => {
  it('is there, as a ```json fixtures-pack block', () => {
    expect(block, 'a ```json fixtures-pack block').toBeDefined();
  });

  it('seeds a sandbox at start: its client signs in with its own secret and sees its shop, rates, reason and demo orders', async () => {
    const file = join(work, 'my-shop.json');
    await writeFile(file, block!.code);
    const sandbox = await createSandbox({ config: { fixtures: file } });
    try {
      const token = await sandbox.token('my-client');
      const get = async (path: string) => (await (await sandbox.request(path, { headers: { authorization: `Bearer ${token}` } })).json()) as Json;
      const shops = (await get('/shops')).data;
      expect(shops.map((row: Json) => row.attributes.name)).toEqual(['My Shop']);
      const contract = (await get('/contracts')).data.find((row: Json) => row.attributes.name === 'My PostNL');
      const rates = (await get(`/service-rates?filter[contract]=${contract.id}`)).data;
      expect(rates.map((row: Json) => row.attributes.price.amount)).toEqual([495, 695]);
      expect((await get(`/returns/v1/shops/${shops[0].id}/reasons`)).data.map((row: Json) => row.attributes.code)).toEqual(['too-small']);
      expect((await get('/returns/v1/demo-orders?page[size]=100')).data).toHaveLength(3);
    } finally {
      await sandbox.close();
    }
  });

  it('makes a tenant inline, answering the id of each key and a client of its own', async () => {
    const sandbox = await testSandbox();
    const made = await sandbox.request('POST', '/_sandbox/tenants', { body: { pack }, headers: { 'content-type': 'application/json' } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.clients).toEqual([expect.objectContaining({ key: 'my-client', organization_id: made.body.organization_id })]);
    expect(made.body.client_id).not.toBe('my-client');
    expect(made.body.shop_id).toBe(made.body.keys.shops['my-shop']);
    const answer = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: made.body.client_id, client_secret: made.body.client_secret, scope: '*' },
      headers: { 'content-type': 'application/json' },
    });
    const shops = (await sandbox.get('/shops', answer.body.access_token)).body.data;
    expect(shops.map((row: Json) => row.attributes.name)).toEqual(['My Shop']);
  });
});

describe("README.md's shipped packs", () => {
  it('has a line for every pack under fixtures/packs/', () => {
    const names = readdirSync(new URL('../fixtures/packs/', import.meta.url));
    expect(names.length).toBeGreaterThanOrEqual(4);
    const text = readFileSync(README, 'utf8');
    for (const name of names) expect(text, name).toMatch(new RegExp(`^\\| \`${name}\` \\| .+ \\|$`, 'm'));
  });
});
