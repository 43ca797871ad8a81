import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, FixtureError, type JsonApiDocument, type JsonApiResource, type Sandbox } from '../src/index.js';
import { FIXTURE_EPOCH } from '../src/fixtures/people.js';

/*
 * createSandbox with a pack of your own (`config.fixtures`), as README's "Your own fixtures" and
 * "Use in your tests" have it: `token()` gives the clients the data holds with a known secret.
 */

const START = FIXTURE_EPOCH + 10 * 86400;
const opened: Sandbox[] = [];
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'parcel-sandbox-library-packs-'));
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.close()));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function sandboxWith(config: Parameters<typeof createSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({ now: START, ...config });
  opened.push(sandbox);
  return sandbox;
}

/** Writes a pack file into the test's folder; returns its path. */
async function packFile(name: string, pack: unknown): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, typeof pack === 'string' ? pack : JSON.stringify(pack));
  return path;
}

async function list(sandbox: Sandbox, token: string, path: string): Promise<JsonApiResource[]> {
  const answer = await sandbox.request(path, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as JsonApiDocument<JsonApiResource[]>).data!;
}

describe('createSandbox on a pack', () => {
  it("started alone on an export (fixtures-only), still gives the base set's clients it holds with their secrets", async () => {
    const original = await sandboxWith();
    const exported = await original.request('/_sandbox/fixtures');
    expect(exported.status).toBe(200);
    const file = await packFile('export.json', await exported.text());
    const shops = (await list(original, await original.token(), '/shops')).map((shop) => shop.attributes.name);

    const again = await sandboxWith({ config: { fixtures: file, fixturesOnly: true } });
    // Before, token() knew no client beside a pack that stands alone, though POST /access-token
    // took sandbox-client's secret: "no seeded client 'sandbox-client'; use one of " (none).
    const token = await again.token();
    expect((await list(again, token, '/shops')).map((shop) => shop.attributes.name)).toEqual(shops);
    expect(await again.token('limited-client')).toEqual(expect.any(String));
  });

  it('reads a pack file that starts with a byte order mark, as Windows editors and PowerShell 5 write them', async () => {
    const pack = { shops: [{ key: 'bom-shop', organization: 'organization-a', name: 'Marked Shop' }] };
    const file = await packFile('marked.json', `\uFEFF${JSON.stringify(pack, null, 2)}`);
    // Before: "Not JSON: a value was expected at line 1, column 1 (character 1)."
    const sandbox = await sandboxWith({ config: { fixtures: file } });
    expect((await list(sandbox, await sandbox.token(), '/shops')).map((shop) => shop.attributes.name)).toContain('Marked Shop');
  });

  it('reads the files of a pack folder that are links to files kept elsewhere, and lists a linked pack folder under packs/', async () => {
    const kept = join(folder, 'kept');
    const linkedPack = join(folder, 'linked-pack');
    await mkdir(join(kept, 'named'), { recursive: true });
    await mkdir(join(linkedPack, 'packs'), { recursive: true });
    await writeFile(join(kept, 'shops.json'), JSON.stringify({ shops: [{ key: 'linked-shop', organization: 'organization-a', name: 'Linked Shop' }] }));
    await writeFile(join(kept, 'named', 'shops.json'), JSON.stringify({ shops: [{ key: 'named-shop', name: 'Named Shop' }] }));
    await writeFile(join(linkedPack, 'rest.json'), JSON.stringify({ shop_return_reasons: [{ shop: 'linked-shop', reason: 'organization-a:too-small' }] }));
    await symlink(join(kept, 'shops.json'), join(linkedPack, 'shops.json'));
    await symlink(join(kept, 'named'), join(linkedPack, 'packs', 'linked'));
    // Before, the linked shops.json was passed over: "rest.json#/shop_return_reasons/0/shop: There is no shop 'linked-shop'."
    const sandbox = await sandboxWith({ config: { fixtures: linkedPack } });
    expect((await list(sandbox, await sandbox.token(), '/shops')).map((shop) => shop.attributes.name)).toContain('Linked Shop');
    const packs = (await (await sandbox.request('/_sandbox/fixtures/packs')).json()) as { data: { name: string }[] };
    expect(packs.data.map((pack) => pack.name)).toContain('linked');

    // A link to nothing is named, not passed over.
    await symlink(join(kept, 'gone.json'), join(linkedPack, 'contracts.json'));
    const refused = await createSandbox({ config: { fixtures: linkedPack } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FixtureError);
    // Named, as a test runner reports it (before: "Error: ...").
    expect(String(refused)).toBe(`FixtureError: ${linkedPack}/contracts.json: A link to a file that does not exist.`);
    expect((refused as FixtureError).problems).toEqual([
      { file: `${linkedPack}/contracts.json`, pointer: '', detail: 'A link to a file that does not exist.' },
    ]);
  });

  it('says so when the data holds no client whose secret it knows', async () => {
    const original = await sandboxWith();
    const exported = (await (await original.request('/_sandbox/fixtures')).json()) as { clients: unknown[] };
    const file = await packFile('no-clients.json', { ...exported, clients: [] });
    const alone = await sandboxWith({ config: { fixtures: file, fixturesOnly: true } });
    await expect(alone.token()).rejects.toThrow("parcel-sandbox: no seeded client 'sandbox-client'; it holds no client whose secret it knows");
  });
});
