import { beforeAll, describe, expect, it } from 'vitest';
import { testSandbox, type Json } from './support/app.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

/**
 * The pointer forms of update-resource values: production's docs set a relationship member by
 * member (`/data/id` and `/data/type` as two values), the sandbox also takes the data object and
 * the whole relationship object. Every form must end as the same relationship on the shipment.
 */

const set = (pointer: string, value: unknown, converter?: string) => ({ pointer, value, ...(converter ? { converter } : {}) });

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
  const body = (values: Json[]) => ({
    data: {
      type: 'hooks',
      attributes: {
        name: 'pointers',
        order: 100,
        active: true,
        trigger: { resource_type: 'shipments', resource_action: 'create' },
        action: { action_type: 'update-resource', values },
      },
      relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
    },
  });
  const post = (values: Json[]) => sandbox.request('POST', '/hooks', { token: w.token, body: body(values) });
  const hook = async (values: Json[]) => {
    const answer = await post(values);
    if (answer.status !== 201) throw new Error(`hook create failed: ${answer.text}`);
    return answer.body.data;
  };
  const ship = (attributes: Json = {}, relationships: { service?: Json; contract?: Json } = {}) =>
    createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.NL, attributes: { physical_properties: { weight: 500 }, ...attributes }, ...relationships }),
    );
  const logsOf = async (hookId: string) => (await sandbox.get(`/hooks/${hookId}/logs`, w.token)).body.data;
  const letterbox = w.service('postnl-letterbox-parcel', 'NL');
  return { sandbox, w, body, post, hook, ship, logsOf, letterbox, contract: w.contractFor(letterbox) };
}

describe('hooks: update-resource pointer forms', () => {
  let s: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    s = await setup();
  });

  it("runs the docs' example: service and contract set as /data/id and /data/type values", async () => {
    const { hook, ship, logsOf, sandbox, w, letterbox, contract } = await setup();
    const created = await hook([
      set('/relationships/service/data/id', letterbox.id),
      set('/relationships/service/data/type', 'services'),
      set('/relationships/contract/data/id', contract.id),
      set('/relationships/contract/data/type', 'contracts'),
    ]);
    const shipment = await ship();
    const read = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data;
    expect(read.relationships.service.data).toEqual({ type: 'services', id: letterbox.id });
    expect(read.relationships.contract.data).toEqual({ type: 'contracts', id: contract.id });
    const [log] = await logsOf(created.id);
    expect(log.attributes.errors).toEqual([]);
    expect(log.attributes.resource_diff.relationships).toMatchObject({
      service: { data: { type: 'services', id: letterbox.id } },
      contract: { data: { type: 'contracts', id: contract.id } },
    });
    expect(read.relationships.hook_logs.data).toEqual([{ type: 'hook-logs', id: log.id }]);
  });

  const forms: [string, (id: string) => Json[]][] = [
    [
      '/data/type before /data/id, without the leading /',
      (id) => [set('relationships/service/data/type', 'services'), set('relationships/service/data/id', id)],
    ],
    ['/data/id alone (the type is the one a service can have)', (id) => [set('/relationships/service/data/id', id)]],
    ['/data with {type, id}', (id) => [set('/relationships/service/data', { type: 'services', id })]],
    ['the relationship with {data: {type, id}}', (id) => [set('/relationships/service', { data: { type: 'services', id } })]],
  ];
  it.each(forms)('sets the service from %s', async (_name, values) => {
    const { hook, ship, logsOf, letterbox } = await setup();
    const created = await hook(values(letterbox.id));
    const shipment = await ship();
    expect(shipment.relationships.service.data).toEqual({ type: 'services', id: letterbox.id });
    const [log] = await logsOf(created.id);
    expect(log.attributes.resource_diff).toEqual({ relationships: { service: { data: { type: 'services', id: letterbox.id } } } });
  });

  it('never overwrites a relationship the client set, in any form', async () => {
    const { hook, ship, logsOf, w, letterbox } = await setup();
    const standard = w.service('postnl-parcel-standard', 'NL');
    const created = await hook([set('/relationships/service/data/type', 'services'), set('/relationships/service/data/id', letterbox.id)]);
    const shipment = await ship({}, { service: standard, contract: w.contractFor(standard) });
    expect(shipment.relationships.service.data.id).toBe(standard.id);
    expect((await logsOf(created.id))[0].attributes.resource_diff).toEqual({});
  });

  const refused: [string, (id: string) => Json[], string, string][] = [
    [
      "a /data/type that is not the relationship's type",
      (id) => [set('/relationships/service/data/id', id), set('/relationships/service/data/type', 'shipments')],
      '/data/attributes/action/values/1/value',
      "points at 'services' only",
    ],
    [
      'a /data/type without an id',
      () => [set('/relationships/contract/data/type', 'contracts')],
      '/data/attributes/action/values/0/pointer',
      "'/relationships/contract/data/id'",
    ],
    [
      'a /data/type whose id is for another relationship',
      (id) => [set('/relationships/service/data/id', id), set('/relationships/contract/data/type', 'contracts')],
      '/data/attributes/action/values/1/pointer',
      'sets no contract',
    ],
    [
      'a relationship shipments do not have',
      (id) => [set('/relationships/carrier/data/id', id)],
      '/data/attributes/action/values/0/pointer',
      "no relationship 'carrier'",
    ],
    [
      'a relationship only the sandbox sets',
      (id) => [set('/relationships/shipment_status/data/id', id)],
      '/data/attributes/action/values/0/pointer',
      'set by the sandbox',
    ],
    [
      'another shop for the shipment',
      (id) => [set('/relationships/shop/data/id', id)],
      '/data/attributes/action/values/0/pointer',
      'stays in the shop it was created in',
    ],
    [
      'a manifest for the shipment',
      (id) => [set('/relationships/manifest/data', { type: 'manifests', id })],
      '/data/attributes/action/values/0/pointer',
      'the latest manifest that lists it, set when one is made (POST /manifests',
    ],
    [
      'a member of data other than type and id',
      (id) => [set('/relationships/service/data/meta', { id })],
      '/data/attributes/action/values/0/pointer',
      "'/relationships/service/data/id'",
    ],
    [
      'the relationship set to an identifier without data',
      (id) => [set('/relationships/service', { type: 'services', id })],
      '/data/attributes/action/values/0/value',
      '{data: {type: "services", id}}',
    ],
    [
      '/data with another type',
      (id) => [set('/relationships/service/data', { type: 'contracts', id })],
      '/data/attributes/action/values/0/value',
      '{type: "services", id}',
    ],
    [
      'a converter on /data/type',
      () => [set('/relationships/service/data/type', 'services', 'service-code-to-id')],
      '/data/attributes/action/values/0/pointer',
      'only applies to',
    ],
    [
      'one service option by index',
      (id) => [set('/relationships/service_options/data/0', { type: 'service-options', id })],
      '/data/attributes/action/values/0/pointer',
      'as a whole',
    ],
  ];
  it.each(refused)('refuses %s with a pointer to the value', async (_name, values, pointer, detail) => {
    const before = s.sandbox.store.count('hooks');
    const answer = await s.post(values(s.letterbox.id));
    expect(answer.status, answer.text).toBe(422);
    const error = answer.body.errors.find((e: Json) => e.source?.pointer === pointer);
    expect(error, answer.text).toBeDefined();
    expect(error.code).toBe('10008');
    expect(error.detail).toContain(detail);
    expect(s.sandbox.store.count('hooks')).toBe(before);
  });

  it('checks the pointer forms on PATCH too', async () => {
    const created = await s.hook([set('/relationships/service/data/id', s.letterbox.id)]);
    const action = { action_type: 'update-resource', values: [set('/relationships/service/data/type', 'services')] };
    const answer = await s.sandbox.request('PATCH', `/hooks/${created.id}`, {
      token: s.w.token,
      body: { data: { type: 'hooks', id: created.id, attributes: { action }, relationships: { owner: { data: created.relationships.owner.data } } } },
    });
    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.errors[0].source.pointer).toBe('/data/attributes/action/values/0/pointer');
  });
});

describe("hooks: production's value types", () => {
  it('refuses a number or boolean as a value, and turns text into the number an attribute holds', async () => {
    const { post, hook, ship, sandbox, w } = await setup();
    for (const value of [1800, true]) {
      const refused = await post([set('/attributes/physical_properties/length', value)]);
      expect(refused.status, String(value)).toBe(400);
      expect(refused.body.errors[0].source).toEqual({ pointer: '/data/attributes/action/values/0/value' });
    }
    const created = await hook([set('/attributes/physical_properties/length', '1800')]);
    expect(created.attributes.action.values[0].value).toBe('1800');
    const shipment = await ship();
    const read = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data;
    expect(read.attributes.physical_properties.length).toBe(1800);
    const wrong = await post([set('/attributes/physical_properties/length', 'long')]);
    expect(wrong.status).toBe(422);
  });
});

describe('hooks: values at a member of a list', () => {
  it('makes the list when the shipment has none: /attributes/tags/-, /attributes/tags/0 and /attributes/items/0 set a first member', async () => {
    for (const [pointer, value, read] of [
      ['/attributes/tags/-', 'hooked', (a: Json) => a.tags],
      ['/attributes/tags/0', 'hooked', (a: Json) => a.tags],
      ['/attributes/items/0', { description: 'Mug', quantity: 2 }, (a: Json) => a.items],
      ['/attributes/items/-', { description: 'Mug', quantity: 2 }, (a: Json) => a.items],
    ] as const) {
      const { hook, ship, sandbox, w, logsOf } = await setup();
      const created = await hook([set(pointer, value)]);
      const shipment = await ship();
      const stored = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data.attributes;
      expect(read(stored), pointer).toEqual([value]);
      expect((await logsOf(created.id))[0].attributes.errors, pointer).toEqual([]);
    }
  });

  it('appends to a list the client sent with /-, and leaves a member the client set alone', async () => {
    const { hook, ship } = await setup();
    await hook([set('/attributes/tags/-', 'hooked'), set('/attributes/tags/0', 'not-this')]);
    expect((await ship({ tags: ['gift'] })).attributes.tags).toEqual(['gift', 'hooked']);
  });
});

describe('hooks: values that leave an attribute incomplete', () => {
  it('changes nothing and logs why when a member value makes an attribute the shipment cannot hold (an item of a quantity only)', async () => {
    const { hook, ship, sandbox, w, logsOf } = await setup();
    const created = await hook([set('/attributes/items/0/quantity', '3'), set('/attributes/channel', 'hooked')]);
    const shipment = await ship();
    const stored = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data.attributes;
    expect(stored).not.toHaveProperty('items');
    expect(stored).not.toHaveProperty('channel');
    const [log] = await logsOf(created.id);
    expect(log.attributes.resource_diff).toEqual({});
    expect(log.attributes.errors).toEqual(["The values leave '/attributes/items' invalid: '0.description' is required."]);
  });

  it('changes nothing and logs why when a value names a list member past the end', async () => {
    const { hook, ship, sandbox, w, logsOf } = await setup();
    const created = await hook([set('/attributes/channel', 'hooked'), set('/attributes/tags/5', 'late')]);
    const shipment = await ship({ tags: ['gift'] });
    const stored = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data.attributes;
    expect([stored.tags, stored.channel]).toEqual([['gift'], undefined]);
    expect((await logsOf(created.id))[0].attributes.errors).toEqual([
      "'5' is no member of the list at '/attributes/tags', which has 1: name one of them, or '-' to add one.",
    ]);
  });

  it('fills a member of an item the client sent', async () => {
    const { hook, ship, sandbox, w } = await setup();
    await hook([set('/attributes/items/0/sku', 'SKU-1'), set('/attributes/items/0/quantity', '3')]);
    const shipment = await ship({ items: [{ description: 'Mug', quantity: 2 }] });
    const stored = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data.attributes;
    expect(stored.items).toEqual([{ description: 'Mug', quantity: 2, sku: 'SKU-1' }]);
  });
});

describe('hooks: service options with values', () => {
  it("takes an option's values as an object in meta.values, as a shipment request does, and refuses them otherwise", async () => {
    const { post, hook, ship, sandbox, w } = await setup();
    const insured = w.options.find((o: Json) => o.attributes.code === 'proof-of-delivery:insured');
    const option = (meta: Json) => set('/relationships/service_options/data', [{ type: 'service-options', id: insured.id, meta }]);
    for (const meta of [{ values: '25000' }, { values: [25000] }, { amount: 25000 }]) {
      const refused = await post([option(meta)]);
      expect([refused.status, refused.body.errors[0].source], JSON.stringify(meta)).toEqual([422, { pointer: '/data/attributes/action/values/0/value' }]);
    }
    await hook([option({ values: { amount: 25000 } })]);
    const standard = w.service('postnl-parcel-standard', 'NL');
    const shipment = await ship({}, { service: standard, contract: w.contractFor(standard) });
    const stored = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data;
    expect(stored.relationships.service_options.data).toEqual([{ type: 'service-options', id: insured.id, meta: { values: { amount: 25000 } } }]);
  });
});
