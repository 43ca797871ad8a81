/**
 * Writes a sandbox data file holding the seeded fixtures plus N shipments of the bench client's
 * organization, without going through HTTP (100,000 creates over HTTP would take minutes).
 *
 *   node --import tsx bench/seed.ts --file /tmp/x/sandbox.json --shipments 100000 [--seed 1]
 *
 * It uses the project's own modules: the fixtures (`generateState`), the file persistence and
 * store (`openStore`, `filePersistence`), and the app itself for one template shipment, created
 * through `POST /shipments` in-process, so the rows have exactly the shape the API writes (the
 * shipment row with `status_code`/`shipment_status_id`, its `shipmentStatuses` row, resolved
 * service, contract and price). The other N-1 shipments are copies of it with their own ids
 * (from `tx.newId()`, so the id counter the sandbox continues from stays right), references,
 * timestamps and status rows, inserted with `store.transact` in batches. `store.close()` folds
 * the journal into the JSON snapshot, so the sandbox starts from a plain data file.
 *
 * Prints one JSON line: { file, shipments, ms, shop_id, organization_id, template_id }.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateState } from '../src/fixtures/generate.js';
import { createApp, createServices } from '../src/app.js';
import { createClock } from '../src/clock.js';
import { parseConfig } from '../src/config.js';
import { keyFileFor, loadOrCreateKeys } from '../src/keys-file.js';
import type { ShipmentRecord, ShipmentStatusRecord } from '../src/model/shipment.js';
import { filePersistence } from '../src/store/persistence.js';
import { openStore } from '../src/store/store.js';
import { BENCH_CLIENT, dutchShop, shipmentBody, type ShopResource } from './shipment-body.js';

/** Shipments per transaction: one journal append each; the journal compacts as it grows. */
const BATCH = 10_000;

/** Removes the data file, its journal segments, its key file and leftovers of earlier runs. */
async function removeDataFile(file: string): Promise<void> {
  const dir = dirname(file);
  let names: string[] = [];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const base = basename(file);
  const keys = basename(keyFileFor(file));
  for (const name of names) {
    if (name === base || name === keys || name.startsWith(`${base}.journal-`) || name === `.${base}.tmp`) await rm(join(dir, name), { force: true });
  }
}

async function json(response: Response, what: string): Promise<any> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

export async function seed(file: string, shipments: number, seedValue: number): Promise<Record<string, unknown>> {
  const started = performance.now();
  file = resolve(file);
  await mkdir(dirname(file), { recursive: true });
  await removeDataFile(file);
  const now = Math.floor(Date.now() / 1000);
  const store = await openStore({ persistence: filePersistence(file), seed: seedValue, initial: () => generateState(seedValue, now) });
  const config = parseConfig({}, { dataFile: file, seed: String(seedValue), logLevel: 'silent' });
  const keys = await loadOrCreateKeys(keyFileFor(file));
  const services = createServices({
    store,
    clock: createClock(),
    keys,
    config,
    logger: { error: console.error, warn: () => {}, info: () => {}, debug: () => {} },
  });
  const app = createApp(services);

  const token = (
    await json(
      await app.request('/access-token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: BENCH_CLIENT.id, client_secret: BENCH_CLIENT.secret, scope: '*' }),
      }),
      'POST /access-token',
    )
  ).access_token as string;
  const auth = { authorization: `Bearer ${token}` };
  const shops = (await json(await app.request('/shops', { headers: auth }), 'GET /shops')).data as ShopResource[];
  const shop = dutchShop(shops);

  let templateId: string | undefined;
  if (shipments > 0) {
    const created = await json(
      await app.request('/shipments', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify(shipmentBody(shop)),
      }),
      'POST /shipments (template)',
    );
    templateId = created.data.id as string;
  }
  // The sandbox's answer to GET /shipments/{id}, for the baseline to send the same bytes.
  if (templateId !== undefined) {
    const document = await app.request(`http://127.0.0.1:8080/shipments/${templateId}`, { headers: auth });
    await writeFile(`${file}.get-document.json`, await document.text());
  }
  const template = templateId === undefined ? undefined : store.get('shipments', templateId);
  const templateStatus = template && store.get('shipmentStatuses', template.shipment_status_id);
  if (template && !templateStatus) throw new Error('the template shipment has no shipment-status row');

  // Copies are dated before the template, one second apart, oldest first (insertion order).
  for (let done = 1; done < shipments;) {
    const count = Math.min(BATCH, shipments - done);
    await store.transact((tx) => {
      for (let i = 0; i < count; i++) {
        const n = done + i;
        const at = now - (shipments - n);
        const id = tx.newId();
        const statusId = tx.newId();
        const status: ShipmentStatusRecord = { ...templateStatus!, id: statusId, shipment_id: id, created_at: at };
        const shipment: ShipmentRecord = {
          ...template!,
          id,
          created_at: at,
          updated_at: at,
          customer_reference: `bench-${n}`,
          description: `Bench order ${n}`,
          shipment_status_id: statusId,
          status_code: template!.status_code,
        };
        tx.insert('shipments', shipment);
        tx.insert('shipmentStatuses', status);
      }
    });
    done += count;
  }
  const stored = template ? store.find('shipments', 'organization_id', template.organization_id).length : 0;
  await store.close();
  return {
    file,
    shipments: store.count('shipments'),
    visible_to_bench_client: stored,
    ms: Math.round(performance.now() - started),
    shop_id: shop.id,
    organization_id: template?.organization_id,
    template_id: templateId,
    document: templateId === undefined ? undefined : `${file}.get-document.json`,
    token,
  };
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const { values } = parseArgs({
    options: { file: { type: 'string' }, shipments: { type: 'string', default: '0' }, seed: { type: 'string', default: '1' } },
    strict: true,
  });
  if (!values.file) throw new Error('--file is required');
  seed(values.file, Number(values.shipments), Number(values.seed)).then(
    (summary) => {
      process.stdout.write(`${JSON.stringify(summary)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`seed failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
