import { createHmac } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalPersistence } from '../src/store/journal-persistence.js';
import type { Persistence } from '../src/store/persistence.js';
import { testSandbox, TEST_NOW, type Json } from './support/app.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

type Received = { headers: IncomingMessage['headers']; body: string };

/** A real HTTP receiver on a random local port that answers with the statuses queued for it. */
class Receiver {
  readonly received: Received[] = [];
  answers: number[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        this.received.push({ headers: request.headers, body });
        const status = this.answers.shift() ?? 200;
        // A redirect names where to go, so a test can tell that it was not followed.
        const moved = status >= 300 && status < 400 ? { location: `${this.url}/moved` } : {};
        response.writeHead(status, { 'content-type': 'text/plain', ...moved }).end('thanks');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

async function setup(config: Json = {}, persistence?: Persistence) {
  const sandbox = await testSandbox({ config, ...(persistence ? { persistence } : {}) });
  const w = await world(sandbox);
  const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
  const statuses = (await sandbox.get('/statuses?page[size]=100', w.token)).body.data;
  const statusId = (code: string) => statuses.find((s: Json) => s.attributes.code === code).id;
  const webhook = (value: Json, predicates: Json[] = [], resourceType = 'shipment-statuses') =>
    sandbox.request('POST', '/hooks', {
      token: w.token,
      body: {
        data: {
          type: 'hooks',
          attributes: {
            name: 'Notify',
            order: 100,
            active: true,
            trigger: { resource_type: resourceType, resource_action: 'create', predicates },
            action: { action_type: 'send-resource', values: [value] },
          },
          relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
        },
      },
    });
  const registered = async () => {
    const service = w.service('postnl-parcel-standard', 'NL');
    return createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { register_at: TEST_NOW } }),
    );
  };
  return { sandbox, w, statusId, webhook, registered };
}

describe('send-resource webhooks', () => {
  it('posts the new status, signed with the secret, to a real receiver', async () => {
    const { sandbox, w, statusId, webhook, registered } = await setup();
    receiver.received.length = 0;
    const hook = await webhook({ url: receiver.url, secret: 's3cret', includes: ['status', 'shipment'] }, [
      { pointer: '/relationships/status/data/id', operator: '==', value: statusId('shipment-registered') },
    ]);
    expect(hook.status).toBe(201);
    const shipment = await registered();
    await sandbox.advance(2);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    const expected = createHmac('sha256', 's3cret').update(delivery!.body).digest('hex');
    expect(delivery!.headers['x-myparcelcom-signature']).toBe(expected);
    expect(delivery!.headers['content-type']).toBe('application/json');
    const document = JSON.parse(delivery!.body);
    expect(document.data).toMatchObject({ type: 'shipment-statuses', relationships: { shipment: { data: { id: shipment.id } } } });
    expect(document.included.map((r: Json) => r.type).sort()).toEqual(['shipments', 'statuses']);
    const logs = (await sandbox.get(`/hooks/${hook.body.data.id}/logs`, w.token)).body.data;
    expect(logs[0].meta.delivery).toMatchObject({ url: receiver.url, attempt: 1, status: 200 });
    expect(logs[0].attributes.errors).toEqual([]);
  });

  it('sends no signature header without a secret, and can fire on new shipments', async () => {
    const { sandbox, w, webhook } = await setup();
    receiver.received.length = 0;
    await webhook({ url: receiver.url }, [], 'shipments');
    await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    await sandbox.advance(0);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers).not.toHaveProperty('x-myparcelcom-signature');
    expect(JSON.parse(receiver.received[0]!.body).data.type).toBe('shipments');
  });

  it('links the payload to the server with an IPv6 host written as a URL can hold it, in brackets', async () => {
    const { sandbox, w, webhook } = await setup({ host: '::1', port: 18080 });
    receiver.received.length = 0;
    await webhook({ url: receiver.url }, [], 'shipments');
    const shipment = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    await sandbox.advance(0);
    const { links } = JSON.parse(receiver.received[0]!.body).data;
    expect(links.self).toBe(`http://[::1]:18080/shipments/${shipment.id}`);
    expect(new URL(links.files).port).toBe('18080');
  });

  it('sends the shipment as its creation left it, changed by hooks that ran after the webhook hook', async () => {
    const { sandbox, w, webhook } = await setup();
    receiver.received.length = 0;
    // Order 100: the webhooks run before the update (order 200) in the hook order.
    await webhook({ url: receiver.url }, [], 'shipments');
    await webhook({ url: receiver.url, includes: ['shipment'] });
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
    const update = await sandbox.request('POST', '/hooks', {
      token: w.token,
      body: {
        data: {
          type: 'hooks',
          attributes: {
            name: 'Channel',
            order: 200,
            active: true,
            trigger: { resource_type: 'shipments', resource_action: 'create' },
            action: { action_type: 'update-resource', values: [{ pointer: '/attributes/channel', value: 'hooked' }] },
          },
          relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
        },
      },
    });
    expect(update.status).toBe(201);
    const created = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    expect(created.attributes.channel).toBe('hooked');
    await sandbox.advance(0);
    const documents = receiver.received.map((delivery) => JSON.parse(delivery.body));
    const sent = documents.find((document: Json) => document.data.type === 'shipments');
    expect(sent.data.attributes.channel).toBe('hooked');
    expect(sent.data.relationships.hook_logs.data).toHaveLength(1);
    const status = documents.find((document: Json) => document.data.type === 'shipment-statuses');
    expect(status.included[0].attributes.channel).toBe('hooked');
  });

  it('delivers once when the data file refuses the write after the delivery is logged', async () => {
    // The second write after the receiver got the webhook fails, as on a disk that just filled up.
    let writesAfterDelivery = 0;
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-webhooks-')), 'sandbox.json');
    const persistence = new JournalPersistence(file, {
      faults: { append: () => (receiver.received.length > 0 && ++writesAfterDelivery === 2 ? { written: 0, code: 'ENOSPC' } : undefined) },
    });
    const { sandbox, w, webhook } = await setup({}, persistence);
    receiver.received.length = 0;
    const hook = await webhook({ url: receiver.url }, [], 'shipments');
    await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    // The refused write leaves the job to run again on the next tick, when the disk has room.
    await sandbox.services.jobs.runDue().catch(() => undefined);
    await sandbox.services.jobs.runDue();
    expect(receiver.received).toHaveLength(1);
    const logs = (await sandbox.get(`/hooks/${hook.body.data.id}/logs`, w.token)).body.data;
    expect(logs.filter((log: Json) => log.meta.delivery)).toHaveLength(1);
    await persistence.abandon();
  });

  it('retries a failed delivery after retry_delay on the sandbox clock, logging every attempt', async () => {
    const { sandbox, w, webhook, registered, statusId } = await setup();
    receiver.received.length = 0;
    receiver.answers = [500, 503];
    const onConcept = [{ pointer: '/relationships/status/data/id', operator: '==', value: statusId('shipment-concept') }];
    const hook = await webhook({ url: receiver.url, tries: 3, retry_delay: 60 }, onConcept);
    await registered();
    await sandbox.advance(0);
    expect(receiver.received).toHaveLength(1);
    await sandbox.advance(59);
    expect(receiver.received).toHaveLength(1);
    await sandbox.advance(1);
    expect(receiver.received).toHaveLength(2);
    await sandbox.advance(60);
    expect(receiver.received).toHaveLength(3);
    const logs = (await sandbox.get(`/hooks/${hook.body.data.id}/logs`, w.token)).body.data.reverse();
    expect(logs.map((l: Json) => l.meta.delivery.status)).toEqual([500, 503, 200]);
    expect(logs[0].attributes.errors[0]).toContain('Attempt 1 of 3');
  });

  it('posts as application/json with its user agent, and does not follow a redirect: a 3xx fails the attempt', async () => {
    const { sandbox, w, webhook } = await setup();
    receiver.received.length = 0;
    receiver.answers = [302];
    const hook = await webhook({ url: receiver.url, tries: 2, retry_delay: 60 }, [], 'shipments');
    await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    await sandbox.advance(0);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'parcel-sandbox-webhooks' });
    const [first] = (await sandbox.get(`/hooks/${hook.body.data.id}/logs`, w.token)).body.data;
    expect(first.meta.delivery).toMatchObject({ attempt: 1, status: 302 });
    expect(first.attributes.errors).toEqual([`Attempt 1 of 2: POST ${receiver.url} answered 302: thanks`]);
    await sandbox.advance(60);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received.map((r) => r.body)).toEqual([receiver.received[0]!.body, receiver.received[0]!.body]);
  });

  it('makes no attempt beyond the tries the hook was changed to while a retry waited', async () => {
    const { sandbox, w, webhook, registered, statusId } = await setup();
    receiver.received.length = 0;
    receiver.answers = [500, 500, 500];
    const onConcept = [{ pointer: '/relationships/status/data/id', operator: '==', value: statusId('shipment-concept') }];
    const hook = await webhook({ url: receiver.url, tries: 3, retry_delay: 60 }, onConcept);
    await registered();
    await sandbox.advance(0);
    expect(receiver.received).toHaveLength(1);
    const { id, attributes } = hook.body.data;
    const fewer = { ...attributes.action, values: [{ ...attributes.action.values[0], tries: 1 }] };
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
    const changed = await sandbox.request('PATCH', `/hooks/${id}`, {
      token: w.token,
      body: { data: { type: 'hooks', id, attributes: { action: fewer }, relationships: { owner: { data: { type: 'organizations', id: organization.id } } } } },
    });
    expect(changed.status).toBe(200);
    await sandbox.advance(3600);
    expect(receiver.received).toHaveLength(1);
    const logs = (await sandbox.get(`/hooks/${id}/logs`, w.token)).body.data;
    expect(logs.map((l: Json) => l.meta.delivery.attempt)).toEqual([1]);
    receiver.answers = [];
  });

  it("fires update hooks on shipment-statuses, as production's docs have it, when carrier statuses join the current status: once per join", async () => {
    const { sandbox, w, webhook, registered, statusId } = await setup();
    const shipment = await registered();
    await sandbox.advance(2);
    const simulate = async (data: Json) =>
      (await sandbox.request('POST', '/update-shipment-status', { token: w.token, body: { data: { shipment_id: shipment.id, ...data } } })).status;
    const received = statusId('shipment-received-by-carrier');
    expect(await simulate({ status_id: received })).toBe(204);
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
    const onUpdate = await sandbox.request('POST', '/hooks', {
      token: w.token,
      body: {
        data: {
          type: 'hooks',
          attributes: {
            name: 'Carrier news',
            order: 100,
            active: true,
            trigger: { resource_type: 'shipment-statuses', resource_action: 'update' },
            action: { action_type: 'send-resource', values: [{ url: receiver.url, secret: 's3cret' }] },
          },
          relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
        },
      },
    });
    expect(onUpdate.status).toBe(201);
    const onCreate = await webhook({ url: receiver.url });
    receiver.received.length = 0;
    const carrier = (code: string) => [{ code, description: 'Sorted', assigned_at: TEST_NOW + 60 }];
    // Without status_id (production's resync), and with the status the shipment already has.
    expect(await simulate({ carrier_statuses: carrier('X1') })).toBe(204);
    expect(await simulate({ status_id: received, carrier_statuses: carrier('X2') })).toBe(204);
    await sandbox.advance(0);
    expect(receiver.received).toHaveLength(2);
    const sent = receiver.received.map((r) => JSON.parse(r.body));
    const current = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data.relationships.shipment_status.data.id;
    expect(sent.map((document) => document.data.id)).toEqual([current, current]);
    expect(sent.map((document) => document.data.attributes.carrier_statuses.map((c: Json) => c.code).slice(1))).toEqual([['X1'], ['X1', 'X2']]);
    const expected = createHmac('sha256', 's3cret').update(receiver.received[1]!.body).digest('hex');
    expect(receiver.received[1]!.headers['x-myparcelcom-signature']).toBe(expected);
    // A joined carrier status makes no new shipment-status: the create hook stays quiet.
    expect((await sandbox.get(`/hooks/${onCreate.body.data.id}/logs`, w.token)).body.data).toEqual([]);
  });

  it('gives up after tries attempts, also when the receiver cannot be reached', async () => {
    const { sandbox, w, webhook, registered, statusId } = await setup();
    const onConcept = [{ pointer: '/relationships/status/data/id', operator: '==', value: statusId('shipment-concept') }];
    const hook = await webhook({ url: 'http://127.0.0.1:9/unreachable', tries: 2, retry_delay: 10 }, onConcept);
    await registered();
    await sandbox.advance(3600);
    const logs = (await sandbox.get(`/hooks/${hook.body.data.id}/logs?filter[has_errors]=true`, w.token)).body.data;
    expect(logs).toHaveLength(2);
    expect(logs[0].attributes.errors[0]).toContain('could not be reached');
  });

  it('dates each attempt when it was due on the sandbox clock, also when one move of the clock runs them all', async () => {
    const { sandbox, w, webhook, registered, statusId } = await setup();
    receiver.received.length = 0;
    receiver.answers = [500, 500, 500];
    const onConcept = [{ pointer: '/relationships/status/data/id', operator: '==', value: statusId('shipment-concept') }];
    const hook = await webhook({ url: receiver.url, tries: 3, retry_delay: 600 }, onConcept);
    await registered();
    await sandbox.advance(3600);
    expect(receiver.received).toHaveLength(3);
    const logs = (await sandbox.get(`/hooks/${hook.body.data.id}/logs`, w.token)).body.data.reverse();
    const dates = logs.map((log: Json) => log.attributes.created_at);
    expect(dates).toEqual([TEST_NOW, TEST_NOW + 600, TEST_NOW + 1200]);
  });

  it('delivers a status the clock passed when the status happened: one move of the clock runs every attempt of every status', async () => {
    const { sandbox, w, webhook } = await setup();
    receiver.received.length = 0;
    receiver.answers = Array.from({ length: 20 }, () => 500);
    try {
      const hook = await webhook({ url: receiver.url, tries: 2, retry_delay: 60 });
      const service = w.service('postnl-parcel-standard', 'NL');
      const body = shipmentBody({
        shop: w.shopIn('NL'),
        service,
        contract: w.contractFor(service),
        attributes: { register_at: TEST_NOW, tags: ['sandbox:auto-deliver'] },
      });
      const shipment = await createShipment(sandbox, w.token, body);
      // 23 hours (the token lasts a day): registered, then walked to delivered, each status at its own moment.
      await sandbox.advance(23 * 3600);
      const statuses = (await sandbox.get(`/shipments/${shipment.id}/statuses`, w.token)).body.data;
      expect(statuses).toHaveLength(6);
      const logs = (await sandbox.get(`/hooks/${hook.body.data.id}/logs?page[size]=100`, w.token)).body.data;
      // Two attempts for each status, the first when the status happened and the second retry_delay later.
      const attempts = (id: string) => logs.filter((log: Json) => log.relationships.resource.data.id === id).map((log: Json) => log.attributes.created_at);
      for (const status of statuses) expect(attempts(status.id).sort()).toEqual([status.attributes.created_at, status.attributes.created_at + 60]);
      expect(receiver.received).toHaveLength(12);
    } finally {
      receiver.answers = [];
    }
  });

  it('goes with a deleted shipment: its hook logs and the deliveries still waiting about it or its statuses', async () => {
    const { sandbox, w, webhook } = await setup();
    receiver.received.length = 0;
    receiver.answers = [500, 500];
    const onShipments = await webhook({ url: receiver.url, tries: 3, retry_delay: 60 }, [], 'shipments');
    const onStatuses = await webhook({ url: receiver.url, tries: 3, retry_delay: 60 });
    const shipment = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    await sandbox.advance(0);
    expect(receiver.received).toHaveLength(2);
    const logs = (await sandbox.get(`/hooks/${onShipments.body.data.id}/logs`, w.token)).body.data;
    expect(logs).toHaveLength(1);

    expect((await sandbox.request('DELETE', `/shipments/${shipment.id}`, { token: w.token })).status).toBe(204);
    // No log is left naming a shipment that is gone, and no retry is sent about it.
    expect((await sandbox.get(`/hook-logs/${logs[0].id}`, w.token)).status).toBe(404);
    for (const hook of [onShipments, onStatuses]) expect((await sandbox.get(`/hooks/${hook.body.data.id}/logs`, w.token)).body.data).toEqual([]);
    await sandbox.advance(3600);
    expect(receiver.received).toHaveLength(2);
    expect(sandbox.store.all('jobs').filter((job) => job.subject.includes(shipment.id))).toEqual([]);
  });

  it('refuses webhooks to hosts outside HOOK_ALLOWED_HOSTS', async () => {
    const { webhook } = await setup({ hookAllowedHosts: 'hooks.example.com,*.example.org' });
    const refused = await webhook({ url: receiver.url });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].source.pointer).toBe('/data/attributes/action/values/0/url');
    expect((await webhook({ url: 'https://a.example.org/in' })).status).toBe(201);
    expect((await webhook({ url: 'https://hooks.example.com/in' })).status).toBe(201);
  });
});
