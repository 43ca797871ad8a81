import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { pngLogo } from './support/matrix.js';
import { createShipment, shipmentBody, world, type World } from './support/shipments.js';

/** DELETE /hooks/{id} and DELETE /shops/{id}: what goes, what stays, and what is refused. */

async function setup(): Promise<{ sandbox: TestSandbox; w: World; organizationId: string }> {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const organizationId = (await sandbox.get('/organizations', w.token)).body.data[0].id;
  return { sandbox, w, organizationId };
}

function hookBody(
  owner: { type: string; id: string },
  action: Json = { action_type: 'update-resource', values: [{ pointer: '/attributes/channel', value: 'by-hook' }] },
): Json {
  return {
    data: {
      type: 'hooks',
      attributes: {
        name: 'Tag the channel',
        order: 100,
        active: true,
        trigger: { resource_type: 'shipments', resource_action: 'create', predicates: [] },
        action,
      },
      relationships: { owner: { data: owner } },
    },
  };
}

async function createHook(sandbox: TestSandbox, token: string, body: Json): Promise<Json> {
  const answer = await sandbox.request('POST', '/hooks', { token, body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.data;
}

describe('DELETE /hooks/{hook_id}', () => {
  it('deletes the hook with its logs, which also leave the shipment, and the hook stops running', async () => {
    const { sandbox, w, organizationId } = await setup();
    const hook = await createHook(sandbox, w.token, hookBody({ type: 'organizations', id: organizationId }));
    const shipment = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    expect(shipment.attributes.channel).toBe('by-hook');
    const logs = (await sandbox.get(`/hooks/${hook.id}/logs`, w.token)).body.data;
    expect(logs).toHaveLength(1);

    const answer = await sandbox.request('DELETE', `/hooks/${hook.id}`, { token: w.token });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect((await sandbox.get(`/hooks/${hook.id}`, w.token)).status).toBe(404);
    expect((await sandbox.get(`/hook-logs/${logs[0].id}`, w.token)).status).toBe(404);
    expect((await sandbox.get('/hooks', w.token)).body.data.map((h: Json) => h.id)).not.toContain(hook.id);
    const after = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data;
    expect(after.relationships.hook_logs.data).toEqual([]);
    // What the hook set stays set: deleting a hook does not undo its work.
    expect(after.attributes.channel).toBe('by-hook');

    const next = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    expect(next.attributes).not.toHaveProperty('channel');
    expect((await sandbox.request('DELETE', `/hooks/${hook.id}`, { token: w.token })).status).toBe(404);
  });

  it('drops the webhook deliveries still waiting to be sent', async () => {
    const { sandbox, w, organizationId } = await setup();
    const hook = await createHook(
      sandbox,
      w.token,
      hookBody({ type: 'organizations', id: organizationId }, { action_type: 'send-resource', values: [{ url: 'http://127.0.0.1:9/never' }] }),
    );
    await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const waiting = () => sandbox.store.all('jobs').filter((job) => job.subject.startsWith(`${hook.id}:`));
    expect(waiting()).toHaveLength(1);
    expect((await sandbox.request('DELETE', `/hooks/${hook.id}`, { token: w.token })).status).toBe(204);
    expect(waiting()).toEqual([]);
    await sandbox.advance(5);
    expect(sandbox.store.all('hookLogs').filter((log) => log.hook_id === hook.id)).toEqual([]);
  });

  it("answers another tenant's hook, an unknown id and a token without organizations.manage without deleting anything", async () => {
    const { sandbox, w, organizationId } = await setup();
    const hook = await createHook(sandbox, w.token, hookBody({ type: 'organizations', id: organizationId }));
    const other = await sandbox.token('other-client');
    const foreign = await sandbox.request('DELETE', `/hooks/${hook.id}`, { token: other });
    expect(foreign.status).toBe(404);
    expect(firstError(foreign)).toMatchObject({ status: '404', code: '10002' });
    const unknown = await sandbox.request('DELETE', '/hooks/00000000-0000-4000-8000-000000000000', { token: w.token });
    expect(firstError(unknown)).toMatchObject({ status: '404', code: '10002' });
    const limited = await sandbox.request('DELETE', `/hooks/${hook.id}`, { token: await sandbox.token('limited-client') });
    expect(firstError(limited)).toMatchObject({ status: '403', code: '14004' });
    expect((await sandbox.get(`/hooks/${hook.id}`, w.token)).status).toBe(200);
  });
});

async function createShop(sandbox: TestSandbox, w: World, organizationId: string): Promise<Json> {
  const answer = await sandbox.request('POST', '/shops', {
    token: w.token,
    body: {
      data: {
        type: 'shops',
        attributes: {
          name: 'Short-lived shop',
          sender_address: w.shopIn('NL').attributes.sender_address,
          return_address: w.shopIn('NL').attributes.return_address,
        },
        relationships: { organization: { data: { type: 'organizations', id: organizationId } } },
        meta: { logo: pngLogo() },
      },
    },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.data;
}

describe('DELETE /shops/{shop_id}', () => {
  it('deletes a shop without shipments with its logo, its own hooks and its collections; organization hooks stay', async () => {
    const { sandbox, w, organizationId } = await setup();
    const shop = await createShop(sandbox, w, organizationId);
    const logoPath = new URL(shop.attributes.logo_url).pathname;
    expect((await sandbox.get(logoPath)).status).toBe(200);
    const shopHook = await createHook(sandbox, w.token, hookBody({ type: 'shops', id: shop.id }));
    const orgHook = await createHook(sandbox, w.token, hookBody({ type: 'organizations', id: organizationId }));
    const from = sandbox.clock.now() + 86400;
    const collection = await sandbox.request('POST', '/collections', {
      token: w.token,
      body: {
        data: {
          type: 'collections',
          attributes: { address: shop.attributes.sender_address, collection_time: { from, to: from + 3600 } },
          relationships: { shop: { data: { type: 'shops', id: shop.id } } },
        },
      },
    });
    expect(collection.status, collection.text).toBe(201);

    const answer = await sandbox.request('DELETE', `/shops/${shop.id}`, { token: w.token });
    expect(answer.status, answer.text).toBe(204);
    expect((await sandbox.get(`/shops/${shop.id}`, w.token)).status).toBe(404);
    expect((await sandbox.get(logoPath)).status).toBe(404);
    expect((await sandbox.get(`/hooks/${shopHook.id}`, w.token)).status).toBe(404);
    expect((await sandbox.get(`/hooks/${orgHook.id}`, w.token)).status).toBe(200);
    expect((await sandbox.get(`/collections/${collection.body.data.id}`, w.token)).status).toBe(404);
    expect(sandbox.store.find('logos', 'shop_id', shop.id)).toEqual([]);
  });

  it('refuses a shop with shipments (422, 10008) and changes nothing; it goes once they are deleted', async () => {
    const { sandbox, w, organizationId } = await setup();
    const shop = await createShop(sandbox, w, organizationId);
    const shipment = await createShipment(sandbox, w.token, shipmentBody({ shop }));
    const before = sandbox.store.snapshot();
    const answer = await sandbox.request('DELETE', `/shops/${shop.id}`, { token: w.token });
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ status: '422', code: '10008' });
    expect(firstError(answer).detail).toMatch(/1 shipment and cannot be deleted/);
    expect(sandbox.store.snapshot()).toEqual(before);
    expect((await sandbox.get(`/shops/${shop.id}`, w.token)).status).toBe(200);

    expect((await sandbox.request('DELETE', `/shipments/${shipment.id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.request('DELETE', `/shops/${shop.id}`, { token: w.token })).status).toBe(204);
  });

  it("answers another tenant's shop with 404 and wants organizations.manage (production's scope; the seed's shops.manage writes shops but deletes none)", async () => {
    const { sandbox, w, organizationId } = await setup();
    const shop = await createShop(sandbox, w, organizationId);
    const foreign = await sandbox.request('DELETE', `/shops/${shop.id}`, { token: await sandbox.token('other-client') });
    expect(firstError(foreign)).toMatchObject({ status: '404', code: '10002' });
    const noScope = await sandbox.request('DELETE', `/shops/${shop.id}`, {
      token: await sandbox.token('sandbox-client', 'shops.manage shipments.manage'),
    });
    expect(firstError(noScope)).toMatchObject({ status: '403', code: '14004' });
    expect((await sandbox.get(`/shops/${shop.id}`, w.token)).status).toBe(200);
  });
});
