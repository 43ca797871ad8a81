import { describe, expect, it } from 'vitest';
import { firstError, tenantWithToken, testSandbox, type Json } from './support/app.js';

/*
 * Regular expressions a tenant's pack supplies (a service route's postal code pattern, a carrier's
 * credentials_format) run in linear time. On the usual backtracking engine the patterns below
 * take hours for the 20-character postal code and the 30-character credential, holding the whole
 * sandbox; without linear matching these tests do not end.
 */

const json = { 'content-type': 'application/json' };
/** Nested quantifiers: a text of A's that fails at its end backtracks through every way of splitting it. */
const NESTED = '^(((A+)+)+)+$';

function pack(overrides: { postalCode?: string; credentialPattern?: string } = {}): Json {
  return {
    carriers: [
      {
        name: 'Pattern Carrier',
        code: 'pattern-carrier',
        credentials_format: {
          type: 'object',
          required: ['key'],
          properties: { key: { type: 'string', pattern: overrides.credentialPattern ?? NESTED.toLowerCase() } },
        },
        label_formats: [{ mime_type: 'application/pdf', size: 'A6' }],
      },
    ],
    services: [
      {
        key: 'pattern-parcel',
        carrier: 'pattern-carrier',
        region_from: 'nl',
        region_to: 'nl',
        name: 'Pattern Parcel',
        code: 'pattern-parcel',
        package_type: 'parcel',
        handover_method: 'drop-off',
        delivery_method: 'delivery',
        uses_volumetric_weight: false,
        delivery_days: ['Monday'],
        transit_time: { min: 1, max: 1 },
        regions_from: [{ country_code: 'NL' }],
        regions_to: [{ country_code: 'NL', postal_code: overrides.postalCode ?? NESTED }],
      },
    ],
    organizations: [{ key: 'pattern-org', name: 'Pattern Org', broker: 'broker', country_code: 'NL' }],
    users: [{ key: 'pattern-user', organization: 'pattern-org' }],
    clients: [{ id: 'pattern-client', secret: 'pattern-secret-pattern-secret', user: 'pattern-user' }],
    shops: [{ key: 'pattern-shop', organization: 'pattern-org' }],
  };
}

describe("patterns from a tenant's pack", () => {
  it("matches a service route's postal code pattern in linear time, ignoring case as before", async () => {
    const sandbox = await testSandbox();
    const { made, token } = await tenantWithToken(sandbox, { pack: pack() });
    const serviceId = made.body.keys.services['pattern-parcel'] as string;
    const listed = async (postalCode: string) => {
      const answer = await sandbox.get(`/services?filter[address_to][country_code]=NL&filter[address_to][postal_code]=${postalCode}`, token);
      expect(answer.status, answer.text).toBe(200);
      return answer.body.data.some((row: Json) => row.id === serviceId);
    };
    expect(await listed(`${'A'.repeat(19)}!`)).toBe(false);
    expect(await listed('AAAA')).toBe(true);
    expect(await listed('aaAa')).toBe(true);
    expect(await listed('AAB')).toBe(false);
  });

  it("checks a credentials_format's pattern in linear time: the contract's credentials are not valid", async () => {
    const sandbox = await testSandbox();
    const { made, token } = await tenantWithToken(sandbox, { pack: pack() });
    const contract = await sandbox.request('POST', '/contracts', {
      token,
      body: {
        data: {
          type: 'contracts',
          attributes: { name: 'Pattern contract', currency: 'EUR', credentials: { key: `${'a'.repeat(30)}!` } },
          relationships: {
            carrier: { data: { type: 'carriers', id: made.body.keys.carriers['pattern-carrier'] } },
            owner: { data: { type: 'organizations', id: made.body.organization_id } },
          },
        },
      },
    });
    expect(contract.status, contract.text).toBe(201);
    const answer = await sandbox.request('POST', `/contracts/${contract.body.data.id}/validate`, { token });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.valid).toBe(false);
    expect(answer.body.data.message).toMatch(/must match pattern/);
  });

  it('refuses a pattern that cannot run in linear time (backreferences, lookarounds), naming where it is', async () => {
    const sandbox = await testSandbox();
    const tenants = sandbox.store.count('organizations');
    const postal = await sandbox.request('POST', '/_sandbox/tenants', { body: { pack: pack({ postalCode: '^(A)\\1$' }) }, headers: json });
    expect(postal.status, postal.text).toBe(422);
    expect(firstError(postal).source).toEqual({ pointer: '/pack/services/0/regions_to/0/postal_code' });
    expect(firstError(postal).detail).toMatch(/linear time/);
    const credential = await sandbox.request('POST', '/_sandbox/tenants', { body: { pack: pack({ credentialPattern: '^(?=a)a+$' }) }, headers: json });
    expect(credential.status, credential.text).toBe(422);
    expect(firstError(credential).source).toEqual({ pointer: '/pack/carriers/0/credentials_format/properties/key/pattern' });
    expect(sandbox.store.count('organizations')).toBe(tenants);
  });
});
