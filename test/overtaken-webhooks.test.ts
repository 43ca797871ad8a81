import { createServer, type ServerResponse, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeJsonSyntax } from '../src/controls/pack-source.js';
import { loadStartPack } from '../src/fixtures/start-pack.js';
import type { Logger } from '../src/http/services.js';
import { JournalPersistence } from '../src/store/journal-persistence.js';
import { tenantWithToken, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody } from './support/shipments.js';

/*
 * A webhook delivery whose data goes away while its request is out (a tenant reset, a pack
 * tenant's reset that puts its hook back, a sandbox reset, a tenant removal, the shipment
 * deleted): its outcome belongs to data that is gone, so it writes nothing into what is there
 * now, neither a hook log nor a retry. Deliveries whose data stayed keep their outcome. A delivery
 * still out when the sandbox stops keeps its job in the data file, and goes again after a restart.
 */

/**
 * A local receiver that answers nothing until the test does: `next()` resolves with the next
 * delivery that arrived (its body and a function answering it with a status).
 */
class HeldReceiver {
  url = '';
  private server!: Server;
  private arrived: { body: Json; answer: (status: number) => void }[] = [];
  private waiting: ((delivery: { body: Json; answer: (status: number) => void }) => void)[] = [];
  private open = new Set<ServerResponse>();

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => {
        this.open.add(response);
        const delivery = {
          body: JSON.parse(text) as Json,
          answer: (status: number) => {
            this.open.delete(response);
            response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'thanks' : 'not now');
          },
        };
        const wait = this.waiting.shift();
        if (wait) wait(delivery);
        else this.arrived.push(delivery);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks`;
  }

  next(): Promise<{ body: Json; answer: (status: number) => void }> {
    const delivery = this.arrived.shift();
    if (delivery) return Promise.resolve(delivery);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  stop(): Promise<void> {
    for (const response of this.open) response.writeHead(200).end();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const receiver = new HeldReceiver();
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'parcel-sandbox-overtaken-'));
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await rm(folder, { recursive: true, force: true });
});

const json = { 'content-type': 'application/json' };

/** A hook's attributes: every new shipment is sent to the receiver, with a second try after a failure. */
const hookAttributes = () => ({
  name: 'Notify',
  order: 100,
  active: true,
  trigger: { resource_type: 'shipments', resource_action: 'create' },
  action: { action_type: 'send-resource', values: [{ url: receiver.url, tries: 2, retry_delay: 60 }] },
});

/** Makes a hook of the token's organization through the API. */
async function apiHook(sandbox: TestSandbox, token: string): Promise<string> {
  const organization = (await sandbox.get('/organizations', token)).body.data[0];
  const made = await sandbox.request('POST', '/hooks', {
    token,
    body: { data: { type: 'hooks', attributes: hookAttributes(), relationships: { owner: { data: { type: 'organizations', id: organization.id } } } } },
  });
  expect(made.status, made.text).toBe(201);
  return made.body.data.id;
}

/** A new shipment in the token's first shop: its delivery is queued. */
async function newShipment(sandbox: TestSandbox, token: string): Promise<Json> {
  const shop = (await sandbox.get('/shops', token)).body.data[0];
  return createShipment(
    sandbox,
    token,
    shipmentBody({ shop, recipient: shop.attributes.sender_address.country_code === 'GB' ? recipients.GB : recipients.NL }),
  );
}

/** The hook logs of a hook, as the token sees them. */
async function logs(sandbox: TestSandbox, token: string, hookId: string): Promise<Json[]> {
  const answer = await sandbox.get(`/hooks/${hookId}/logs`, token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}

/** The webhook deliveries waiting in the data (what a later clock move would send). */
const deliveries = (sandbox: TestSandbox) => sandbox.store.all('jobs').filter((job) => job.kind === 'deliver-webhook');

/** The next `count` deliveries to arrive, by the id of the resource each sends. */
async function arrivals(count: number): Promise<Map<string, { body: Json; answer: (status: number) => void }>> {
  const found = new Map<string, { body: Json; answer: (status: number) => void }>();
  for (let i = 0; i < count; i += 1) {
    const delivery = await receiver.next();
    found.set(delivery.body.data.id, delivery);
  }
  return found;
}

/** The log of each attempt: the resource it sent and the status it got. */
const attempts = (rows: Json[]) => rows.map((log) => [log.relationships.resource.data.id, log.meta.delivery.attempt, log.meta.delivery.status]);

describe('a webhook delivery whose data goes away while its request is out', () => {
  it("writes nothing into a pack tenant's reset data (its hook is back with the same id); another tenant's delivery keeps its outcome", async () => {
    const sandbox = await testSandbox();
    const pack = { hooks: [hookAttributes()] };
    const reset = await tenantWithToken(sandbox, { pack });
    const other = await tenantWithToken(sandbox, { pack });
    const hookOf = async (token: string) => (await sandbox.get('/hooks', token)).body.data[0].id as string;
    const [resetHook, otherHook] = [await hookOf(reset.token), await hookOf(other.token)];
    const gone = await newShipment(sandbox, reset.token);
    const stays = await newShipment(sandbox, other.token);

    const run = sandbox.services.jobs.runDue();
    const out = await arrivals(2);
    const answer = await sandbox.request('POST', '/_sandbox/reset', { token: reset.token, body: {}, headers: json });
    expect(answer.status, answer.text).toBe(200);
    expect(await hookOf(reset.token)).toBe(resetHook);
    // Both fail: before the fix the reset tenant's was logged about a shipment that is gone, and its retry queued in the new data.
    out.get(gone.id)!.answer(500);
    out.get(stays.id)!.answer(500);
    await run;
    expect(await logs(sandbox, reset.token, resetHook)).toEqual([]);
    expect(attempts(await logs(sandbox, other.token, otherHook))).toEqual([[stays.id, 1, 500]]);
    expect(deliveries(sandbox).map((job) => job.subject)).toEqual([`${otherHook}:${stays.id}:0`]);

    // The hook put back delivers, and logs, the shipments made after the reset.
    const kept = await newShipment(sandbox, reset.token);
    const later = sandbox.services.jobs.runDue(reset.made.body.organization_id);
    const next = await receiver.next();
    expect(next.body.data.id).toBe(kept.id);
    next.answer(200);
    await later;
    expect(attempts(await logs(sandbox, reset.token, resetHook))).toEqual([[kept.id, 1, 200]]);
  });

  it("writes nothing into the data of a sandbox reset that seeded the start pack's hook again", async () => {
    const file = join(folder, 'start-hook.json');
    await writeFile(file, JSON.stringify({ hooks: [{ organization: 'organization-a', ...hookAttributes() }] }));
    const sandbox = await testSandbox({ fixtures: await loadStartPack(file, false, describeJsonSyntax) });
    const token = await sandbox.token();
    const hookId = (await sandbox.get('/hooks', token)).body.data[0].id;
    const gone = await newShipment(sandbox, token);

    const run = sandbox.services.jobs.runDue();
    const delivery = await receiver.next();
    expect(delivery.body.data.id).toBe(gone.id);
    const answer = await sandbox.request('POST', '/_sandbox/reset', { body: {}, headers: json });
    expect(answer.status, answer.text).toBe(200);
    const fresh = await sandbox.token();
    expect((await sandbox.get('/hooks', fresh)).body.data.map((hook: Json) => hook.id)).toEqual([hookId]);
    delivery.answer(500);
    await run;
    expect(await logs(sandbox, fresh, hookId)).toEqual([]);
    expect(deliveries(sandbox)).toEqual([]);
  });

  it('writes no log naming a shipment deleted meanwhile, and queues no retry of it', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token('other-client');
    const hookId = await apiHook(sandbox, token);
    const gone = await newShipment(sandbox, token);

    const run = sandbox.services.jobs.runDue();
    const delivery = await receiver.next();
    expect(delivery.body.data.id).toBe(gone.id);
    const deleted = await sandbox.request('DELETE', `/shipments/${gone.id}`, { token });
    expect(deleted.status, deleted.text).toBe(204);
    delivery.answer(500);
    await run;
    expect(await logs(sandbox, token, hookId)).toEqual([]);
    expect(deliveries(sandbox)).toEqual([]);
  });
});

describe('a webhook delivery out when the sandbox stops', () => {
  it('stays in the data file and goes again after a restart; its answer after the close logs no error', async () => {
    const file = join(folder, 'stopping.json');
    const errors: string[] = [];
    const logger: Logger = { error: (_line, message) => errors.push(message ?? ''), warn: () => {}, info: () => {}, debug: () => {} };
    const sandbox = await testSandbox({ persistence: new JournalPersistence(file), logger });
    const token = await sandbox.token('other-client');
    const hookId = await apiHook(sandbox, token);
    const shipment = await newShipment(sandbox, token);

    const run = sandbox.services.jobs.runDue();
    const delivery = await receiver.next();
    // As SIGTERM stops the server (server/run-server.ts): the scheduler first, then the data.
    sandbox.services.jobs.shutdown();
    await sandbox.store.close();
    delivery.answer(200);
    const ended = await run.then(
      () => 'ended',
      (error: unknown) => `failed: ${String(error)}`,
    );
    expect(errors).toEqual([]);
    expect(ended).toBe('ended');

    const restarted = await testSandbox({ persistence: new JournalPersistence(file), logger });
    expect(deliveries(restarted).map((job) => job.subject)).toEqual([`${hookId}:${shipment.id}:0`]);
    const again = restarted.services.jobs.runDue();
    const second = await receiver.next();
    expect(second.body.data.id).toBe(shipment.id);
    second.answer(200);
    await again;
    expect(attempts(await logs(restarted, await restarted.token('other-client'), hookId))).toEqual([[shipment.id, 1, 200]]);
    expect(errors).toEqual([]);
    await restarted.store.close();
  });

  it("sends no more of a hook's deliveries once shut down; one that ends before the close keeps its outcome", async () => {
    const file = join(folder, 'drained.json');
    const sandbox = await testSandbox({ persistence: new JournalPersistence(file) });
    const token = await sandbox.token('other-client');
    const hookId = await apiHook(sandbox, token);
    const first = await newShipment(sandbox, token);
    const second = await newShipment(sandbox, token);

    const run = sandbox.services.jobs.runDue();
    const delivery = await receiver.next();
    expect(delivery.body.data.id).toBe(first.id);
    sandbox.services.jobs.shutdown();
    // Answered while the server drains its requests: the data is still open, so the outcome is written.
    delivery.answer(200);
    const next = receiver.next();
    // The second shipment's delivery waited for the first on the same hook: shut down, the scheduler does not send it (it did, during the drain).
    expect(await Promise.race([run.then(() => 'stopped'), next.then((late) => `sent ${late.body.data.id}`)])).toBe('stopped');
    expect(attempts(await logs(sandbox, token, hookId))).toEqual([[first.id, 1, 200]]);
    await sandbox.store.close();

    // After a restart it goes.
    const restarted = await testSandbox({ persistence: new JournalPersistence(file) });
    const again = restarted.services.jobs.runDue();
    const late = await next;
    expect(late.body.data.id).toBe(second.id);
    late.answer(200);
    await again;
    const restartedToken = await restarted.token('other-client');
    expect(attempts(await logs(restarted, restartedToken, hookId)).sort()).toEqual(
      [
        [first.id, 1, 200],
        [second.id, 1, 200],
      ].sort(),
    );
    await restarted.store.close();
  });

  it('answers a change asked for after the close 503 with Retry-After, and logs no error', async () => {
    const errors: string[] = [];
    const logger: Logger = { error: (_line, message) => errors.push(message ?? ''), warn: () => {}, info: () => {}, debug: () => {} };
    const sandbox = await testSandbox({ persistence: new JournalPersistence(join(folder, 'closed.json')), logger });
    const token = await sandbox.token('other-client');
    const organization = (await sandbox.get('/organizations', token)).body.data[0].id;
    sandbox.services.jobs.shutdown();
    await sandbox.store.close();
    // A request still running once the shutdown stopped waiting for requests (before, a 500 logged as an unexpected error).
    const late = await sandbox.request('POST', '/hooks', {
      token,
      body: { data: { type: 'hooks', attributes: hookAttributes(), relationships: { owner: { data: { type: 'organizations', id: organization } } } } },
    });
    expect([late.status, late.headers.get('retry-after'), late.body.errors[0].code]).toEqual([503, '1', '10001']);
    expect(late.body.errors[0].detail).toContain('stopping');
    expect(errors).toEqual([]);
  });
});
