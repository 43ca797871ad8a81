import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readmeBlocks } from './support/readme.js';
import { cliEntry, startServer } from './support/server.js';

/*
 * The Docker image on a mounted fixtures folder. No container runtime runs here, so the test runs
 * what the image holds (scripts/runtime-tree.mjs, as the Dockerfile makes /app) with the
 * Dockerfile's environment, the mount standing in as a folder: FIXTURES names where README.md's
 * `docker run -v ...:/fixtures` mounts, and the image's own /fixtures holds an empty packs/.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');

/** The variables of the Dockerfile's runtime ENV instruction. */
function imageEnv(): Record<string, string> {
  const instruction = /^ENV ((?:.*\\\n)*.*)$/m.exec(dockerfile)?.[1] ?? '';
  return Object.fromEntries(
    instruction
      .replace(/\\\n/g, ' ')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string]),
  );
}

type Json = Record<string, any>;

let work: string;
let app: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parcel-sandbox-image-'));
  app = join(work, 'app');
  // The image's /app: this run's bundle and the packages it loads, with the base set in fixtures/.
  execFileSync(process.execPath, ['scripts/runtime-tree.mjs', '--server', dirname(cliEntry()[0]!), '--out', app], { cwd: root, stdio: 'pipe' });
}, 120_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** The image's command, run on the folder it holds, with its environment but `FIXTURES` where the test mounts. */
function startImage(fixtures: string | undefined) {
  const { HOST: _host, PORT: _port, DATA_FILE: _data, FIXTURES: _fixtures, ...env } = imageEnv();
  const cmd = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
  const args = cmd.slice(1).map((arg) => (arg.startsWith('dist/') ? join(app, arg) : arg));
  return startServer({ ...env, MEMORY: 'true', ...(fixtures ? { FIXTURES: fixtures } : {}) }, [], args);
}

async function tokenFor(url: string, clientId: string, secret: string): Promise<string> {
  const answer = await fetch(`${url}/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: '*' }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

const getJson = async (url: string, token?: string) =>
  (await (await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} })).json()) as Json;

describe('the Docker image', () => {
  it("reads fixtures at /fixtures, where README.md's docker run mounts them, and makes an empty packs/ of its own", () => {
    expect(imageEnv().FIXTURES).toBe('/fixtures');
    expect(dockerfile).toMatch(/mkdir -p [^;]*"\$R\/fixtures\/packs"/);
    const run = readmeBlocks()
      .flatMap((block) => block.code.split('\n'))
      .find((line) => /^docker run .* -v \S+:\/fixtures/.test(line));
    expect(run, 'a docker run line of README.md mounting /fixtures').toBeDefined();
    expect(/-v \S+:(\/fixtures)(:ro)?\s/.exec(run!)?.[1]).toBe(imageEnv().FIXTURES);
  });

  it("starts on a mounted folder: README.md's pack over the base set, and its packs/ for tenants", async () => {
    const mount = join(work, 'my-fixtures');
    await mkdir(join(mount, 'packs'), { recursive: true });
    const pack = readmeBlocks().find((block) => block.lang === 'json' && block.flags.includes('fixtures-pack'))!;
    await writeFile(join(mount, 'my-shop.json'), pack.code);
    await writeFile(join(mount, 'packs', 'team-pack.json'), JSON.stringify({ description: 'A team shop', shops: [{ key: 'team-shop', name: 'Team Shop' }] }));
    const server = await startImage(mount);
    try {
      expect(server.output()).toContain(`fixtures:    ${mount} over the base set`);
      const token = await tokenFor(server.url, 'my-client', 'my-secret');
      expect((await getJson(`${server.url}/shops`, token)).data.map((row: Json) => row.attributes.name)).toEqual(['My Shop']);
      const packs = (await getJson(`${server.url}/_sandbox/fixtures/packs`)).data.map((row: Json) => row.name);
      expect(packs).toContain('team-pack');
      const made = await fetch(`${server.url}/_sandbox/tenants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pack: 'team-pack' }),
      });
      expect(made.status).toBe(201);
      expect(Object.keys(((await made.json()) as Json).keys.shops)).toEqual(['team-shop']);
    } finally {
      await server.stop();
    }
  });

  it('with nothing mounted seeds the base set as a start without FIXTURES does', async () => {
    const own = join(work, 'image-fixtures');
    await mkdir(join(own, 'packs'), { recursive: true });
    const seen = async (fixtures: string | undefined) => {
      const server = await startImage(fixtures);
      try {
        const token = await tokenFor(server.url, 'sandbox-client', 'sandbox-secret');
        return {
          shops: (await getJson(`${server.url}/shops`, token)).data.map((row: Json) => row.id),
          contracts: (await getJson(`${server.url}/contracts?page[size]=100`, token)).data.map((row: Json) => row.id),
          carriers: (await getJson(`${server.url}/carriers?page[size]=100`, token)).data.map((row: Json) => row.id),
        };
      } finally {
        await server.stop();
      }
    };
    const image = await seen(own);
    expect(image.shops.length).toBeGreaterThan(0);
    expect(image).toEqual(await seen(undefined));
  });
});
