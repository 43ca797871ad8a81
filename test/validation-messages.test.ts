import { beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../src/app.js';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';
import { recipients, shipmentBody, world, type World } from './support/shipments.js';

/**
 * A 400/10003 says what is wrong: a member of the wrong type is named with the type it must
 * have (never "is required"), a missing one is "required", on body members and query
 * parameters alike, with the pointer or parameter to blame.
 */

let sandbox: TestSandbox;
let w: World;
beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
});

/** The one error of a 400/10003 answer that names `where` (a pointer or a parameter). */
function errorAt(answer: { status: number; body: Json; text: string }, where: { pointer: string } | { parameter: string }) {
  expect(answer.status, answer.text).toBe(400);
  const error = answer.body.errors.find((e: Json) => JSON.stringify(e.source) === JSON.stringify(where));
  expect(error, answer.text).toBeDefined();
  expect(error.code).toBe('10003');
  return error;
}

const shipment = (attributes: Json) => {
  const body = shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.NL });
  body.data.attributes = { ...body.data.attributes, ...attributes };
  return sandbox.request('POST', '/shipments', { token: w.token, body });
};

describe('validation messages: body members', () => {
  it('names the type a required member must have', async () => {
    const answer = await shipment({ physical_properties: { weight: '500' } });
    expect(errorAt(answer, { pointer: '/data/attributes/physical_properties/weight' }).detail).toBe("'weight' must be an integer, not a string.");
  });

  it('says a missing member is required', async () => {
    const answer = await shipment({ physical_properties: {} });
    expect(errorAt(answer, { pointer: '/data/attributes/physical_properties/weight' }).detail).toBe("'weight' is required.");
  });

  it('names the type of an optional member, and of an object sent as something else', async () => {
    const answer = await shipment({ physical_properties: { weight: 500, length: 'long' }, recipient_address: null });
    expect(errorAt(answer, { pointer: '/data/attributes/physical_properties/length' }).detail).toBe("'length' must be an integer, not a string.");
    expect(errorAt(answer, { pointer: '/data/attributes/recipient_address' }).detail).toBe("'recipient_address' must be an object, not null.");
  });

  it('names the string a shop name must be', async () => {
    const shop = w.shopIn('NL');
    const answer = await sandbox.request('PATCH', `/shops/${shop.id}`, {
      token: w.token,
      body: { data: { type: 'shops', id: shop.id, attributes: { name: 42 } } },
    });
    expect(errorAt(answer, { pointer: '/data/attributes/name' }).detail).toBe("'name' must be a string, not a number.");
  });

  it('lists the choices of an enum, a union and a missing discriminator', async () => {
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
    const body = {
      data: {
        type: 'hooks',
        attributes: {
          name: 'x',
          order: 100,
          active: 'yes',
          trigger: { resource_type: 'shipments', resource_action: 'create', predicates: [{ pointer: '/attributes/channel', operator: '=', value: { x: 1 } }] },
          action: { values: [] },
        },
        relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
      },
    };
    const answer = await sandbox.request('POST', '/hooks', { token: w.token, body });
    expect(errorAt(answer, { pointer: '/data/attributes/active' }).detail).toBe("'active' must be a boolean, not a string.");
    expect(errorAt(answer, { pointer: '/data/attributes/trigger/predicates/0/operator' }).detail).toBe(
      "'operator' must be one of '==', '!=', '>', '<', '>=', '<=', 'contains', 'in', 'older_than', 'newer_than'.",
    );
    expect(errorAt(answer, { pointer: '/data/attributes/action/action_type' }).detail).toBe("'action_type' is required.");
    // A union of another kind: an update-resource value is text, an object or a list.
    const action = { action_type: 'update-resource', values: [{ pointer: '/attributes/channel', value: 5 }] };
    const attributes = { ...body.data.attributes, active: true, action };
    const union = await sandbox.request('POST', '/hooks', { token: w.token, body: { data: { ...body.data, attributes } } });
    expect(errorAt(union, { pointer: '/data/attributes/action/values/0/value' }).detail).toBe("'value' must be a string, an object or an array, not a number.");
  });
});

describe('validation messages: bounds and formats', () => {
  const patch = (path: string, type: string, id: string, attributes: Json) =>
    sandbox.request('PATCH', `${path}/${id}`, { token: w.token, body: { data: { type, id, attributes } } });

  it('says how long a text may be and that it cannot be empty', async () => {
    const shop = w.shopIn('NL');
    const empty = await patch('/shops', 'shops', shop.id, { name: '' });
    expect(errorAt(empty, { pointer: '/data/attributes/name' }).detail).toBe("'name' cannot be empty.");
    const long = await patch('/shops', 'shops', shop.id, { name: 'x'.repeat(256) });
    expect(errorAt(long, { pointer: '/data/attributes/name' }).detail).toBe("'name' must be at most 255 characters long.");
  });

  it('says the least a number and a list may be, and what a format is', async () => {
    const body = (attributes: Json) => ({ data: { type: 'zones', attributes: { name: 'Z', code: 'Z-BOUNDS', country_codes: ['NL'], ...attributes } } });
    const zone = await sandbox.request('POST', '/zones', { token: w.token, body: body({ country_codes: [] }) });
    expect(errorAt(zone, { pointer: '/data/attributes/country_codes' }).detail).toBe("'country_codes' cannot be empty.");
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
    const address = {
      data: {
        type: 'addresses',
        attributes: { street_1: 'Main', street_number: 0, city: 'Amsterdam', country_code: 'NL', email: 'not-an-address' },
        relationships: { organization: { data: { type: 'organizations', id: organization.id } } },
      },
    };
    const answer = await sandbox.request('POST', '/addresses', { token: w.token, body: address });
    expect(errorAt(answer, { pointer: '/data/attributes/street_number' }).detail).toBe("'street_number' must be at least 1.");
    expect(errorAt(answer, { pointer: '/data/attributes/email' }).detail).toBe("'email' must be an e-mail address.");
  });

  it('says one bound of a number out of every range, the tightest: not the largest safe integer as well', async () => {
    const answer = await shipment({ recipient_address: { ...recipients.NL, street_number: 1e20 } });
    const at = answer.body.errors.filter((e: Json) => e.source?.pointer === '/data/attributes/recipient_address/street_number');
    expect(at.map((e: Json) => e.detail)).toEqual(["'street_number' must be at most 2147483647."]);
  });

  it('says an empty text is empty, not also that it breaks its pattern', async () => {
    const answer = await sandbox.request('POST', '/track-external-shipment', {
      token: w.token,
      body: { data: { type: 'shipments', attributes: { tracking_code: '' } } },
    });
    const at = answer.body.errors.filter((e: Json) => e.source?.pointer === '/data/attributes/tracking_code');
    expect(at.map((e: Json) => e.detail)).toEqual(["'tracking_code' cannot be empty."]);
  });
});

describe('validation messages: query parameters', () => {
  it('says a boolean filter must be true or false', async () => {
    const answer = await sandbox.get('/services?filter[has_active_contract]=maybe', w.token);
    expect(errorAt(answer, { parameter: 'filter[has_active_contract]' }).detail).toBe("'filter[has_active_contract]' must be true or false.");
  });

  it('says what a moment must be in one wording on every endpoint that filters by one', async () => {
    // Every query parameter documented as a moment, wherever it is checked (a schema or a rule).
    const moments = allEndpoints().flatMap((endpoint) =>
      Object.entries((endpoint.query?.shape ?? {}) as Record<string, Json>)
        .filter(([, schema]) => (schema.description ?? schema.unwrap?.().description)?.startsWith('Unix seconds, a date (YYYY-MM-DD)'))
        .map(([key]) => ({ endpoint, key })),
    );
    expect(moments.length).toBeGreaterThan(5);
    const details = new Map<string, string>();
    for (const { endpoint, key } of moments) {
      const path = endpoint.path.replace(/\{[^}]+\}/g, '7c0a3c41-0a5e-4b7e-9d8e-1f2a3b4c5d6e');
      const answer = await sandbox.request(endpoint.method.toUpperCase(), `${path}?${encodeURIComponent(key)}=yesterday`, { token: w.token });
      details.set(`${endpoint.method.toUpperCase()} ${endpoint.path} ${key}`, errorAt(answer, { parameter: key }).detail);
    }
    for (const [where, detail] of details) {
      const key = where.split(' ').pop();
      expect(detail, where).toBe(`'${key}' must be Unix seconds, a date (YYYY-MM-DD) or an ISO-8601 date-time with a time zone.`);
    }
  });

  it('lists the values of an enum parameter in one wording on every endpoint', async () => {
    const enums = allEndpoints().flatMap((endpoint) =>
      Object.entries((endpoint.query?.shape ?? {}) as Record<string, Json>)
        .map(([key, schema]) => ({ endpoint, key, def: (schema.unwrap?.() ?? schema)._zod.def }))
        .filter(({ def }) => def.type === 'enum'),
    );
    expect(enums.length).toBeGreaterThan(3);
    for (const { endpoint, key, def } of enums) {
      const path = endpoint.path.replace(/\{[^}]+\}/g, '7c0a3c41-0a5e-4b7e-9d8e-1f2a3b4c5d6e');
      const answer = await sandbox.request(endpoint.method.toUpperCase(), `${path}?${encodeURIComponent(key)}=nope`, { token: w.token });
      const values = Object.values(def.entries as Record<string, string>);
      const expected = `'${key}' must be ${values.length === 1 ? `'${values[0]}'` : `one of ${values.map((value) => `'${value}'`).join(', ')}`}.`;
      expect(errorAt(answer, { parameter: key }).detail, `${endpoint.method} ${endpoint.path}`).toBe(expected);
    }
  });

  it('lists the values an enum filter takes', async () => {
    const answer = await sandbox.get('/hooks?filter[action][action_type]=delete-resource', w.token);
    expect(errorAt(answer, { parameter: 'filter[action][action_type]' }).detail).toBe(
      "'filter[action][action_type]' must be one of 'update-resource', 'send-resource', 'approve-return', 'reject-return', 'request-payment', 'set-return-deadline-passed', 'calculate-landed-cost'.",
    );
  });
});
