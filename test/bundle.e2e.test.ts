import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dutchShop, shipmentBody } from '../bench/shipment-body.js';
import { tinyPng } from './support/images.js';
import { cliEntry, getToken, startServer, type RunningServer } from './support/server.js';

/*
 * `npm start`, the `bin` and the Docker image run the esbuild bundle of the server, not the tsc
 * output the other suites exercise. Bundling can break what only runs on demand (a package left
 * out of the bundle, a file read beside a package's own code), so this suite builds the bundle
 * and uses every lazily loaded part through it: labels in three formats, a logo upload, contract
 * verification, a new tenant, the OpenAPI document and the API reference page.
 *
 * The server runs from the folder the Docker image holds (scripts/runtime-tree.mjs: the bundle and
 * only the packages it loads at run time), outside the project, so nothing it lacks can be found
 * in the project's node_modules instead.
 */

type Json = Record<string, any>;

const root = fileURLToPath(new URL('..', import.meta.url));
let work: string;
let app: string;

let server: RunningServer;
let token: string;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response;
}

const json = async (method: string, path: string, body?: unknown) => {
  const response = await call(method, path, body);
  return { status: response.status, body: (await response.json()) as Json };
};

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parcel-sandbox-bundle-'));
  app = join(work, 'app');
  // From this run's bundle of the sources (test/global-setup.ts runs the same scripts/bundle.mjs;
  // bundling again was ~0.7 s of CPU). The copies the build puts beside the bundle (swagger-ui,
  // docs-browser, in .test-build/run-*) are not on the runtime folder's way up (it is under the
  // system's temporary folder), so only the runtime tree's copies are found.
  execFileSync(process.execPath, ['scripts/runtime-tree.mjs', '--server', dirname(cliEntry()[0]!), '--out', app], { cwd: root, stdio: 'pipe' });
  server = await startServer({}, ['--memory'], [join(app, 'dist', 'server', 'main.js')]);
  token = await getToken(server.url);
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packages of the bundle', () => {
  it('are each either bundled or loaded from node_modules, and are all dependencies', async () => {
    const { BUNDLED, EXTERNAL } = (await import('../scripts/bundle.mjs' as string)) as { BUNDLED: string[]; EXTERNAL: string[] };
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(new Set([...BUNDLED, ...EXTERNAL])).toEqual(new Set(Object.keys(manifest.dependencies)));
    expect(BUNDLED.filter((name) => EXTERNAL.includes(name))).toEqual([]);
  });

  it('loads pino (the log, in both formats) from the runtime folder too', () => {
    execFileSync(process.execPath, ['--input-type=module', '-e', "await import('pino');"], { cwd: app, stdio: 'pipe' });
  });
});

describe('the bundled server (npm start)', () => {
  /** Creates a shipment with the label format asked for, registers it and returns its label. */
  async function registeredLabel(serviceCode: string, mimeType: string): Promise<Json> {
    const body = shipmentBody(dutchShop((await json('GET', '/shops')).body.data)) as Json;
    body.data.attributes.register_at = ((await (await fetch(`${server.url}/_sandbox/clock`)).json()) as Json).now;
    body.meta = { service_code: serviceCode, label: { mime_type: mimeType, size: 'A6' } };
    const created = await json('POST', '/shipments', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await fetch(`${server.url}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advance": 60}' });
    const files = await json('GET', `/shipments/${created.body.data.id}/files`);
    return files.body.data.find((file: Json) => file.attributes.document_type === 'label');
  }

  it('registers shipments and serves their labels as PDF, ZPL and PNG', async () => {
    const signatures: Record<string, Buffer> = {
      'application/pdf': Buffer.from('%PDF-'),
      'application/zpl': Buffer.from('^XA'),
      'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    };
    const labels = [await registeredLabel('postnl-parcel-standard', 'application/zpl'), await registeredLabel('dpd-classic', 'image/png')];
    const formats = labels.flatMap((label) => label.attributes.formats.map((format: Json) => [label.id, format.mime_type] as const));
    expect(new Set(formats.map(([, mime]) => mime))).toEqual(new Set(Object.keys(signatures)));
    for (const [id, accept] of formats) {
      const response = await call('GET', `/files/${id}`, undefined, { accept });
      expect(response.status, accept).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.subarray(0, signatures[accept]!.length).equals(signatures[accept]!), accept).toBe(true);
    }
  });

  it('stores an uploaded logo and serves it', async () => {
    const shop = dutchShop((await json('GET', '/shops')).body.data);
    const organization = (await json('GET', '/organizations')).body.data[0].id;
    const logo = { mime_type: 'image/png', contents: tinyPng().toString('base64') };
    const created = await json('POST', '/shops', {
      data: {
        type: 'shops',
        attributes: { name: 'Bundle Shop', sender_address: shop.attributes.sender_address, return_address: shop.attributes.return_address },
        relationships: { organization: { data: { type: 'organizations', id: organization } } },
      },
      meta: { logo },
    });
    expect(created.status).toBe(201);
    const served = await fetch(created.body.data.attributes.logo_url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(tinyPng())).toBe(true);
  });

  it('verifies a new contract against its carrier credentials schema', async () => {
    const carriers = (await json('GET', '/carriers')).body.data;
    const postnl = carriers.find((carrier: Json) => carrier.attributes.code === 'postnl');
    const organization = (await json('GET', '/organizations')).body.data[0].id;
    const created = await json('POST', '/contracts', {
      data: {
        type: 'contracts',
        attributes: { name: 'Bundle contract', currency: 'EUR', credentials: { customer_code: 'DEVC', customer_number: '11223344', api_key: 'k'.repeat(32) } },
        relationships: { carrier: { data: { type: 'carriers', id: postnl.id } }, owner: { data: { type: 'organizations', id: organization } } },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.status).toBe('pending');
    await fetch(`${server.url}/_sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advance": 600}' });
    expect((await json('GET', `/contracts/${created.body.data.id}`)).body.data.attributes.status).toBe('active');
  });

  it('creates a tenant with generated data', async () => {
    const answer = await fetch(`${server.url}/_sandbox/tenants`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(201);
    expect(((await answer.json()) as Json).client_id).toMatch(/^tenant-/);
  });

  it('serves the OpenAPI document and the API reference page with its assets', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    expect(document.paths['/shipments']).toBeDefined();
    const page = await (await fetch(`${server.url}/docs`)).text();
    const assets = [...page.matchAll(/(?:href|src)="([^"]*docs\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect((await fetch(new URL(asset, `${server.url}/`))).status, asset).toBe(200);
  });
});
