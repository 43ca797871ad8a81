// The rows the API reference's examples act on, made once per tenant by ordinary API requests:
// every example that reads, changes or deletes one of them works the first time it is executed,
// in any order, without touching the seeded data the other examples use.
import { randomUUID } from 'node:crypto';
import { signToken } from '../../auth/tokens.js';
import { withExampleIds } from '../../ids.js';
import { scopes } from '../../model/tenancy.js';
import type { Services } from '../../services.js';
import { getSetting, putSetting } from '../../store/settings.js';
import { TINY_PNG } from './account.js';
import { anna, collectionBody, contractShipmentBody, shipmentBody, warehouse } from './bodies.js';
import { returnBody } from './returns.js';
import { ref } from './types.js';
import type { ExampleIds } from './ids.js';

/** One row (or a few) made for the examples: a request whose ids follow from the tenant and `name`. */
export interface SetupStep {
  name: string;
  method: 'POST' | 'PATCH';
  path: (ids: ExampleIds) => string;
  body?: (ids: ExampleIds) => unknown;
  /** Sent with the admin token (or none, on a sandbox without one): a broker's operation. */
  admin?: true;
  /** Instead of a request: made in process (a tenant, which only the controls make). */
  make?: (services: Services, ids: ExampleIds) => Promise<unknown>;
}

const post = (name: string, path: string | ((ids: ExampleIds) => string), body?: (ids: ExampleIds) => unknown): SetupStep => ({
  name,
  method: 'POST',
  path: typeof path === 'string' ? () => path : path,
  ...(body ? { body } : {}),
});

const address = (ids: ExampleIds) => ({
  data: { type: 'addresses', attributes: anna, relationships: { organization: { data: { type: 'organizations', id: ids.organization } } } },
});
const hook = (name: string, active: boolean) => (ids: ExampleIds) => ({
  data: {
    type: 'hooks',
    attributes: {
      name,
      order: 100,
      active,
      trigger: {
        resource_type: 'shipments',
        resource_action: 'create',
        predicates: [{ pointer: '/attributes/recipient_address/country_code', operator: '==', value: 'NL' }],
      },
      action: { action_type: 'update-resource', values: [{ pointer: '/attributes/channel', value: 'web-shop' }] },
    },
    relationships: { owner: { data: { type: 'shops', id: ids.shop } } },
  },
});
const surcharge = (name: string) => (ids: ExampleIds) => ({
  data: {
    type: 'carrier-surcharges',
    attributes: { name, description: 'Handling of fragile goods', fee: { amount: 150, currency: 'EUR' } },
    relationships: { carrier: { data: { type: 'carriers', id: ids.carrier('postnl') } } },
  },
});
const zone = (code: string) => () => ({
  data: {
    type: 'zones',
    attributes: { name: `Benelux ${code}`, code, description: 'Where the shop ships for a flat rate.', country_codes: ['NL', 'BE', 'LU'] },
  },
});
const tag = (name: string) => (ids: ExampleIds) => ({
  data: { type: 'return-tags', attributes: { name, color: '#2563eb' }, relationships: { shop: { data: { type: 'shops', id: ids.shop } } } },
});

const ownContract = (name: string) => (ids: ExampleIds) => ({
  data: {
    type: 'contracts',
    attributes: { name, currency: 'EUR', credentials: { customer_code: 'DEVC', customer_number: '11223344', api_key: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6' } },
    relationships: { carrier: ref('carriers', ids.carrier('postnl')), owner: ref('organizations', ids.organization) },
  },
});
const question = (code: string) => () => ({
  data: { type: 'return-questions', attributes: { code, description: { 'en-GB': 'Was it gift-wrapped?' }, answer_type: 'boolean' } },
});
const reason = (code: string) => () => ({
  data: {
    type: 'return-reasons',
    attributes: {
      code,
      description: { 'en-GB': 'Arrived damaged' },
      accepts_attachments: true,
      requires_attachments: false,
      accepts_comment: true,
      requires_comment: false,
    },
  },
});
const method = (title: string) => (ids: ExampleIds) => ({
  data: {
    type: 'return-methods',
    attributes: { return_type: 'self-shipment', title, description: 'Send it back with a carrier of your choice.', country_codes: ['NL'] },
    relationships: { shop: ref('shops', ids.shop) },
  },
});
/**
 * A tenant the examples of the tenant and organization deletions remove (admin operations), made
 * for a seeded organization only: a tenant made through the controls (a visitor's) gets none, so
 * visitors never hold more than their one place under MAX_TENANTS.
 */
const scratchTenant = (name: string) => async (services: Services, ids: ExampleIds) => {
  const { createTenant } = await import('../../controls/tenants.js');
  const { tenantEntry } = await import('../../domain/tenant-lifetime.js');
  if (tenantEntry(services.store, ids.organization)) return undefined;
  return createTenant(services, { name });
};

/** Every step, in the order they run; an example names a row by the step's name (`ids.made(name)`). */
export const setupSteps: readonly SetupStep[] = [
  post('address', '/addresses', address),
  post('address-to-delete', '/addresses', address),
  post('hook', '/hooks', hook('Domestic orders come from the web shop', true)),
  post('hook-to-delete', '/hooks', hook('An old rule', false)),
  post('carrier-surcharge', '/carrier-surcharges', surcharge('Fragile goods')),
  post('carrier-surcharge-to-delete', '/carrier-surcharges', surcharge('Old fee')),
  post('zone', '/zones', zone('BENELUX')),
  post('zone-to-delete', '/zones', zone('BENELUX-OLD')),
  post('shipment', '/shipments', (ids) => shipmentBody(ids)),
  post('shipment-to-change', '/shipments', (ids) => shipmentBody(ids, { reference: 'ORDER-1002' })),
  post('shipment-to-delete', '/shipments', (ids) => shipmentBody(ids, { reference: 'ORDER-1003' })),
  post('consolidation', '/shipments', (ids) => contractShipmentBody(ids, 'postnl', 'postnl-parcel-standard', 'PALLET-1')),
  post('consolidated', '/shipments', (ids) => contractShipmentBody(ids, 'postnl', 'postnl-parcel-standard', 'ORDER-1004')),
  post('registered', '/registered-shipments', (ids) => shipmentBody(ids, { reference: 'ORDER-2001' })),
  post('registered-to-void', '/registered-shipments', (ids) => shipmentBody(ids, { reference: 'ORDER-2002' })),
  post('collection-parcel', '/shipments', (ids) => contractShipmentBody(ids, 'postnl', 'postnl-parcel-standard', 'ORDER-2003')),
  post('collection', '/collections', (ids) => collectionBody(ids, 'postnl', 3, 'Warehouse pick-up')),
  post('collection-to-delete', '/collections', (ids) => collectionBody(ids, 'postnl', 4, 'Extra pick-up')),
  post('collection-schedule', '/collection-schedules', (ids) => ({
    data: {
      type: 'collection-schedules',
      attributes: { days: ['monday', 'thursday'], collection: { description: 'Weekly pick-up', time: { from: '14:00', to: '16:00' }, address: warehouse } },
      relationships: { shop: { data: { type: 'shops', id: ids.shop } }, contract: { data: { type: 'contracts', id: ids.brokerContract('postnl') } } },
    },
  })),
  post('manifest', '/manifests', (ids) => ({
    data: {
      type: 'manifests',
      attributes: { name: 'Evening manifest', address: warehouse },
      relationships: { shipments: { data: [{ type: 'shipments', id: ids.made('registered') }] } },
    },
  })),
  post('return-tag', '/returns/v1/tags', tag('Gift')),
  post('return-tag-to-delete', '/returns/v1/tags', tag('Old tag')),
  post('contract', '/contracts', ownContract('Own PostNL contract')),
  post('contract-to-delete', '/contracts', ownContract('Old PostNL contract')),
  post('service-rate', '/service-rates', (ids) => ({
    data: {
      type: 'service-rates',
      attributes: { weight_min: 2001, weight_max: 10000, price: { amount: 895, currency: 'EUR' } },
      relationships: { service: ref('services', ids.service('postnl-parcel-standard')), contract: ref('contracts', ids.made('contract')) },
    },
  })),
  post('shop-to-delete', '/shops', (ids) => ({
    data: {
      type: 'shops',
      attributes: { name: 'Pop-up Store', sender_address: warehouse, return_address: warehouse },
      relationships: { organization: ref('organizations', ids.organization) },
      meta: { logo: { mime_type: 'image/png', contents: TINY_PNG } },
    },
  })),
  {
    ...post('template-to-delete', '/contracts/v1/templates', (ids) => ({
      data: {
        type: 'contract-templates',
        attributes: { name: 'Old PostNL template', currency: 'EUR' },
        relationships: { broker: ref('brokers', ids.broker), carrier: ref('carriers', ids.carrier('postnl')), services: { data: [] } },
      },
    })),
    admin: true,
  },
  { ...post('organization-to-delete', ''), make: scratchTenant('Organization to delete') },
  { ...post('tenant-to-delete', ''), make: scratchTenant('Tenant to delete') },
  post('return-question', '/returns/v1/questions', question('gift-wrapped')),
  post('return-question-to-delete', '/returns/v1/questions', question('old-question')),
  post('return-reason', '/returns/v1/reasons', reason('arrived-damaged')),
  post('return-reason-to-delete', '/returns/v1/reasons', reason('old-reason')),
  post('return-method', '/returns/v1/return-methods', method('Return to the warehouse')),
  post('return-method-to-delete', '/returns/v1/return-methods', method('Old method')),
  post('return', '/returns/v1/returns', (ids) => returnBody(ids, 0)),
  post('return-to-reject', '/returns/v1/returns', (ids) => returnBody(ids, 0)),
  post('return-to-charge', '/returns/v1/returns', (ids) => returnBody(ids, 1)),
  post('return-to-pay', '/returns/v1/returns', (ids) => returnBody(ids, 2)),
  post(
    'return-to-pay-request',
    (ids) => `/returns/v1/returns/${ids.made('return-to-pay')}/request-payment`,
    () => ({
      data: { return_payment: { amount: 495, currency: 'EUR' } },
    }),
  ),
  post('return-to-settle', '/returns/v1/returns', (ids) => returnBody(ids, 3)),
  post(
    'return-to-settle-request',
    (ids) => `/returns/v1/returns/${ids.made('return-to-settle')}/request-payment`,
    () => ({
      data: { return_payment: { amount: 295, currency: 'EUR' } },
    }),
  ),
  post('return-report', '/returns/v1/reports', (ids) => ({
    data: { type: 'return-reports', attributes: { name: 'Last month', filters: { shops: [ids.shop] } } },
  })),
  post('return-report-to-delete', '/returns/v1/reports', (ids) => ({
    data: { type: 'return-reports', attributes: { name: 'Old report', filters: { shops: [ids.shop] } } },
  })),
];

/** The setting that says a tenant's example rows were made. */
const madeSetting = (organizationId: string) => `docs-examples:${organizationId}`;

/** Whether the example rows of a tenant exist (were made and not reset since). */
export function examplesMade(services: Services, organizationId: string): boolean {
  return getSetting<boolean>(services.store, madeSetting(organizationId)) === true;
}

/**
 * Makes the example rows of a tenant once: each step is a request to the sandbox itself, in
 * process, with an access token of the tenant's client, so every rule applies as it would to a
 * user's request. Does nothing when they were made already.
 */
export async function makeExampleRows(
  services: Services,
  dispatch: (request: Request) => Promise<Response>,
  ids: ExampleIds,
  baseUrl: string,
): Promise<{ made: boolean; failed: string[] }> {
  if (examplesMade(services, ids.organization)) return { made: false, failed: [] };
  const failed: string[] = [];
  const client = services.store.get('clients', ids.client);
  const { token } = await signToken(services.keys, services.clock, services.config, {
    clientId: ids.client,
    scopes,
    jti: randomUUID(),
    generation: client?.token_generation ?? 0,
  });
  const admin = services.config.adminToken;
  for (const step of setupSteps) {
    if (step.make) {
      await withExampleIds(ids.organization, step.name, () => step.make!(services, ids));
      continue;
    }
    // A tenant made through the controls has no returns configuration or orders: steps that need
    // them fail, and so do the examples of their rows; the others are made all the same.
    const headers: Record<string, string> = { accept: 'application/vnd.api+json' };
    if (!step.admin) headers.authorization = `Bearer ${token}`;
    else if (admin !== undefined) headers.authorization = `Bearer ${admin}`;
    const init: RequestInit = { method: step.method, headers };
    if (step.body) {
      headers['content-type'] = 'application/vnd.api+json';
      init.body = JSON.stringify(step.body(ids));
    }
    const answer = await withExampleIds(ids.organization, step.name, () => dispatch(new Request(baseUrl + step.path(ids), init)));
    if (answer.status >= 300) {
      failed.push(step.name);
      services.logger?.warn({ step: step.name, status: answer.status, answer: (await answer.text()).slice(0, 500) }, 'an example row could not be made');
    } else await answer.body?.cancel();
  }
  await services.store.transact((tx) => putSetting(tx, madeSetting(ids.organization), true));
  return { made: true, failed };
}
