import { describe, expect, it } from 'vitest';
import { firstError, tenantWithToken, testSandbox, type Json, type TestSandbox } from './support/app.js';

/** POST /contracts/{id}/validate: verification on demand, with production's plain JSON answer. */

const postnlCredentials = { customer_code: 'DEVC', customer_number: '11223344', api_key: 'k'.repeat(32) };

async function setup() {
  const sandbox = await testSandbox();
  const token = await sandbox.token();
  const organizationId = (await sandbox.get('/organizations', token)).body.data[0].id;
  const postnl = (await sandbox.read('/carriers')).body.data.find((carrier: Json) => carrier.attributes.code === 'postnl');
  const create = async (credentials: Json): Promise<Json> => {
    const answer = await sandbox.request('POST', '/contracts', {
      token,
      body: {
        data: {
          type: 'contracts',
          attributes: { name: 'Validated contract', currency: 'EUR', credentials },
          relationships: { carrier: { data: { type: 'carriers', id: postnl.id } }, owner: { data: { type: 'organizations', id: organizationId } } },
        },
      },
    });
    expect(answer.status, answer.text).toBe(201);
    return answer.body.data;
  };
  const contract = async (id: string) => (await sandbox.get(`/contracts/${id}`, token)).body.data;
  return { sandbox, token, create, contract };
}

const validate = (sandbox: TestSandbox, id: string, token: string, headers: Record<string, string> = {}) =>
  sandbox.request('POST', `/contracts/${id}/validate`, { token, headers });

describe('POST /contracts/{contract_id}/validate', () => {
  it('verifies good credentials at once: valid, and the pending contract is active without waiting', async () => {
    const { sandbox, token, create, contract } = await setup();
    const created = await create(postnlCredentials);
    expect(created.attributes.status).toBe('pending');
    const answer = await validate(sandbox, created.id, token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ data: { valid: true } });
    expect((await contract(created.id)).attributes.status).toBe('active');
    // The verification that was scheduled is dropped: nothing is left to run later.
    expect(sandbox.store.find('jobs', 'subject', created.id)).toEqual([]);
    await sandbox.advance(60);
    expect((await contract(created.id)).attributes.status).toBe('active');
  });

  it('reports bad credentials with a message and makes the contract invalid', async () => {
    const { sandbox, token, create, contract } = await setup();
    const created = await create({ customer_code: 'devc', customer_number: '1', api_key: 'short' });
    const answer = await validate(sandbox, created.id, token);
    expect(answer.status).toBe(200);
    expect(answer.body.data.valid).toBe(false);
    expect(answer.body.data.message).toMatch(/customer_code/);
    const after = await contract(created.id);
    expect(after.attributes.status).toBe('invalid');
    expect(after.meta.verification_errors.join(' ')).toBe(answer.body.data.message);

    // The sandbox trigger fails verification as it does after the delay.
    const triggered = await create({ ...postnlCredentials, api_key: 'invalid' });
    expect((await validate(sandbox, triggered.id, token)).body.data).toMatchObject({ valid: false, message: expect.stringMatching(/invalid/) });
  });

  it('leaves an inactive contract inactive when its credentials pass, and changes nothing on a repeat', async () => {
    const { sandbox, token, create, contract } = await setup();
    const created = await create(postnlCredentials);
    await validate(sandbox, created.id, token);
    const patched = await sandbox.request('PATCH', `/contracts/${created.id}`, {
      token,
      body: { data: { type: 'contracts', id: created.id, attributes: { status: 'inactive' } } },
    });
    expect(patched.body.data.attributes.status).toBe('inactive');
    const before = sandbox.store.snapshot();
    await sandbox.advance(1);
    expect((await validate(sandbox, created.id, token)).body).toEqual({ data: { valid: true } });
    expect((await contract(created.id)).attributes.status).toBe('inactive');
    expect(sandbox.store.get('contracts', created.id)).toEqual(before.tables.contracts!.find((row) => row.id === created.id));
  });

  it('finds credentials not valid when a pack gave the carrier a credentials_format that is no JSON Schema, at once and after the delay', async () => {
    const sandbox = await testSandbox();
    const carrier = {
      name: 'Odd Carrier',
      code: 'odd-carrier',
      // `strin` is no JSON type: ajv cannot compile this schema.
      credentials_format: { type: 'object', properties: { account: { type: 'strin' } } },
      label_formats: [{ mime_type: 'application/pdf', size: 'A6' }],
    };
    const pack = {
      carriers: [carrier],
      organizations: [{ key: 'odd-org', name: 'Odd Org', broker: 'broker', country_code: 'NL' }],
      users: [{ key: 'odd-user', organization: 'odd-org' }],
      clients: [{ id: 'odd-client', secret: 'odd-secret-odd-secret', user: 'odd-user' }],
      shops: [{ key: 'odd-shop', organization: 'odd-org' }],
    };
    const { made, token } = await tenantWithToken(sandbox, { pack });
    const create = async () => {
      const answer = await sandbox.request('POST', '/contracts', {
        token,
        body: {
          data: {
            type: 'contracts',
            attributes: { name: 'Odd', currency: 'EUR', credentials: { account: 'mine' } },
            relationships: {
              carrier: { data: { type: 'carriers', id: made.body.keys.carriers['odd-carrier'] } },
              owner: { data: { type: 'organizations', id: made.body.organization_id } },
            },
          },
        },
      });
      expect(answer.status, answer.text).toBe(201);
      return answer.body.data.id as string;
    };
    const status = async (id: string) => (await sandbox.get(`/contracts/${id}`, token)).body.data.attributes.status;

    const validated = await create();
    const answer = await validate(sandbox, validated, token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toEqual({ valid: false, message: expect.stringMatching(/^The JSON Schema that credentials must satisfy is not valid/) });
    expect(await status(validated)).toBe('invalid');

    // The verification on the clock ends too, instead of failing and leaving the contract pending.
    const waited = await create();
    await sandbox.advance(60);
    expect(await status(waited)).toBe('invalid');
  });

  it('finds a contract without stored credentials not valid', async () => {
    const { sandbox, token, contract } = await setup();
    const seeded = (await sandbox.get('/contracts?filter[status]=pending', token)).body.data[0];
    const answer = await validate(sandbox, seeded.id, token, { accept: 'application/vnd.api+json' });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ valid: false, message: expect.stringMatching(/No credentials/) });
    expect((await contract(seeded.id)).attributes.status).toBe('invalid');
  });

  it("refuses broker contracts (403, 10013), another tenant's (404) and tokens without organizations.manage, changing nothing", async () => {
    const { sandbox, token, create } = await setup();
    const own = await create(postnlCredentials);
    const broker = (await sandbox.get('/contracts?page[size]=100', token)).body.data.find((c: Json) => c.relationships.owner.data.type === 'brokers');
    const before = sandbox.store.snapshot();

    const shared = await validate(sandbox, broker.id, token);
    expect(shared.status).toBe(403);
    expect(firstError(shared)).toMatchObject({ status: '403', code: '10013' });
    const foreign = await validate(sandbox, own.id, await sandbox.token('other-client'));
    expect(firstError(foreign)).toMatchObject({ status: '404', code: '10002' });
    const limited = await validate(sandbox, own.id, await sandbox.token('limited-client'));
    expect(firstError(limited)).toMatchObject({ status: '403', code: '14004' });
    expect(sandbox.store.snapshot()).toEqual(before);
  });
});
