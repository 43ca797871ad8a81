import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Answer, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody, world, type World } from './support/shipments.js';

/** A hook body: `values` set with update-resource unless an action is given. */
function hookBody(options: {
  name?: string;
  order?: number;
  active?: boolean;
  owner: Json;
  ownerType?: string;
  predicates?: Json[];
  values?: Json[];
  action?: Json;
  resourceType?: string;
  resourceAction?: string;
}) {
  return {
    data: {
      type: 'hooks',
      attributes: {
        name: options.name ?? 'hook',
        order: options.order ?? 100,
        active: options.active ?? true,
        trigger: {
          resource_type: options.resourceType ?? 'shipments',
          resource_action: options.resourceAction ?? 'create',
          predicates: options.predicates ?? [],
        },
        action: options.action ?? { action_type: 'update-resource', values: options.values ?? [{ pointer: '/attributes/channel', value: 'hooked' }] },
      },
      relationships: {
        owner: { data: { type: options.ownerType ?? 'organizations', id: typeof options.owner === 'string' ? options.owner : options.owner.id } },
      },
    },
  };
}

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
  const hook = async (options: Omit<Parameters<typeof hookBody>[0], 'owner'> & { owner?: Json }) => {
    const answer = await sandbox.request('POST', '/hooks', { token: w.token, body: hookBody({ owner: organization, ...options }) });
    if (answer.status !== 201) throw new Error(`hook create failed: ${answer.text}`);
    return answer.body.data;
  };
  // Domestic shipments, so no customs data is needed.
  const ship = (attributes: Json = {}, shop = w.shopIn('NL')) => {
    const country = shop.attributes.sender_address.country_code as keyof typeof recipients;
    return createShipment(sandbox, w.token, shipmentBody({ shop, recipient: recipients[country], attributes }));
  };
  return { sandbox, w, organization, hook, ship };
}

const set = (pointer: string, value: unknown) => ({ pointer, value });

describe('hooks: the API', () => {
  let s: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    s = await setup();
  });

  it('creates, reads, lists, filters and changes hooks of the caller only', async () => {
    const created = await s.hook({ name: 'Tag gifts', values: [set('/attributes/channel', 'hooked')] });
    expect(created.relationships.owner.data).toEqual({ type: 'organizations', id: s.organization.id });
    const list = await s.sandbox.get('/hooks?filter[action][action_type]=update-resource&include=owner', s.w.token);
    expect(list.body.data.map((h: Json) => h.id)).toContain(created.id);
    expect(list.body.included[0].type).toBe('organizations');
    const patched = await s.sandbox.request('PATCH', `/hooks/${created.id}`, {
      token: s.w.token,
      body: { data: { type: 'hooks', id: created.id, attributes: { order: 300 }, relationships: { owner: { data: created.relationships.owner.data } } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({ order: 300, name: 'Tag gifts' });
    const theirs = await s.sandbox.token('other-client');
    expect((await s.sandbox.get(`/hooks/${created.id}`, theirs)).status).toBe(404);
    expect((await s.sandbox.get('/hooks', theirs)).body.data).toEqual([]);
    const limited = await s.sandbox.get('/hooks', await s.sandbox.token('limited-client'));
    expect(limited.status).toBe(403);
    expect(firstError(limited).code).toBe('14004');
  });

  it('blames a PATCH that sends only the trigger on the trigger it sent, not on the action it kept', async () => {
    const created = await s.hook({ values: [set('/attributes/channel', 'hooked')] });
    const webhook = await s.hook({ action: { action_type: 'send-resource', values: [{ url: 'https://example.com/in', includes: ['shop'] }] } });
    const patch = (id: string, attributes: Json) =>
      s.sandbox.request('PATCH', `/hooks/${id}`, {
        token: s.w.token,
        body: { data: { type: 'hooks', id, attributes, relationships: { owner: { data: s.sandbox.store.get('hooks', id)!.owner } } } },
      });
    const onStatuses = { trigger: { resource_type: 'shipment-statuses', resource_action: 'create' } };
    for (const id of [created.id, webhook.id]) {
      const answer = await patch(id, onStatuses);
      expect([answer.status, firstError(answer).source]).toEqual([422, { pointer: '/data/attributes/trigger/resource_type' }]);
    }
    // Sent together, the action is what does not fit the trigger.
    const both = await patch(created.id, { ...onStatuses, action: { action_type: 'update-resource', values: [set('/attributes/channel', 'x')] } });
    expect([both.status, firstError(both).source]).toEqual([422, { pointer: '/data/attributes/action/action_type' }]);
  });

  it('refuses on PATCH a time predicate whose value is no duration, and leaves the hook as it was', async () => {
    const created = await s.hook({ values: [set('/attributes/channel', 'hooked')] });
    const trigger = (value: Json) => ({
      resource_type: 'shipments',
      resource_action: 'create',
      predicates: [
        { pointer: '/attributes/channel', operator: '!=', value: 'x' },
        { pointer: '/attributes/created_at', operator: 'newer_than', value },
      ],
    });
    const patch = (value: Json) =>
      s.sandbox.request('PATCH', `/hooks/${created.id}`, {
        token: s.w.token,
        body: { data: { type: 'hooks', id: created.id, attributes: { trigger: trigger(value) } } },
      });
    const refused = await patch('a fortnight');
    expect([refused.status, firstError(refused).source]).toEqual([422, { pointer: '/data/attributes/trigger/predicates/1/value' }]);
    expect((await s.sandbox.get(`/hooks/${created.id}`, s.w.token)).body.data.attributes.trigger.predicates).toEqual([]);
    const kept = await patch('2 weeks');
    expect(kept.status, kept.text).toBe(200);
  });

  const bad: [string, (owner: Json, shopOfOther: Json) => Json, number, string][] = [
    [
      'an unknown operator',
      (o) => hookBody({ owner: o, predicates: [{ pointer: '/attributes/channel', operator: '~=', value: 'x' }] }),
      400,
      '/data/attributes/trigger/predicates/0/operator',
    ],
    [
      "'in' without a list",
      (o) => hookBody({ owner: o, predicates: [{ pointer: '/attributes/channel', operator: 'in', value: 'web' }] }),
      400,
      '/data/attributes/trigger/predicates/0/value',
    ],
    // Production's predicate values are strings, numbers, arrays or objects: true or null is refused there.
    [
      'a boolean predicate value',
      (o) => hookBody({ owner: o, predicates: [{ pointer: '/attributes/channel', operator: '==', value: true }] }),
      400,
      '/data/attributes/trigger/predicates/0/value',
    ],
    [
      'a null predicate value',
      (o) => hookBody({ owner: o, predicates: [{ pointer: '/attributes/channel', operator: '!=', value: null }] }),
      400,
      '/data/attributes/trigger/predicates/0/value',
    ],
    [
      // Production's schema takes any pointer of up to 255 characters (see "what production's schema accepts").
      'a predicate pointer longer than 255 characters',
      (o) => hookBody({ owner: o, predicates: [{ pointer: `/attributes/${'x'.repeat(250)}`, operator: '==', value: 'x' }] }),
      400,
      '/data/attributes/trigger/predicates/0/pointer',
    ],
    [
      'an unknown action type',
      (o) => hookBody({ owner: o, action: { action_type: 'delete-resource', values: [] } }),
      400,
      '/data/attributes/action/action_type',
    ],
    [
      'a value of the wrong type for its pointer',
      (o) => hookBody({ owner: o, values: [set('/attributes/physical_properties/weight', 'heavy')] }),
      422,
      '/data/attributes/action/values/0/value',
    ],
    [
      'a pointer at a read-only attribute',
      (o) => hookBody({ owner: o, values: [set('/attributes/tracking_code', 'X')] }),
      422,
      '/data/attributes/action/values/0/pointer',
    ],
    [
      'an order that is not an integer',
      (o) => ({ data: { ...hookBody({ owner: o }).data, attributes: { ...hookBody({ owner: o }).data.attributes, order: 1.5 } } }),
      400,
      '/data/attributes/order',
    ],
    // Production's Price takes an ISO 4217 currency only; 'XYZ' was saved and put on the return's payment, which production's schema refuses.
    [
      'a payment in a currency that is not ISO 4217',
      (o) => hookBody({ owner: o, resourceType: 'returns', action: { action_type: 'request-payment', values: [{ price: { amount: 350, currency: 'XYZ' } }] } }),
      400,
      '/data/attributes/action/values/0/price/currency',
    ],
    [
      'a landed-cost surcharge in a currency that is not ISO 4217',
      (o) => hookBody({ owner: o, action: { action_type: 'calculate-landed-cost', values: [{ surcharge: { amount: 100, currency: 'XYZ' } }] } }),
      400,
      '/data/attributes/action/values/0/surcharge/currency',
    ],
    ['an owner of another tenant', (_o, shop) => hookBody({ owner: shop, ownerType: 'shops' }), 422, '/data/relationships/owner/data/id'],
    // Production's trigger, predicates, actions and their values are closed: a misspelt member
    // ('retries' for 'tries') would be refused there, so it is not silently dropped here.
    [
      'an unknown member of a send-resource value',
      (o) => hookBody({ owner: o, action: { action_type: 'send-resource', values: [{ url: 'https://hooks.example.com/in', retries: 5 }] } }),
      400,
      '/data/attributes/action/values/0/retries',
    ],
    [
      'an unknown member of an update-resource value',
      (o) => hookBody({ owner: o, values: [{ ...set('/attributes/channel', 'x'), convertor: 'service-code-to-id' }] }),
      400,
      '/data/attributes/action/values/0/convertor',
    ],
    [
      'an unknown member of the action',
      (o) => hookBody({ owner: o, action: { action_type: 'approve-return', value: true } }),
      400,
      '/data/attributes/action/value',
    ],
    [
      'an unknown member of the trigger',
      (o) => ({
        data: {
          ...hookBody({ owner: o }).data,
          attributes: { ...hookBody({ owner: o }).data.attributes, trigger: { resource_type: 'shipments', resource_action: 'create', predicate: [] } },
        },
      }),
      400,
      '/data/attributes/trigger/predicate',
    ],
    [
      'an unknown member of a predicate',
      (o) => hookBody({ owner: o, predicates: [{ pointer: '/attributes/channel', operator: '==', value: 'x', negate: true }] }),
      400,
      '/data/attributes/trigger/predicates/0/negate',
    ],
    [
      'an older_than value that is no duration (it would never hold)',
      (o) => hookBody({ owner: o, predicates: [{ pointer: '/attributes/created_at', operator: 'older_than', value: 'soon' }] }),
      422,
      '/data/attributes/trigger/predicates/0/value',
    ],
    [
      'update-resource on shipment statuses',
      (o) => hookBody({ owner: o, resourceType: 'shipment-statuses', values: [set('/attributes/channel', 'x')] }),
      422,
      '/data/attributes/action/action_type',
    ],
  ];
  it('names the member of an object value that does not fit its attribute', async () => {
    const refusal = async (values: Json[]) => {
      const answer = await s.sandbox.request('POST', '/hooks', { token: s.w.token, body: hookBody({ owner: s.organization, values }) });
      expect(answer.status, answer.text).toBe(422);
      return firstError(answer);
    };
    const address = await refusal([set('/attributes/recipient_address', { company: 'ACME' })]);
    expect(address.source).toEqual({ pointer: '/data/attributes/action/values/0/value' });
    expect(address.detail).toBe("The value does not fit '/attributes/recipient_address': 'street_1' is required.");
    const sizes = await refusal([set('/attributes/physical_properties', { weight: 'heavy' })]);
    expect(sizes.detail).toBe("The value does not fit '/attributes/physical_properties': 'weight' must be an integer, not a string.");
    // A value of the wrong kind, or too long, is said in the words of a schema error, not the validation library's.
    const channel = await refusal([set('/attributes/channel', { name: 'web' })]);
    expect(channel.detail).toBe("The value does not fit '/attributes/channel': it must be a string, not an object.");
    const long = await refusal([set('/attributes/channel', 'x'.repeat(256))]);
    expect(long.detail).toBe("The value does not fit '/attributes/channel': it must be at most 255 characters long.");
  });

  it.each(bad)('refuses %s', async (_name, build, status, pointer) => {
    const theirs = await world(s.sandbox, 'other-client');
    const before = s.sandbox.store.count('hooks');
    const answer = await s.sandbox.request('POST', '/hooks', { token: s.w.token, body: build(s.organization, theirs.shops[0]) });
    expect(answer.status, answer.text).toBe(status);
    expect(answer.body.errors.map((e: Json) => e.source?.pointer)).toContain(pointer);
    expect(s.sandbox.store.count('hooks')).toBe(before);
  });
});

describe('hooks: the ordering rules of the API', () => {
  it('rule 1: hooks triggered by the same action run one after another, each seeing the changes before it', async () => {
    const { hook, ship, w } = await setup();
    const letterbox = w.service('postnl-letterbox-parcel', 'NL');
    const contract = w.contractFor(letterbox);
    await hook({ order: 100, values: [set('/relationships/service/data/id', letterbox.id)] });
    await hook({
      order: 200,
      predicates: [{ pointer: '/relationships/service/data/id', operator: '==', value: letterbox.id }],
      values: [set('/relationships/contract/data/id', contract.id)],
    });
    const shipment = await ship({ physical_properties: { weight: 500 } });
    expect(shipment.relationships.service.data.id).toBe(letterbox.id);
    expect(shipment.relationships.contract.data.id).toBe(contract.id);
    expect(shipment.attributes.price).toBeDefined();
  });

  it('rule 2: a hook owned by an organization applies to all of its shops', async () => {
    const { hook, ship, w } = await setup();
    await hook({ values: [set('/attributes/channel', 'organization-hook')] });
    expect((await ship({}, w.shopIn('NL'))).attributes.channel).toBe('organization-hook');
    expect((await ship({}, w.shopIn('DE'))).attributes.channel).toBe('organization-hook');
  });

  it('rule 3: hooks owned by the shop run first, then those of its organization', async () => {
    const { hook, ship, w, sandbox } = await setup();
    const shop = w.shopIn('NL');
    const org = await hook({ order: 100, values: [set('/attributes/customer_reference', 'from-organization')] });
    const own = await hook({ order: 900, owner: shop, ownerType: 'shops', values: [set('/attributes/customer_reference', 'from-shop')] });
    const shipment = await ship({}, shop);
    expect(shipment.attributes.customer_reference).toBe('from-shop');
    const logs = (await sandbox.get(`/shipments/${shipment.id}?include=hook_logs`, w.token)).body.included;
    expect(logs.map((l: Json) => l.relationships.hook.data.id)).toEqual([own.id, org.id]);
    const other = await ship({}, w.shopIn('DE'));
    expect(other.attributes.customer_reference).toBe('from-organization');
  });

  it("PATCH moves a hook between the organization and its shops by its owner relationship, as production's update takes it", async () => {
    const { hook, ship, w, sandbox } = await setup();
    const shop = w.shopIn('NL');
    const moved = await hook({ values: [set('/attributes/channel', 'moved')] });
    const patch = (owner: Json, attributes: Json = {}) =>
      sandbox.request('PATCH', `/hooks/${moved.id}`, {
        token: w.token,
        body: { data: { type: 'hooks', id: moved.id, attributes, relationships: { owner: { data: owner } } } },
      });
    const toShop = await patch({ type: 'shops', id: shop.id }, { order: 300 });
    expect(toShop.status, toShop.text).toBe(200);
    expect([toShop.body.data.relationships.owner.data, toShop.body.data.attributes.order]).toEqual([{ type: 'shops', id: shop.id }, 300]);
    expect((await sandbox.get(`/hooks/${moved.id}`, w.token)).body.data.relationships.owner.data).toEqual({ type: 'shops', id: shop.id });
    // Now the shop's hook: it no longer runs for the organization's other shop.
    expect((await ship({}, shop)).attributes.channel).toBe('moved');
    expect((await ship({}, w.shopIn('DE'))).attributes).not.toHaveProperty('channel');
    // Another tenant's shop is refused as on create, and the hook keeps its owner.
    const theirs = await world(sandbox, 'other-client');
    const foreign = await patch({ type: 'shops', id: theirs.shops[0].id });
    expect([foreign.status, firstError(foreign).source]).toEqual([422, { pointer: '/data/relationships/owner/data/id' }]);
    const back = await patch({ type: 'organizations', id: moved.relationships.owner.data.id });
    expect(back.body.data.relationships.owner.data).toEqual(moved.relationships.owner.data);
    expect((await ship({}, w.shopIn('DE'))).attributes.channel).toBe('moved');
  });

  it('rule 4: among hooks with the same owner, lower order runs first', async () => {
    const { hook, ship } = await setup();
    await hook({ order: 200, values: [set('/attributes/channel', 'second')] });
    await hook({ order: 100, values: [set('/attributes/channel', 'first')] });
    expect((await ship()).attributes.channel).toBe('first');
  });

  it('rule 5: hooks with the same owner and order run in a random order that repeats for the same seed', async () => {
    const outcomes = async () => {
      const { hook, ship } = await setup();
      await hook({ order: 100, values: [set('/attributes/channel', 'A')] });
      await hook({ order: 100, values: [set('/attributes/channel', 'B')] });
      const channels: string[] = [];
      for (let i = 0; i < 16; i++) channels.push((await ship()).attributes.channel);
      return channels;
    };
    const first = await outcomes();
    expect(new Set(first)).toEqual(new Set(['A', 'B']));
    expect(await outcomes()).toEqual(first);
  });

  it('rule 6: a hook never overwrites a value the client or an earlier hook set', async () => {
    const { hook, ship, sandbox, w } = await setup();
    const first = await hook({ order: 100, values: [set('/attributes/description', 'from hook 100')] });
    const second = await hook({ order: 200, values: [set('/attributes/description', 'from hook 200'), set('/attributes/channel', 'hook 200')] });
    expect((await ship({ description: 'from client' })).attributes.description).toBe('from client');
    const shipment = await ship();
    expect(shipment.attributes).toMatchObject({ description: 'from hook 100', channel: 'hook 200' });
    const logs = (await sandbox.get(`/hooks/${second.id}/logs`, w.token)).body.data;
    expect(logs[0].attributes.resource_diff).toEqual({ attributes: { channel: 'hook 200' } });
    expect((await sandbox.get(`/hooks/${first.id}/logs`, w.token)).body.data[1].attributes.resource_diff).toEqual({});
  });

  it('rule 7: orders in steps of 100 leave room to insert a hook between two others', async () => {
    const { hook, ship } = await setup();
    await hook({ order: 100, values: [set('/attributes/channel', 'step-1')] });
    await hook({
      order: 200,
      predicates: [{ pointer: '/attributes/customer_reference', operator: '==', value: 'step-2' }],
      values: [set('/attributes/description', 'step-3')],
    });
    expect((await ship()).attributes).not.toHaveProperty('description');
    await hook({
      order: 150,
      predicates: [{ pointer: '/attributes/channel', operator: '==', value: 'step-1' }],
      values: [set('/attributes/customer_reference', 'step-2')],
    });
    expect((await ship()).attributes).toMatchObject({ channel: 'step-1', customer_reference: 'step-2', description: 'step-3' });
  });
});

describe('hooks: predicates, converters and consistency', () => {
  it("keeps a hook on production's other trigger actions and lists it, but runs only create triggers", async () => {
    const { sandbox, w, hook, ship } = await setup();
    const kept = [];
    for (const resourceAction of ['read', 'update', 'delete', 'import', 'register']) {
      kept.push(await hook({ name: `on ${resourceAction}`, resourceAction, values: [set('/attributes/channel', resourceAction)] }));
    }
    expect(kept.map((made) => made.attributes.trigger.resource_action)).toEqual(['read', 'update', 'delete', 'import', 'register']);
    const updates = await sandbox.get('/hooks?filter[trigger][resource_action]=update', w.token);
    expect(updates.body.data.map((listed: Json) => listed.id)).toEqual([kept[1].id]);
    const shipment = await ship();
    expect(shipment.attributes).not.toHaveProperty('channel');
    for (const made of kept) expect((await sandbox.get(`/hooks/${made.id}/logs`, w.token)).body.data).toEqual([]);
    // Not one of production's actions: refused, naming the member.
    const refused = await sandbox.request('POST', '/hooks', {
      token: w.token,
      body: hookBody({ owner: kept[0].relationships.owner.data, resourceAction: 'patch' }),
    });
    expect(refused.status).toBe(400);
    expect(firstError(refused).source.pointer).toBe('/data/attributes/trigger/resource_action');
  });

  it('keeps a calculate-landed-cost hook (production names it, not what it changes): it runs on new shipments, changes nothing, and logs so', async () => {
    const { sandbox, w, hook, ship, organization } = await setup();
    const action = { action_type: 'calculate-landed-cost', values: [{ surcharge: { amount: 250, currency: 'EUR' } }] };
    const made = await hook({ name: 'Landed cost', action });
    expect(made.attributes.action).toEqual(action);
    const shipment = await ship();
    const logs = (await sandbox.get(`/hooks/${made.id}/logs`, w.token)).body.data;
    expect(logs).toHaveLength(1);
    expect(logs[0].attributes.resource_diff).toEqual({});
    expect(logs[0].attributes.errors).toEqual([expect.stringContaining('calculate-landed-cost is not emulated')]);
    expect(logs[0].relationships.resource.data).toEqual({ type: 'shipments', id: shipment.id });
    // It acts on shipments: on a returns trigger it is refused, naming the action.
    const onReturns = await sandbox.request('POST', '/hooks', { token: w.token, body: hookBody({ owner: organization, resourceType: 'returns', action }) });
    expect(onReturns.status).toBe(422);
    expect(firstError(onReturns).source.pointer).toBe('/data/attributes/action/action_type');
  });

  it('skips an inactive hook', async () => {
    const { hook, ship } = await setup();
    await hook({ active: false, values: [set('/attributes/channel', 'never')] });
    expect((await ship()).attributes).not.toHaveProperty('channel');
  });

  const cases: [string, Json, boolean][] = [
    ['==', { pointer: '/attributes/physical_properties/weight', operator: '==', value: '1500' }, true],
    ['!=', { pointer: '/attributes/customer_reference', operator: '!=', value: 'B2B' }, true],
    ['>', { pointer: '/attributes/physical_properties/weight', operator: '>', value: 1500 }, false],
    ['<', { pointer: '/attributes/physical_properties/weight', operator: '<', value: 2000 }, true],
    ['>=', { pointer: '/attributes/physical_properties/weight', operator: '>=', value: 1500 }, true],
    ['<=', { pointer: '/attributes/physical_properties/weight', operator: '<=', value: 1499 }, false],
    ['contains (substring)', { pointer: 'attributes/recipient_address/city', operator: 'contains', value: 'dam' }, true],
    ['contains (array member)', { pointer: '/attributes/tags', operator: 'contains', value: 'gift' }, true],
    ['contains (missing member)', { pointer: '/attributes/tags', operator: 'contains', value: 'fragile' }, false],
    ['in (listed)', { pointer: '/attributes/recipient_address/country_code', operator: 'in', value: ['BE', 'NL'] }, true],
    ['in (a number as text)', { pointer: '/attributes/physical_properties/weight', operator: 'in', value: ['1000', '1500'] }, true],
    ['in (not listed)', { pointer: '/attributes/recipient_address/country_code', operator: 'in', value: ['BE', 'DE'] }, false],
    ['== (a list, as a whole)', { pointer: '/attributes/tags', operator: '==', value: ['gift'] }, true],
    ['!= (an object, as a whole)', { pointer: '/attributes/physical_properties', operator: '!=', value: { weight: 1500 } }, false],
    // Text is ordered byte by byte, as PHP orders it, whatever the host's locale: capitals before small letters.
    ['< (text, byte by byte)', { pointer: '/attributes/recipient_address/city', operator: '<', value: 'a' }, true],
    ['> (text, byte by byte)', { pointer: '/attributes/recipient_address/city', operator: '>', value: 'a' }, false],
    // Months and years are calendar ones; a new shipment is newer than a month, older than nothing.
    ['newer_than (a month)', { pointer: '/attributes/created_at', operator: 'newer_than', value: '1 month' }, true],
    ['older_than (a year)', { pointer: '/attributes/created_at', operator: 'older_than', value: '1 year' }, false],
    // Only decimal text is a number: '0x5DC' is not 1500.
    ['== (hexadecimal text is text)', { pointer: '/attributes/physical_properties/weight', operator: '==', value: '0x5DC' }, false],
    ['== (decimal text with an exponent)', { pointer: '/attributes/physical_properties/weight', operator: '==', value: '1.5e3' }, true],
  ];
  it.each(cases)('evaluates %s', async (_name, predicate, expected) => {
    const { hook, ship } = await setup();
    await hook({ predicates: [predicate], values: [set('/attributes/channel', 'matched')] });
    const shipment = await ship({ physical_properties: { weight: 1500 }, tags: ['gift'] });
    expect(shipment.attributes.channel === 'matched').toBe(expected);
  });

  it('needs every predicate to hold', async () => {
    const { hook, ship } = await setup();
    await hook({
      predicates: [
        { pointer: '/attributes/physical_properties/weight', operator: '<', value: 2000 },
        { pointer: '/attributes/tags', operator: 'contains', value: 'gift' },
      ],
      values: [set('/attributes/channel', 'both')],
    });
    expect((await ship({ tags: ['gift'] })).attributes.channel).toBe('both');
    expect((await ship({ tags: ['other'] })).attributes).not.toHaveProperty('channel');
  });

  it('turns a service code into a fitting service with service-code-to-id, or logs why not', async () => {
    const { hook, ship, sandbox, w } = await setup();
    const converted = await hook({
      order: 100,
      values: [{ pointer: '/relationships/service/data/id', value: 'postnl-parcel-standard', converter: 'service-code-to-id' }],
    });
    const shipment = await ship();
    expect(shipment.relationships.service.data.id).toBe(w.service('postnl-parcel-standard', 'NL').id);
    const gb = await createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: w.shopIn('NL'),
        recipient: recipients.GB,
        attributes: {
          description: 'x',
          items: [{ description: 'x', quantity: 1, item_value: { amount: 100, currency: 'EUR' }, origin_country_code: 'NL' }],
          customs: { content_type: 'gifts', non_delivery: 'return', incoterm: 'DAP' },
        },
      }),
    );
    expect(gb.relationships).not.toHaveProperty('service');
    const logs = (await sandbox.get(`/hooks/${converted.id}/logs?filter[has_errors]=true`, w.token)).body.data;
    expect(logs).toHaveLength(1);
    expect(logs[0].attributes.errors[0]).toContain('postnl-parcel-standard');
  });

  it('logs an impossible service as an error and changes nothing', async () => {
    const { hook, ship, sandbox, w } = await setup();
    const dpdContract = w.contracts.find((c: Json) => c.attributes.name.startsWith('DPD') && c.attributes.status === 'active');
    const bad = await hook({
      values: [set('/relationships/service/data/id', w.service('postnl-parcel-standard', 'NL').id), set('/relationships/contract/data/id', dpdContract.id)],
    });
    const shipment = await ship();
    expect(shipment.relationships).not.toHaveProperty('service');
    expect(shipment.relationships).not.toHaveProperty('contract');
    const [log] = (await sandbox.get(`/hooks/${bad.id}/logs`, w.token)).body.data;
    expect(log.attributes.resource_diff).toEqual({});
    // The log names the field as the API's answers would: the pointer into a create request.
    expect(log.attributes.errors).toEqual(['The service and the contract belong to different carriers. (/data/relationships/contract/data/id)']);
  });

  it('makes logs reachable from the hook, the shipment and by id', async () => {
    const { hook, ship, sandbox, w } = await setup();
    const created = await hook({ name: 'Channel', values: [set('/attributes/channel', 'web')] });
    const shipment = await ship();
    const fromHook = (await sandbox.get(`/hooks/${created.id}/logs`, w.token)).body;
    const log = fromHook.data[0];
    expect(log.relationships.hook.data).toEqual({ type: 'hooks', id: created.id, meta: { name: 'Channel' } });
    expect(log.relationships.resource.data).toEqual({ type: 'shipments', id: shipment.id });
    const fromShipment = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data.relationships.hook_logs.data;
    expect(fromShipment).toEqual([{ type: 'hook-logs', id: log.id }]);
    const byId = await sandbox.get(`/hook-logs/${log.id}`, w.token);
    expect(byId.body.data.attributes).toMatchObject({ resource_diff: { attributes: { channel: 'web' } }, errors: [] });
    const today = new Date(log.attributes.created_at * 1000).toISOString().slice(0, 10);
    expect((await sandbox.get(`/hooks/${created.id}/logs?filter[created_at][date_from]=${today}&filter[has_errors]=false`, w.token)).body.data).toHaveLength(1);
    expect((await sandbox.get(`/hook-logs/${log.id}`, await sandbox.token('other-client'))).status).toBe(404);
  });

  it('filters logs by created_at as dates, ISO-8601 date-times or Unix seconds, as GET /shipments does', async () => {
    const { hook, ship, sandbox, w } = await setup();
    const created = await hook({ name: 'Channel', values: [set('/attributes/channel', 'web')] });
    await ship();
    const logs = async (query: string) => {
      const answer = await sandbox.get(`/hooks/${created.id}/logs?${query}`, w.token);
      expect(answer.status, `${query}: ${answer.text}`).toBe(200);
      return answer.body.data.length;
    };
    const [log] = (await sandbox.get(`/hooks/${created.id}/logs`, w.token)).body.data;
    const at = log.attributes.created_at as number;
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
    const day = iso(at).slice(0, 10);
    expect(await logs(`filter[created_at][date_from]=${at}`)).toBe(1);
    expect(await logs(`filter[created_at][date_from]=${at + 1}`)).toBe(0);
    expect(await logs(`filter[created_at][date_to]=${at - 1}`)).toBe(0);
    expect(await logs(`filter[created_at][date_from]=${iso(at)}&filter[created_at][date_to]=${iso(at)}`)).toBe(1);
    expect(await logs(`filter[created_at][date_from]=${iso(at + 1)}`)).toBe(0);
    expect(await logs(`filter[created_at][date_from]=${encodeURIComponent(iso(at).replace('Z', '+00:00'))}`)).toBe(1);
    // Production types the bounds as a number too: decimal seconds (Date.now() / 1000) bound the whole seconds they cover.
    expect(await logs(`filter[created_at][date_from]=${at - 0.5}&filter[created_at][date_to]=${at + 0.5}`)).toBe(1);
    expect(await logs(`filter[created_at][date_from]=${at + 0.25}`)).toBe(0);
    expect(await logs(`filter[created_at][date_to]=${at - 0.25}`)).toBe(0);
    // A date-time inside a second bounds as those decimal seconds do: a log of second `at` lies before `at`.250.
    const within = (seconds: number, fraction: string) => iso(seconds).replace('Z', `${fraction}Z`);
    expect(await logs(`filter[created_at][date_from]=${within(at, '.250')}`)).toBe(0);
    expect(await logs(`filter[created_at][date_from]=${within(at - 1, '.5')}&filter[created_at][date_to]=${within(at, '.5')}`)).toBe(1);
    expect(await logs(`filter[created_at][date_from]=${within(at, '.000')}`)).toBe(1);
    // A bare date as the upper bound takes in the whole day.
    expect(await logs(`filter[created_at][date_to]=${day}`)).toBe(1);
    expect(await logs(`filter[created_at][date_from]=${day}&filter[created_at][date_to]=${day}`)).toBe(1);
    for (const [query, parameter] of [
      ['filter[created_at][date_from]=yesterday', 'filter[created_at][date_from]'],
      ['filter[created_at][date_from]=2026-02-30', 'filter[created_at][date_from]'],
      ['filter[created_at][date_to]=2026-13-01', 'filter[created_at][date_to]'],
      ['filter[created_at][date_to]=2026-02-30T10:00:00Z', 'filter[created_at][date_to]'],
    ]) {
      const answer = await sandbox.get(`/hooks/${created.id}/logs?${query}`, w.token);
      expect(answer.status, query).toBe(400);
      expect(firstError(answer).source, query).toEqual({ parameter });
    }
  });

  it('sets the letterbox service for parcels under 2 kg (the README example)', async () => {
    const { sandbox, w, organization, ship } = await setup();
    const answer = await sandbox.request('POST', '/hooks', {
      token: w.token,
      body: {
        data: {
          type: 'hooks',
          attributes: {
            name: 'Letterbox for light parcels',
            order: 100,
            active: true,
            trigger: {
              resource_type: 'shipments',
              resource_action: 'create',
              predicates: [{ pointer: '/attributes/physical_properties/weight', operator: '<', value: 2000 }],
            },
            action: {
              action_type: 'update-resource',
              values: [{ pointer: '/relationships/service/data/id', value: 'postnl-letterbox-parcel', converter: 'service-code-to-id' }],
            },
          },
          relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
        },
      },
    });
    expect(answer.status).toBe(201);
    expect((await ship({ physical_properties: { weight: 800 } })).relationships.service.data.id).toBe(w.service('postnl-letterbox-parcel', 'NL').id);
    expect((await ship({ physical_properties: { weight: 2500 } })).relationships).not.toHaveProperty('service');
  });
});

/** A multi-colli shipment of two colli in the Netherlands, made (201). */
async function twoColli(sandbox: TestSandbox, w: World): Promise<Answer> {
  const multi = w.service('postnl-multi-colli', 'NL');
  const body = shipmentBody({
    shop: w.shopIn('NL'),
    service: multi,
    contract: w.contractFor(multi),
    meta: { colli: [{ physical_properties: { weight: 1000 } }, { physical_properties: { weight: 1200 } }] },
  });
  delete body.data.attributes.physical_properties;
  const made = await sandbox.request('POST', '/multi-colli-shipments', { token: w.token, body });
  expect(made.status, made.text).toBe(201);
  return made;
}

describe('hooks: shipments made without a price of their own', () => {
  it("a hook's change on a collo or a shipment tracked from elsewhere leaves it without a price or surcharges", async () => {
    const { sandbox, w, hook } = await setup();
    await hook({ values: [set('/attributes/channel', 'hooked')] });
    const made = await twoColli(sandbox, w);
    expect(made.body.data.attributes.price).toBeDefined();
    const standard = w.service('postnl-parcel-standard', 'NL');
    const tracked = await sandbox.request('POST', '/track-external-shipment', {
      token: w.token,
      body: shipmentBody({
        shop: w.shopIn('NL'),
        recipient: recipients.NL,
        service: standard,
        contract: w.contractFor(standard),
        attributes: { tracking_code: '3SHOOKED0001' },
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect(tracked.status, tracked.text).toBeLessThan(300);
    const trackedId = (await sandbox.get('/shipments?filter[tracking_code]=3SHOOKED0001', w.token)).body.data[0].id;
    for (const id of [...made.body.data.relationships.colli.data.map((c: Json) => c.id), trackedId]) {
      const read = (await sandbox.get(`/shipments/${id}`, w.token)).body.data;
      expect(read.attributes.channel, id).toBe('hooked');
      expect(read.attributes.price, id).toBeUndefined();
      expect(read.relationships.shipment_surcharges?.data ?? [], id).toEqual([]);
    }
  });

  it("sees a collo as production answers it: its master under /relationships/multi_colli_shipment, no ids of the sandbox's own", async () => {
    const { sandbox, w, hook } = await setup();
    await hook({
      predicates: [{ pointer: '/relationships/multi_colli_shipment/data/type', operator: '==', value: 'shipments' }],
      values: [set('/attributes/channel', 'collo')],
    });
    await hook({
      predicates: [{ pointer: '/attributes/multi_colli_shipment_id', operator: 'contains', value: '-' }],
      values: [set('/attributes/customer_reference', 'internal')],
    });
    await hook({ predicates: [{ pointer: '/attributes/sync_active', operator: '==', value: 'false' }], values: [set('/attributes/description', 'answered')] });
    const made = await twoColli(sandbox, w);
    const [collo] = made.body.data.relationships.colli.data;
    const read = (await sandbox.get(`/shipments/${collo.id}`, w.token)).body.data;
    expect(read.relationships.multi_colli_shipment.data.id).toBe(made.body.data.id);
    expect(read.attributes).toMatchObject({ channel: 'collo', description: 'answered' });
    expect(read.attributes).not.toHaveProperty('customer_reference');
    expect(made.body.data.attributes.channel).toBeUndefined();
  });
});

describe("hooks: what production's schema accepts", () => {
  const send = (url = 'https://example.com/hooks', extra: Json = {}) => ({ action_type: 'send-resource', values: [{ url, ...extra }] });

  it('keeps an empty name, a secret of any length, and empty value lists (which do nothing)', async () => {
    const { hook, ship, sandbox, w } = await setup();
    expect((await hook({ name: '', values: [set('/attributes/channel', 'named')] })).attributes.name).toBe('');
    const secret = 's'.repeat(400);
    // Inactive: kept and listed, and no delivery leaves the test.
    expect((await hook({ active: false, action: send('https://example.com/hooks', { secret }) })).attributes.action.values[0].secret).toBe(secret);
    const quiet = await hook({ values: [] });
    expect(quiet.attributes.action).toEqual({ action_type: 'update-resource', values: [] });
    expect((await hook({ active: false, action: { action_type: 'send-resource', values: [] } })).attributes.action.values).toEqual([]);
    const shipment = await ship();
    expect(shipment.attributes.channel).toBe('named');
    const [log] = (await sandbox.get(`/hooks/${quiet.id}/logs`, w.token)).body.data;
    expect([log.attributes.resource_diff, log.attributes.errors]).toEqual([{}, []]);
  });

  it('keeps more than one value of the return actions and of calculate-landed-cost', async () => {
    const { hook } = await setup();
    const reject = { action_type: 'reject-return', values: [{ message: 'Contact us.' }, { message: 'Unused.' }] };
    expect((await hook({ resourceType: 'returns', action: reject })).attributes.action).toEqual(reject);
    const pay = { action_type: 'request-payment', values: [{ price: { amount: 350, currency: 'EUR' } }, { price: { amount: 500, currency: 'EUR' } }] };
    expect((await hook({ resourceType: 'returns', action: pay })).attributes.action).toEqual(pay);
    const landed = { action_type: 'calculate-landed-cost', values: [{}, {}] };
    expect((await hook({ action: landed })).attributes.action).toEqual(landed);
  });

  it("reads a predicate's pointer anywhere in the document: /type and /id hold as they are, /meta on a shipment is missing", async () => {
    const { hook, ship } = await setup();
    await hook({ predicates: [{ pointer: 'type', operator: '==', value: 'shipments' }], values: [set('/attributes/channel', 'typed')] });
    await hook({ predicates: [{ pointer: '/meta/anything', operator: '!=', value: 'x' }], values: [set('/attributes/customer_reference', 'no-meta')] });
    await hook({ predicates: [{ pointer: '/meta/anything', operator: '==', value: 'x' }], values: [set('/attributes/description', 'never')] });
    await hook({ predicates: [{ pointer: '/id', operator: '!=', value: '' }], values: [set('/attributes/tags', ['has-id'])] });
    const shipment = await ship();
    expect(shipment.attributes).toMatchObject({ channel: 'typed', customer_reference: 'no-meta', tags: ['has-id'] });
    expect(shipment.attributes).not.toHaveProperty('description');
  });

  it("reads a list's members by index only, as RFC 6901 has it: '/attributes/tags/length' is missing, not the list's length", async () => {
    const { hook, ship } = await setup();
    await hook({ predicates: [{ pointer: '/attributes/tags/length', operator: '>=', value: 1 }], values: [set('/attributes/channel', 'counted')] });
    await hook({ predicates: [{ pointer: '/attributes/tags/0', operator: '==', value: 'first' }], values: [set('/attributes/customer_reference', 'indexed')] });
    const shipment = await ship({ tags: ['first', 'second'] });
    expect(shipment.attributes.customer_reference).toBe('indexed');
    expect(shipment.attributes).not.toHaveProperty('channel');
  });
});
