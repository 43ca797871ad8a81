import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json } from './support/app.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/*
 * Production's update bodies require only `type` and `id` in `data`; a `relationships` object, when
 * sent, must name the resource's organization, broker, enterprise, carrier, owner or shipment. The
 * spec's updates carry "type and id plus only the attributes to change": such a body changes the
 * attributes and leaves the relationship as it was. An empty relationships object is 400 at the
 * member, and the body with the relationship sent back as read is 200 too.
 */

const ADMIN = 'admin-token-for-patches';

describe('PATCH bodies and the relationship production names', () => {
  it('change the attributes without it, keeping the relationship, for all seven; an empty relationships object is 400 at the member', async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
    const token = await sandbox.token();
    const organization: Json = (await sandbox.get('/organizations', token)).body.data[0];
    const organizationRef = { data: { type: 'organizations', id: organization.id } };
    const shop: Json = (await sandbox.get('/shops', token)).body.data[0];
    const broker: Json = (await sandbox.get(`/brokers/${organization.relationships.broker.data.id}`, token)).body.data;
    const postnl: Json = (await sandbox.read('/carriers')).body.data.find((carrier: Json) => carrier.attributes.code === 'postnl');
    const made = async (path: string, body: Json) => {
      const answer = await sandbox.request('POST', path, { token, body });
      expect(answer.status, answer.text).toBe(201);
      return answer.body.data as Json;
    };
    const address = await made('/addresses', {
      data: { type: 'addresses', attributes: { street_1: 'Dam', city: 'Amsterdam', country_code: 'NL' }, relationships: { organization: organizationRef } },
    });
    const surcharge = await made('/carrier-surcharges', {
      data: {
        type: 'carrier-surcharges',
        attributes: { name: 'Fragile', fee: { amount: 100, currency: 'EUR' } },
        relationships: { carrier: { data: { type: 'carriers', id: postnl.id } } },
      },
    });
    const hook = await made('/hooks', {
      data: {
        type: 'hooks',
        attributes: {
          name: 'Channel',
          order: 1,
          active: false,
          trigger: { resource_type: 'shipments', resource_action: 'create' },
          action: { action_type: 'update-resource', values: [{ pointer: '/attributes/channel', value: 'web' }] },
        },
        relationships: { owner: organizationRef },
      },
    });
    const w = await world(sandbox);
    const service = w.service('postnl-parcel-standard', 'NL');
    const shipment = await createShipment(sandbox, token, shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service) }));
    const manual = await made('/shipment-surcharges', {
      data: {
        type: 'shipment-surcharges',
        attributes: { name: 'Call first', fee: { amount: 50, currency: 'EUR' } },
        relationships: { shipment: { data: { type: 'shipments', id: shipment.id } } },
      },
    });

    const cases = [
      { path: `/addresses/${address.id}`, type: 'addresses', attributes: { company: 'Changed' }, relationships: { organization: organizationRef } },
      {
        path: `/organizations/${organization.id}`,
        type: 'organizations',
        attributes: { reference: 'changed' },
        relationships: { broker: organization.relationships.broker },
      },
      {
        path: `/brokers/${broker.id}`,
        type: 'brokers',
        attributes: { support_url: 'https://changed.example.com' },
        relationships: broker.relationships,
        as: ADMIN,
      },
      { path: `/shops/${shop.id}`, type: 'shops', attributes: { reference: 'changed' }, relationships: { organization: organizationRef } },
      { path: `/carrier-surcharges/${surcharge.id}`, type: 'carrier-surcharges', attributes: { name: 'Changed' }, relationships: surcharge.relationships },
      { path: `/hooks/${hook.id}`, type: 'hooks', attributes: { name: 'Changed' }, relationships: { owner: organizationRef } },
      { path: `/shipment-surcharges/${manual.id}`, type: 'shipment-surcharges', attributes: { name: 'Changed' }, relationships: manual.relationships },
    ];
    for (const { path, type, attributes, relationships, as = token } of cases) {
      const id = path.split('/').at(-1)!;
      const before = (await sandbox.get(path, token)).body.data;
      const member = Object.keys(relationships)[0]!;
      const empty = await sandbox.request('PATCH', path, { token: as, body: { data: { type, id, attributes, relationships: {} } } });
      expect(empty.status, `${path}: ${empty.text}`).toBe(400);
      expect(firstError(empty)).toMatchObject({ code: '10003', source: { pointer: `/data/relationships/${member}` } });
      expect((await sandbox.get(path, token)).body.data, path).toEqual(before);
      const without = await sandbox.request('PATCH', path, { token: as, body: { data: { type, id, attributes } } });
      expect(without.status, `${path}: ${without.text}`).toBe(200);
      expect(without.body.data.attributes, path).toMatchObject(attributes);
      expect(without.body.data.relationships[member], path).toEqual(before.relationships[member]);
      const sent = await sandbox.request('PATCH', path, { token: as, body: { data: { type, id, attributes: before.attributes, relationships } } });
      expect(sent.status, `${path}: ${sent.text}`).toBe(200);
    }
  });
});
