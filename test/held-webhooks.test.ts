import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RUNS_PER_TENANT } from '../src/domain/scheduler.js';
import { DataWriteError } from '../src/store/persistence-api.js';
import { JournalPersistence } from '../src/store/journal-persistence.js';
import { testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

/**
 * A local webhook receiver. Held, it answers nothing until the test calls `release()`, as a
 * receiver that never answers does; `reached(n)` resolves once n deliveries have arrived, so the
 * test knows how far the sandbox got without sleeping.
 */
class Receiver {
  readonly received: Json[] = [];
  url = '';
  private server!: Server;
  private held: (() => void)[] = [];
  private waits: { count: number; resolve: () => void }[] = [];

  private holding = false;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        this.received.push(JSON.parse(body));
        const answer = () => response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
        if (this.holding) this.held.push(answer);
        else answer();
        for (const wait of this.waits) if (this.received.length >= wait.count) wait.resolve();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks`;
  }

  reached(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waits.push({ count, resolve }));
  }

  /** Forgets what arrived, and holds the answers from now on. */
  hold(): void {
    this.received.length = 0;
    this.holding = true;
  }

  /** Answers every held delivery, and every later one at once. */
  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function sendResourceHook(sandbox: TestSandbox, token: string, url: string, resourceType: string): Promise<string> {
  const organization = (await sandbox.get('/organizations', token)).body.data[0];
  const made = await sandbox.request('POST', '/hooks', {
    token,
    body: {
      data: {
        type: 'hooks',
        attributes: {
          name: 'Notify',
          order: 100,
          active: true,
          trigger: { resource_type: resourceType, resource_action: 'create' },
          action: { action_type: 'send-resource', values: [{ url, tries: 1 }] },
        },
        relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
      },
    },
  });
  expect(made.status).toBe(201);
  return made.body.data.id;
}

/** Moves the clock of the token's tenant, noting when the answer came. */
function moveOwnClock(sandbox: TestSandbox, token: string, advance: number) {
  const move = { answered: false, answer: sandbox.request('POST', '/_sandbox/clock', { token, body: { advance } }) };
  void move.answer.then(() => (move.answered = true));
  return move;
}

/** The other tenant: a registered shipment whose statuses go to a receiver that answers at once. */
async function registeringNeighbour(sandbox: TestSandbox, receiver: Receiver) {
  const w = await world(sandbox, 'sandbox-client');
  const hook = await sendResourceHook(sandbox, w.token, receiver.url, 'shipment-statuses');
  const service = w.service('postnl-parcel-standard', 'NL');
  const body = shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { register_at: TEST_NOW } });
  const shipment = await createShipment(sandbox, w.token, body);
  return { w, hook, shipment };
}

const held = new Receiver();
const prompt = new Receiver();
beforeAll(() => Promise.all([held.start(), prompt.start()]));
afterAll(() => Promise.all([held.stop(), prompt.stop()]));

describe("a tenant's webhook receiver that does not answer", () => {
  it("holds back only its own hook's deliveries: another tenant's registration and webhooks go on, its clock move answers", async () => {
    const sandbox = await testSandbox();
    held.hold();
    prompt.received.length = 0;
    // The stuck tenant: two new shipments, each a delivery of one hook to the receiver that holds its answer.
    const stuck = await world(sandbox, 'other-client');
    const stuckHook = await sendResourceHook(sandbox, stuck.token, held.url, 'shipments');
    const first = await createShipment(sandbox, stuck.token, shipmentBody({ shop: stuck.shopIn('GB'), recipient: recipients.GB }));
    const second = await createShipment(sandbox, stuck.token, shipmentBody({ shop: stuck.shopIn('GB'), recipient: recipients.GB }));
    const neighbour = await registeringNeighbour(sandbox, prompt);

    const stuckMove = moveOwnClock(sandbox, stuck.token, 0);
    await held.reached(1);
    const neighbourMove = await sandbox.request('POST', '/_sandbox/clock', { token: neighbour.w.token, body: { advance: 60 } });

    // The neighbour's move ran its registration and delivered its statuses while the receiver held.
    expect(neighbourMove.status).toBe(200);
    const statuses = (await sandbox.get(`/shipments/${neighbour.shipment.id}/statuses`, neighbour.w.token)).body.data;
    expect(statuses.map((status: Json) => status.relationships.status.data.id)).toHaveLength(2);
    expect(prompt.received.map((document) => document.data.id).sort()).toEqual(statuses.map((status: Json) => status.id).sort());
    const neighbourLogs = (await sandbox.get(`/hooks/${neighbour.hook}/logs`, neighbour.w.token)).body.data;
    expect(neighbourLogs.map((log: Json) => log.meta.delivery.status)).toEqual([200, 200]);
    // The stuck hook's second delivery waits behind its first, and the stuck tenant's move waits for both.
    expect(held.received.map((document) => document.data.id)).toEqual([first.id]);
    expect(stuckMove.answered).toBe(false);
    expect((await sandbox.get(`/hooks/${stuckHook}/logs`, stuck.token)).body.data).toEqual([]);

    held.release();
    expect((await stuckMove.answer).status).toBe(200);
    expect(held.received.map((document) => document.data.id)).toEqual([first.id, second.id]);
    const stuckLogs = (await sandbox.get(`/hooks/${stuckHook}/logs`, stuck.token)).body.data;
    expect(stuckLogs.map((log: Json) => [log.relationships.resource.data.id, log.meta.delivery]).sort()).toEqual(
      [first.id, second.id].sort().map((id) => [id, { url: held.url, attempt: 1, tries: 1, status: 200 }]),
    );
  });

  it('takes no more than its share of the delivery slots with many hooks', async () => {
    const sandbox = await testSandbox();
    held.hold();
    const stuck = await world(sandbox, 'other-client');
    const hooks: string[] = [];
    for (let i = 0; i <= MAX_RUNS_PER_TENANT; i += 1) hooks.push(await sendResourceHook(sandbox, stuck.token, held.url, 'shipments'));
    await createShipment(sandbox, stuck.token, shipmentBody({ shop: stuck.shopIn('GB'), recipient: recipients.GB }));
    const neighbour = await registeringNeighbour(sandbox, prompt);

    const stuckMove = moveOwnClock(sandbox, stuck.token, 0);
    await held.reached(MAX_RUNS_PER_TENANT);
    expect((await sandbox.request('POST', '/_sandbox/clock', { token: neighbour.w.token, body: { advance: 60 } })).status).toBe(200);
    const neighbourLogs = (await sandbox.get(`/hooks/${neighbour.hook}/logs`, neighbour.w.token)).body.data;
    expect(neighbourLogs.map((log: Json) => log.meta.delivery.status)).toEqual([200, 200]);
    // One hook for each slot the tenant may take, and one more: that one waits for a slot of its own tenant.
    expect(held.received).toHaveLength(MAX_RUNS_PER_TENANT);

    held.release();
    expect((await stuckMove.answer).status).toBe(200);
    expect(held.received).toHaveLength(hooks.length);
    for (const hook of hooks) expect((await sandbox.get(`/hooks/${hook}/logs`, stuck.token)).body.data).toHaveLength(1);
  });

  it("keeps a hook's order when the outcome of one delivery cannot be written: the next waits for it", async () => {
    // The data file refuses writes once the first delivery arrived, as a disk that just filled up.
    let refusing = false;
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-held-webhooks-')), 'sandbox.json');
    const persistence = new JournalPersistence(file, {
      faults: { append: () => (refusing && prompt.received.length > 0 ? { written: 0, code: 'ENOSPC' } : undefined) },
    });
    const sandbox = await testSandbox({ persistence });
    prompt.received.length = 0;
    const w = await world(sandbox, 'other-client');
    const hook = await sendResourceHook(sandbox, w.token, prompt.url, 'shipments');
    const first = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('GB'), recipient: recipients.GB }));
    const second = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('GB'), recipient: recipients.GB }));

    refusing = true;
    await expect(sandbox.services.jobs.runDue()).rejects.toBeInstanceOf(DataWriteError);
    refusing = false;
    await sandbox.services.jobs.runDue();
    // The first went again (its outcome was not kept), and only then the second.
    expect(prompt.received.map((document) => document.data.id)).toEqual([first.id, first.id, second.id]);
    const logs = (await sandbox.get(`/hooks/${hook}/logs`, w.token)).body.data;
    expect(logs.map((log: Json) => log.relationships.resource.data.id).sort()).toEqual([first.id, second.id].sort());
    await persistence.abandon();
  });
});
