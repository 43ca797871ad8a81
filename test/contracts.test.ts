import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

const DELAY = 5;

/** A create body for a contract of `carrierId` owned by `organizationId`. */
function contractBody(carrierId: string, organizationId: string, credentials: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    data: {
      type: 'contracts',
      attributes: { name: 'My own contract', currency: 'EUR', credentials, ...extra },
      relationships: {
        carrier: { data: { type: 'carriers', id: carrierId } },
        owner: { data: { type: 'organizations', id: organizationId } },
      },
    },
  };
}

/** Valid credentials for the fixture carriers, by carrier code. */
const validCredentials: Record<string, Record<string, unknown>> = {
  postnl: { customer_code: 'DEVC', customer_number: '11223344', api_key: 'k'.repeat(32) },
};

let sandbox: TestSandbox;
let token: string;
let otherToken: string;
let organizationId: string;
let postnl: Json;

beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
  otherToken = await sandbox.token('other-client');
  organizationId = (await sandbox.get('/organizations', token)).body.data[0].id;
  postnl = (await sandbox.read('/carriers')).body.data.find((carrier: Json) => carrier.attributes.code === 'postnl');
});

async function create(s: TestSandbox, credentials: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const t = await s.token();
  const org = (await s.get('/organizations', t)).body.data[0].id;
  const answer = await s.request('POST', '/contracts', { token: t, body: contractBody(postnl.id, org, credentials, extra) });
  expect(answer.status, answer.text).toBe(201);
  return { token: t, contract: answer.body.data as Json };
}

describe('reading contracts', () => {
  it('shows a client its own contracts and those its broker shares', async () => {
    const mine = await sandbox.get('/contracts', token);
    const theirs = await sandbox.get('/contracts', otherToken);
    const owners = (answer: Json) => new Set(answer.body.data.map((c: Json) => c.relationships.owner.data.type));
    expect(owners(mine)).toEqual(new Set(['brokers', 'organizations']));
    expect(owners(theirs)).toEqual(new Set(['brokers']));
    const statuses = new Set(mine.body.data.map((c: Json) => c.attributes.status));
    expect(statuses).toEqual(new Set(['active', 'pending', 'invalid']));
    for (const contract of mine.body.data) expect(contract.attributes).not.toHaveProperty('credentials');
  });

  it('answers another tenant’s contract with 404', async () => {
    const own = (await sandbox.get('/contracts?filter[status]=pending', token)).body.data[0];
    const answer = await sandbox.get(`/contracts/${own.id}`, otherToken);
    expect(answer.status).toBe(404);
    expect(firstError(answer)).toMatchObject({ code: '10002' });
  });

  it('gives a broker contract its liability coverages, several value ranges, none on own contracts', async () => {
    const list = (await sandbox.get('/contracts', token)).body.data;
    const broker = list.find((c: Json) => c.relationships.owner.data.type === 'brokers');
    const own = list.find((c: Json) => c.relationships.owner.data.type === 'organizations');
    const one = await sandbox.get(`/contracts/${broker.id}?include=liability_coverages`, token);
    const coverages = one.body.data.relationships.liability_coverages.data;
    expect(coverages.length).toBeGreaterThanOrEqual(2);
    expect(one.body.included.map((c: Json) => c.type)).toEqual(coverages.map(() => 'liability-coverages'));
    const maxima = one.body.included.map((c: Json) => c.attributes.coverage_max.amount);
    expect(new Set(maxima).size).toBe(maxima.length);
    expect(own.relationships.liability_coverages.data).toEqual([]);
    const coverage = await sandbox.get(`/liability-coverages/${coverages[0].id}`, otherToken);
    expect(coverage.status).toBe(200);
    expect(coverage.body.data.attributes).toMatchObject({ name: expect.any(String), price: { currency: expect.any(String) } });
    expect(coverage.body.data.relationships.contract.data.id).toBe(broker.id);
    expect((await sandbox.get('/liability-coverages/00000000-0000-4000-8000-000000000000', token)).status).toBe(404);
  });

  it('filters by status, carrier, owner and search text', async () => {
    const all = (await sandbox.get('/contracts', token)).body.data;
    const active = await sandbox.get('/contracts?filter[status]=active', token);
    expect(active.body.data.length).toBe(all.filter((c: Json) => c.attributes.status === 'active').length);
    const byCarrier = await sandbox.get(`/contracts?filter[carrier]=${postnl.id}`, token);
    expect(byCarrier.body.data.every((c: Json) => c.relationships.carrier.data.id === postnl.id)).toBe(true);
    expect(byCarrier.body.data.length).toBeGreaterThanOrEqual(2);
    const byOwner = await sandbox.get(`/contracts?filter[owner]=${organizationId}`, token);
    expect(byOwner.body.data.length).toBe(2);
    const search = await sandbox.get('/contracts?filter[search]=economy', token);
    expect(search.body.data.map((c: Json) => c.attributes.name)).toEqual(['DPD Economy (broker)']);
    expect((await sandbox.get('/contracts?filter[status]=gone', token)).status).toBe(400);
  });

  it("lists a carrier's contracts with carrier and owner included", async () => {
    const answer = await sandbox.get(`/carriers/${postnl.id}/contracts?include=carrier,owner`, token);
    expect(answer.status).toBe(200);
    expect(answer.body.data.every((c: Json) => c.relationships.carrier.data.id === postnl.id)).toBe(true);
    const types = new Set(answer.body.included.map((r: Json) => r.type));
    expect(types).toEqual(new Set(['carriers', 'brokers', 'organizations']));
    expect((await sandbox.get('/carriers/00000000-0000-4000-8000-000000000000/contracts', token)).status).toBe(404);
  });

  it('needs shipments.manage or organizations.manage', async () => {
    expect((await sandbox.get('/contracts')).status).toBe(401);
    expect((await sandbox.get('/contracts', await sandbox.token('limited-client'))).status).toBe(200);
    const shopsOnly = await sandbox.get('/contracts', await sandbox.token('sandbox-client', 'shops.manage'));
    expect(shopsOnly.status).toBe(403);
    expect(firstError(shopsOnly)).toMatchObject({ code: '14004' });
    expect(firstError(shopsOnly).detail).toContain('shipments.manage');
  });
});

describe('creating a contract and its verification', () => {
  it('starts pending and becomes active once verified on the sandbox clock', async () => {
    const s = await testSandbox();
    const { token: t, contract } = await create(s, validCredentials.postnl!);
    expect(contract.attributes).toMatchObject({ status: 'pending', currency: 'EUR', volumetric_weight_divisor_factor: 1 });
    await s.advance(DELAY - 1);
    expect((await s.get(`/contracts/${contract.id}`, t)).body.data.attributes.status).toBe('pending');
    await s.advance(1);
    const verified = await s.get(`/contracts/${contract.id}`, t);
    expect(verified.body.data.attributes.status).toBe('active');
    expect(verified.body.data).not.toHaveProperty('meta');
  });

  it('becomes invalid when a required credential is missing, saying which', async () => {
    const s = await testSandbox();
    const { token: t, contract } = await create(s, { customer_code: 'DEVC', customer_number: '11223344' });
    await s.advance(DELAY);
    const answer = await s.get(`/contracts/${contract.id}`, t);
    expect(answer.body.data.attributes.status).toBe('invalid');
    expect(answer.body.data.meta.verification_errors.join(' ')).toContain('api_key');
  });

  it("becomes invalid when any credentials value is 'invalid' (the sandbox trigger)", async () => {
    const s = await testSandbox();
    const { token: t, contract } = await create(s, { ...validCredentials.postnl, api_key: 'invalid' });
    await s.advance(DELAY);
    expect((await s.get(`/contracts/${contract.id}`, t)).body.data.attributes.status).toBe('invalid');
  });

  it('verifies after the configured delay', async () => {
    const s = await testSandbox({ config: { contractVerificationDelay: 60 } });
    const { token: t, contract } = await create(s, validCredentials.postnl!);
    await s.advance(59);
    expect((await s.get(`/contracts/${contract.id}`, t)).body.data.attributes.status).toBe('pending');
    await s.advance(1);
    expect((await s.get(`/contracts/${contract.id}`, t)).body.data.attributes.status).toBe('active');
  });

  it('answers 201 with a Location and the factor it was given', async () => {
    const answer = await sandbox.request('POST', '/contracts', {
      token,
      body: contractBody(postnl.id, organizationId, validCredentials.postnl!, { volumetric_weight_divisor_factor: 1.25, status: 'active' }),
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toBe(answer.body.data.links.self);
    expect(answer.body.data.attributes).toMatchObject({ volumetric_weight_divisor_factor: 1.25, status: 'pending' });
    expect(answer.body.data.relationships.owner.data).toEqual({ type: 'organizations', id: organizationId });
  });

  it('activates the seeded pending contract once it gets valid credentials, bringing its services into has_active_contract', async () => {
    const s = await testSandbox();
    const t = await s.token();
    const pending = (await s.get('/contracts?filter[status]=pending', t)).body.data[0];
    const withContract = async () => (await s.get('/services?page[size]=100&filter[has_active_contract]=true', t)).body.data.map((x: Json) => x.id);
    const before = await withContract();
    const patched = await s.request('PATCH', `/contracts/${pending.id}`, {
      token: t,
      body: { data: { type: 'contracts', id: pending.id, attributes: { credentials: validCredentials.postnl } } },
    });
    expect(patched.body.data.attributes.status).toBe('pending');
    await s.advance(DELAY);
    expect((await s.get(`/contracts/${pending.id}`, t)).body.data.attributes.status).toBe('active');
    const after = await withContract();
    expect(after.length).toBeGreaterThan(before.length);
    for (const id of before) expect(after).toContain(id);
    const theirs = (await s.get('/services?page[size]=100&filter[has_active_contract]=true', await s.token('other-client'))).body.data;
    expect(theirs.length).toBe(before.length);
  });
});

describe('bad contract input', () => {
  const post = (body: unknown, t = token) => sandbox.request('POST', '/contracts', { token: t, body });

  it('refuses an unknown carrier with 422 and a pointer', async () => {
    const answer = await post(contractBody('00000000-0000-4000-8000-000000000000', organizationId, {}));
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/data/relationships/carrier/data/id' } });
  });

  it("takes any of production's ISO 4217 currencies, and refuses a code that is none", async () => {
    const body = contractBody(postnl.id, organizationId, {});
    body.data.attributes.currency = 'USD';
    const made = await post(body);
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.attributes.currency).toBe('USD');
    body.data.attributes.currency = 'XYZ';
    const answer = await post(body);
    expect(answer.status).toBe(400);
    expect(firstError(answer)).toMatchObject({ code: '10003', source: { pointer: '/data/attributes/currency' } });
  });

  it('refuses an owner other than the caller’s organization', async () => {
    const other = (await sandbox.get('/organizations', otherToken)).body.data[0].id;
    const answer = await post(contractBody(postnl.id, other, {}));
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ source: { pointer: '/data/relationships/owner/data/id' } });
    const broker = contractBody(postnl.id, organizationId, {});
    broker.data.relationships.owner.data.type = 'brokers';
    expect(firstError(await post(broker))).toMatchObject({ code: '10008', source: { pointer: '/data/relationships/owner/data/type' } });
  });

  it('names missing attributes and refuses a wrong type with 409', async () => {
    const body = contractBody(postnl.id, organizationId, {}) as Json;
    delete body.data.attributes.name;
    delete body.data.attributes.credentials;
    const answer = await post(body);
    expect(answer.status).toBe(400);
    const pointers = answer.body.errors.map((e: Json) => e.source.pointer).sort();
    expect(pointers).toEqual(['/data/attributes/credentials', '/data/attributes/name']);
    const wrongType = contractBody(postnl.id, organizationId, {}) as Json;
    wrongType.data.type = 'shops';
    const conflict = await post(wrongType);
    expect(conflict.status).toBe(409);
    expect(firstError(conflict)).toMatchObject({ code: '10007', source: { pointer: '/data/type' } });
  });

  it('needs organizations.manage to create', async () => {
    const answer = await post(contractBody(postnl.id, organizationId, {}), await sandbox.token('limited-client'));
    expect(answer.status).toBe(403);
    expect(firstError(answer)).toMatchObject({ code: '14004' });
  });

  it('leaves nothing behind when a create is refused', async () => {
    const count = sandbox.store.count('contracts');
    await post(contractBody('00000000-0000-4000-8000-000000000000', organizationId, {}));
    expect(sandbox.store.count('contracts')).toBe(count);
  });
});

describe('changing a contract', () => {
  const patch = (s: TestSandbox, t: string, id: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    s.request('PATCH', `/contracts/${id}`, { token: t, body: { data: { type: 'contracts', id, attributes, ...extra } } });

  it('switches an active contract to inactive and back', async () => {
    const s = await testSandbox();
    const { token: t, contract } = await create(s, validCredentials.postnl!);
    await s.advance(DELAY);
    const off = await patch(s, t, contract.id, { status: 'inactive' });
    expect(off.status).toBe(200);
    expect(off.body.data.attributes.status).toBe('inactive');
    const on = await patch(s, t, contract.id, { status: 'active' });
    expect(on.body.data.attributes.status).toBe('active');
  });

  it('refuses any other status change with 422 pointing at the status', async () => {
    const s = await testSandbox();
    const { token: t, contract } = await create(s, validCredentials.postnl!);
    const fromPending = await patch(s, t, contract.id, { status: 'active' });
    expect(fromPending.status).toBe(422);
    expect(firstError(fromPending)).toMatchObject({ code: '10008', source: { pointer: '/data/attributes/status' } });
    await s.advance(DELAY);
    for (const status of ['pending', 'invalid']) {
      const answer = await patch(s, t, contract.id, { status });
      expect(answer.status, status).toBe(422);
      expect(firstError(answer).source.pointer).toBe('/data/attributes/status');
    }
    const invalid = (await s.get('/contracts?filter[status]=invalid', t)).body.data[0];
    expect((await patch(s, t, invalid.id, { status: 'active' })).status).toBe(422);
    expect((await patch(s, t, contract.id, { status: 'paused' })).status).toBe(400);
  });

  it('sends the contract back to pending on new credentials and verifies them again', async () => {
    const s = await testSandbox();
    const { token: t, contract } = await create(s, validCredentials.postnl!);
    await s.advance(DELAY);
    const rekeyed = await patch(s, t, contract.id, { credentials: { ...validCredentials.postnl, api_key: 'invalid' } });
    expect(rekeyed.body.data.attributes.status).toBe('pending');
    await s.advance(DELAY);
    expect((await s.get(`/contracts/${contract.id}`, t)).body.data.attributes.status).toBe('invalid');
    await patch(s, t, contract.id, { credentials: validCredentials.postnl });
    await s.advance(DELAY);
    const fixed = await s.get(`/contracts/${contract.id}`, t);
    expect(fixed.body.data.attributes.status).toBe('active');
    expect(fixed.body.data).not.toHaveProperty('meta');
  });

  it('keeps a switched-off contract inactive through a verification of new credentials', async () => {
    const s = await testSandbox();
    const { token: t, contract } = await create(s, validCredentials.postnl!);
    await s.advance(DELAY);
    const status = async () => (await s.get(`/contracts/${contract.id}`, t)).body.data.attributes.status;

    // Switched off and given new credentials in one PATCH: pending while verified, then off as asked.
    const both = await patch(s, t, contract.id, { status: 'inactive', credentials: { ...validCredentials.postnl, customer_code: 'DEVD' } });
    expect(both.body.data.attributes.status).toBe('pending');
    await s.advance(DELAY);
    expect(await status()).toBe('inactive');

    // Already off: new credentials are verified, and the contract stays off, also when validated at once.
    await patch(s, t, contract.id, { credentials: validCredentials.postnl });
    await s.advance(DELAY);
    expect(await status()).toBe('inactive');
    await patch(s, t, contract.id, { credentials: { ...validCredentials.postnl, customer_code: 'DEVE' } });
    expect((await s.request('POST', `/contracts/${contract.id}/validate`, { token: t })).body).toEqual({ data: { valid: true } });
    expect(await status()).toBe('inactive');

    // Switched on with new credentials: active once they pass.
    await patch(s, t, contract.id, { status: 'active', credentials: validCredentials.postnl });
    await s.advance(DELAY);
    expect(await status()).toBe('active');
  });

  it('keeps the status when the same credentials are sent again, and ignores read-only fields', async () => {
    const s = await testSandbox();
    const { token: t, contract } = await create(s, validCredentials.postnl!);
    await s.advance(DELAY);
    const same = await patch(
      s,
      t,
      contract.id,
      { credentials: { ...validCredentials.postnl }, name: 'Renamed', created_at: 1, status: 'active' },
      // The relationships as a GET answers them, links and all: sent back unchanged, they pass.
      { relationships: contract.relationships },
    );
    expect(same.status, same.text).toBe(200);
    expect(same.body.data.attributes).toMatchObject({ status: 'active', name: 'Renamed', created_at: contract.attributes.created_at });
    expect(same.body.data.relationships.carrier.data.id).toBe(postnl.id);
  });

  it('refuses another carrier, owner, template or set of coverages instead of answering 200 and keeping the old ones', async () => {
    const s = await testSandbox();
    const { token: t, contract } = await create(s, validCredentials.postnl!);
    const other = await s.token('other-client');
    const otherOrganization = (await s.get('/organizations', other)).body.data[0].id;
    const dpd = (await s.read('/carriers')).body.data.find((carrier: Json) => carrier.attributes.code === 'dpd');
    const broker = (await s.get('/contracts?include=liability_coverages', t)).body.data.find(
      (c: Json) => c.relationships.owner.data.type === 'brokers' && c.relationships.liability_coverages.data.length > 0,
    );
    const cases: [Record<string, unknown>, string][] = [
      [{ carrier: { data: { type: 'carriers', id: dpd.id } } }, '/data/relationships/carrier/data/id'],
      [{ owner: { data: { type: 'organizations', id: otherOrganization } } }, '/data/relationships/owner/data/id'],
      [{ owner: { data: { type: 'organizations', id: '00000000-0000-4000-8000-000000000000' } } }, '/data/relationships/owner/data/id'],
      [{ owner: { data: { type: 'brokers', id: broker.relationships.owner.data.id } } }, '/data/relationships/owner/data/id'],
      [
        { contract_template: { data: { type: 'contract-templates', id: broker.relationships.contract_template.data.id } } },
        '/data/relationships/contract_template/data/id',
      ],
      [{ liability_coverages: broker.relationships.liability_coverages }, '/data/relationships/liability_coverages'],
    ];
    const details = new Set<string>();
    for (const [relationships, pointer] of cases) {
      const answer = await patch(s, t, contract.id, { name: 'Moved' }, { relationships });
      expect(answer.status, JSON.stringify(relationships)).toBe(422);
      expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer } });
      if (pointer.includes('owner')) details.add(firstError(answer).detail);
    }
    // Another tenant's organization is refused in the same words as an id that does not exist.
    expect(details.size).toBe(1);
    const after = (await s.get(`/contracts/${contract.id}`, t)).body.data;
    expect(after.attributes.name).toBe(contract.attributes.name);
    expect(after.relationships.carrier.data.id).toBe(postnl.id);
    // Clearing the template it never had, and sending its empty coverages, change nothing: 200.
    const same = await patch(s, t, contract.id, { name: 'Kept' }, { relationships: { contract_template: { data: null }, liability_coverages: { data: [] } } });
    expect(same.status, same.text).toBe(200);
  });

  it('refuses a new currency while rates of the contract hold prices, changing nothing', async () => {
    const s = await testSandbox();
    const t = await s.token();
    // The seeded own PostNL contract has rates priced in EUR.
    const own = (await s.get('/contracts?filter[status]=pending', t)).body.data[0];
    expect((await s.get(`/service-rates?filter[contract]=${own.id}`, t)).body.meta.total_records).toBeGreaterThan(0);
    const refused = await patch(s, t, own.id, { currency: 'GBP', name: 'Renamed' });
    expect(refused.status, refused.text).toBe(422);
    expect(firstError(refused)).toMatchObject({ code: '10008', source: { pointer: '/data/attributes/currency' } });
    expect((await s.get(`/contracts/${own.id}`, t)).body.data.attributes).toMatchObject({ currency: 'EUR', name: own.attributes.name });
    // Its rates stay changeable, and the same currency sent back is no change.
    expect((await patch(s, t, own.id, { currency: 'EUR', name: 'Renamed' })).status).toBe(200);
    const { contract } = await create(s, validCredentials.postnl!);
    const fresh = await patch(s, t, contract.id, { currency: 'GBP' });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.data.attributes.currency).toBe('GBP');
  });

  it('refuses to change a broker contract, another tenant’s contract, or a mismatched id', async () => {
    const broker = (await sandbox.get('/contracts', token)).body.data.find((c: Json) => c.relationships.owner.data.type === 'brokers');
    const shared = await patch(sandbox, token, broker.id, { name: 'Mine now' });
    expect(shared.status).toBe(403);
    expect(firstError(shared)).toMatchObject({ code: '10013' });
    const own = (await sandbox.get('/contracts?filter[status]=pending', token)).body.data[0];
    expect((await patch(sandbox, otherToken, own.id, { name: 'x' })).status).toBe(404);
    const mismatch = await sandbox.request('PATCH', `/contracts/${own.id}`, { token, body: { data: { type: 'contracts', id: broker.id, attributes: {} } } });
    expect(mismatch.status).toBe(409);
    expect(firstError(mismatch)).toMatchObject({ code: '10007', source: { pointer: '/data/id' } });
  });
});

describe('credentials never leave the server', () => {
  it('appear in no response, no log line and not in the stored data', async () => {
    const lines: string[] = [];
    const logger = {
      error: (o: object, m?: string) => lines.push(JSON.stringify(o) + (m ?? '')),
      warn: (o: object, m?: string) => lines.push(JSON.stringify(o) + (m ?? '')),
      info: (o: object, m?: string) => lines.push(JSON.stringify(o) + (m ?? '')),
      debug: (o: object, m?: string) => lines.push(JSON.stringify(o) + (m ?? '')),
    };
    const s = await testSandbox({ logger });
    const secret = 'S3cret-api-key-that-must-stay-inside-0123456789';
    const bodies: string[] = [];
    const t = await s.token();
    const org = (await s.get('/organizations', t)).body.data[0].id;
    const created = await s.request('POST', '/contracts', { token: t, body: contractBody(postnl.id, org, { ...validCredentials.postnl, api_key: secret }) });
    bodies.push(created.text);
    const id = created.body.data.id;
    await s.advance(DELAY);
    const rekey = await s.request('PATCH', `/contracts/${id}`, {
      token: t,
      body: { data: { type: 'contracts', id, attributes: { credentials: { api_key: `${secret}-2` } } } },
    });
    bodies.push(rekey.text);
    await s.advance(DELAY);
    for (const path of [`/contracts/${id}`, '/contracts?include=owner,carrier,liability_coverages', `/carriers/${postnl.id}/contracts?include=owner`]) {
      bodies.push((await s.get(path, t)).text);
    }
    expect(lines.length).toBeGreaterThan(0);
    for (const text of [...bodies, ...lines]) expect(text).not.toContain(secret);
    expect(JSON.stringify(s.store.snapshot())).not.toContain(secret);
    expect((await s.get(`/contracts/${id}`, t)).body.data.meta.verification_errors.join(' ')).not.toContain(secret);
  });
});
