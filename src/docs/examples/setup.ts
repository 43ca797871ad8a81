// The rows the API reference's examples act on, made once per tenant by ordinary API requests:
// every example that reads, changes or deletes one of them works the first time it is executed,
// in any order, without touching the seeded data the other examples use.
import { randomUUID } from 'node:crypto';
import { signToken } from '../../auth/tokens.js';
import { exampleRowId, withExampleIds } from '../../ids.js';
import { scopes } from '../../model/tenancy.js';
import type { Services } from '../../http/services.js';
import { getSetting, putSetting } from '../../store/settings.js';
import type { Tx } from '../../store/store.js';
import { systemMessage, TINY_PNG } from './account.js';
import { anna, collectionBody, contractShipmentBody, manualSurcharge, shipmentBody, warehouse } from './bodies.js';
import { returnBody } from './returns.js';
import { ref } from './types.js';
import { ORDER_MARKS, type ExampleIds } from './ids.js';

/** One row (or a few) made for the examples: a request whose ids follow from the tenant and `name`. */
export interface SetupStep {
  name: string;
  method: 'POST' | 'PATCH';
  path: (ids: ExampleIds) => string;
  body?: (ids: ExampleIds) => unknown;
  /**
   * Only the admin token (or none, on a sandbox without one) may make it: a broker's operation, or
   * a tenant of its own. Sent with the admin token; made only when the examples are asked for by
   * the admin, never with a tenant's own token, which could not make it directly either.
   */
  admin?: true;
  /** A row a tenant reset leaves (the broker's, another tenant): made again only when it is gone. */
  made?: (services: Services, ids: ExampleIds) => boolean;
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
 * A tenant the admin examples act on (the tenant and organization deletions, loading a pack). For a
 * tenant made through the controls (a visitor's) it ends when that tenant does and is made only
 * while the cap leaves room for it without making another tenant give way.
 */
const scratchTenant = (name: string) => async (services: Services, ids: ExampleIds) => {
  const { createTenant } = await import('../../controls/tenants.js');
  const { apiTenants, tenantEntry } = await import('../../domain/tenant-lifetime.js');
  // Made for the tenant (`made_for`), it goes whenever the tenant goes, however that happens.
  const madeFor = ids.organization;
  const owner = tenantEntry(services.store, ids.organization);
  if (!owner) return createTenant(services, { name }, { madeFor });
  if (apiTenants(services.store).length >= services.config.maxTenants) return undefined;
  const ttl = owner.expires_at === undefined ? undefined : owner.expires_at - services.clock.now();
  if (ttl !== undefined && ttl <= 0) return undefined;
  return createTenant(services, { name, ...(ttl !== undefined ? { ttl } : {}) }, { visitor: owner.visitor === true, madeFor });
};

/** The steps that make a scratch tenant: its organization's id is the step's first (`ids.made(step)`). */
const SCRATCH_STEPS = ['organization-to-delete', 'tenant-to-delete', 'tenant-for-pack'] as const;

/** The organization ids of the scratch tenants a tenant's examples make (or made), whether they exist or not. */
export function scratchTenantIds(organizationId: string): string[] {
  return SCRATCH_STEPS.map((step) => exampleRowId(organizationId, step));
}

/** A demo order of the shop to the example consumer, marked for ids.ts to find: `quantity` tea towels. */
const exampleOrder = (mark: string, quantity: number) => (ids: ExampleIds) => ({
  data: {
    type: 'demo-orders',
    attributes: {
      recipient_address: ids.consumer,
      items: [
        {
          sku: 'TOWEL-3',
          name: 'Tea towels',
          description: 'Linen tea towel',
          quantity,
          item_price: { amount: 1295, currency: 'EUR' },
          item_weight: { amount: 150, unit: 'g' },
        },
      ],
      outbound_shipment_identifier: mark,
    },
    relationships: { shop: ref('shops', ids.shop) },
  },
});

/** Whether the tenant a step made (its first id is the organization's) still exists. */
const organizationExists = (name: string) => (services: Services, ids: ExampleIds) => services.store.get('organizations', ids.made(name)) !== undefined;

/** The return shipment of a return, as a list of job subjects (none when it has none). */
const returnShipment = (services: Services, returnId: string): string[] => {
  const shipmentId = services.store.get('returns', returnId)?.shipment_id;
  return shipmentId ? [shipmentId] : [];
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
  post('manual-surcharge', '/shipment-surcharges', (ids) => manualSurcharge(ids.made('shipment'), 'Call before delivery', 250)),
  post('manual-surcharge-to-delete', '/shipment-surcharges', (ids) => manualSurcharge(ids.made('shipment'), 'Old fee', 100)),
  post('shipment-to-change', '/shipments', (ids) => shipmentBody(ids, { reference: 'ORDER-1002' })),
  post('shipment-to-delete', '/shipments', (ids) => shipmentBody(ids, { reference: 'ORDER-1003' })),
  post('consolidation', '/shipments', (ids) => contractShipmentBody(ids, 'postnl', 'postnl-parcel-standard', 'PALLET-1')),
  post('consolidated', '/shipments', (ids) => contractShipmentBody(ids, 'postnl', 'postnl-parcel-standard', 'ORDER-1004')),
  post('registered', '/registered-shipments', (ids) => shipmentBody(ids, { reference: 'ORDER-2001' })),
  post('registered-to-void', '/registered-shipments', (ids) => shipmentBody(ids, { reference: 'ORDER-2002' })),
  // Collections take parcels the carrier picks up: a service handed over by collection.
  post('collection-parcel', '/shipments', (ids) => contractShipmentBody(ids, 'postnl', 'postnl-parcel-business', 'ORDER-2003')),
  post('collection', '/collections', (ids) => collectionBody(ids, 'postnl', 3, 'Warehouse pick-up')),
  post('collection-to-delete', '/collections', (ids) => collectionBody(ids, 'postnl', 4, 'Extra pick-up')),
  // A registered parcel in the collection (PostNL takes only parcels not registered yet: it joins
  // as it is registered), so the collection gets a manifest, and one made now for its file.
  post('collection-registered', '/registered-shipments', (ids) => {
    const body = contractShipmentBody(ids, 'postnl', 'postnl-parcel-business', 'ORDER-2004');
    return { data: { ...body.data, relationships: { ...body.data.relationships, collection: ref('collections', ids.made('collection')) } } };
  }),
  post('collection-manifest', '/create-manifest-for-collection', (ids) => ({ data: { collection_id: ids.made('collection') } })),
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
    made: (services, ids) => services.store.get('contractTemplates', ids.made('template-to-delete')) !== undefined,
  },
  {
    ...post('system-message', '/system-messages', (ids) => systemMessage(ids, 'New: return labels for Belgium.', 'info')),
    admin: true,
    made: (services, ids) => services.store.get('systemMessages', ids.made('system-message')) !== undefined,
  },
  {
    ...post('system-message-to-delete', '/system-messages', (ids) => systemMessage(ids, 'Planned maintenance on Sunday night.', 'info')),
    admin: true,
    made: (services, ids) => services.store.get('systemMessages', ids.made('system-message-to-delete')) !== undefined,
  },
  { ...post('organization-to-delete', ''), admin: true, make: scratchTenant('Organization to delete'), made: organizationExists('organization-to-delete') },
  { ...post('tenant-to-delete', ''), admin: true, make: scratchTenant('Tenant to delete'), made: organizationExists('tenant-to-delete') },
  { ...post('tenant-for-pack', ''), admin: true, make: scratchTenant('Tenant with a pack'), made: organizationExists('tenant-for-pack') },
  post('return-question', '/returns/v1/questions', question('gift-wrapped')),
  post('return-question-to-delete', '/returns/v1/questions', question('old-question')),
  post('return-reason', '/returns/v1/reasons', reason('arrived-damaged')),
  post('return-reason-to-delete', '/returns/v1/reasons', reason('old-reason')),
  post('return-method', '/returns/v1/return-methods', method('Return to the warehouse')),
  post('return-method-to-delete', '/returns/v1/return-methods', method('Old method')),
  // A reason the shop offers, for a shop with none yet (a tenant made through the controls).
  post('return-reason-offered', '/returns/v1/reasons', reason('colour-differs')),
  post(
    'shop-offers-reason',
    (ids) => `/returns/v1/shops/${ids.shop}/reasons`,
    (ids) => ({ data: { return_reason_ids: [ids.made('return-reason-offered')] } }),
  ),
  // The order the returns below are of: an item of which many may be returned. Its reference is
  // drawn when it is made, so no example names it; the stand-in first order is for a shop without
  // orders of its own (a tenant made through the controls): the examples that read an order name it.
  post('returns-order', '/returns/v1/demo-orders', exampleOrder(ORDER_MARKS.returns, 20)),
  post('stand-in-order', '/returns/v1/demo-orders', exampleOrder(ORDER_MARKS.standIn, 2)),
  post('return', '/returns/v1/returns', (ids) => returnBody(ids, ids.returnsOrder)),
  // An open return to tag: tags change only while a return is open, and the example's approval decides 'return'.
  post('return-to-tag', '/returns/v1/returns', (ids) => returnBody(ids, ids.returnsOrder)),
  // An open return of the shop's first order: the order may be allowed a reissue.
  post('return-of-first-order', '/returns/v1/returns', (ids) => returnBody(ids, ids.order(0))),
  // An approved return whose method has a recovery service: it may ask for a recovery shipment.
  post('return-method-recovery', '/returns/v1/return-methods', (ids) => ({
    data: {
      type: 'return-methods',
      attributes: {
        return_type: 'shipment',
        title: 'Return label with a spare',
        description: 'A new label if the first is lost.',
        country_codes: [ids.consumer.country_code],
      },
      relationships: {
        shop: ref('shops', ids.shop),
        service: ref('services', ids.returnCarriage.service),
        contract: ref('contracts', ids.returnCarriage.contract),
        recovery_service: ref('services', ids.returnCarriage.service),
        recovery_contract: ref('contracts', ids.returnCarriage.contract),
      },
    },
  })),
  post('return-to-recover', '/returns/v1/returns', (ids) => {
    const body = returnBody(ids, ids.returnsOrder);
    return { data: { ...body.data, relationships: { ...body.data.relationships, return_method: ref('return-methods', ids.made('return-method-recovery')) } } };
  }),
  post('return-to-recover-approve', (ids) => `/returns/v1/returns/${ids.made('return-to-recover')}/approve`),
  // An approved return whose label the carrier refused (its tag is a sandbox trigger): it may be retried.
  post('return-tag-failing', '/returns/v1/tags', tag('sandbox:registration-failed')),
  post('return-failed', '/returns/v1/returns', (ids) => returnBody(ids, ids.returnsOrder)),
  post(
    'return-failed-tag',
    (ids) => `/returns/v1/returns/${ids.made('return-failed')}/tag`,
    (ids) => ({ data: { return_tag_ids: [ids.made('return-tag-failing')] } }),
  ),
  post('return-failed-approve', (ids) => `/returns/v1/returns/${ids.made('return-failed')}/approve`),
  { ...post('return-failed-registration', ''), make: (services, ids) => services.jobs.runEarly(returnShipment(services, ids.made('return-failed'))) },
  post('return-to-reject', '/returns/v1/returns', (ids) => returnBody(ids, ids.returnsOrder)),
  post('return-to-charge', '/returns/v1/returns', (ids) => returnBody(ids, ids.returnsOrder)),
  post('return-to-pay', '/returns/v1/returns', (ids) => returnBody(ids, ids.returnsOrder)),
  post(
    'return-to-pay-request',
    (ids) => `/returns/v1/returns/${ids.made('return-to-pay')}/request-payment`,
    () => ({
      data: { return_payment: { amount: 495, currency: 'EUR' } },
    }),
  ),
  post('return-to-settle', '/returns/v1/returns', (ids) => returnBody(ids, ids.returnsOrder)),
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
  // Reports are generated a few seconds later on the sandbox clock: these are generated now.
  {
    ...post('return-reports-generated', ''),
    make: (services, ids) => services.jobs.runEarly([ids.made('return-report'), ids.made('return-report-to-delete')]),
  },
];

/** The setting that says a tenant's example rows were made. */
const madeSetting = (organizationId: string) => `docs-examples:${organizationId}`;

/**
 * Whether a tenant's example rows were made: all of them (`true`), or all but the admin's
 * (`without-admin`: a tenant's own token asked for them), which the admin's request makes later.
 */
type MadeState = true | 'without-admin';

/** Forgets that a tenant's example rows were made: its reset removed them, the next page makes them again. */
export function forgetExampleRows(tx: Tx, organizationId: string): void {
  if (tx.get('settings', madeSetting(organizationId))) tx.remove('settings', madeSetting(organizationId));
}

/** How far the example rows of a tenant were made (not reset since); `undefined` when they were not. */
function examplesMade(services: Services, organizationId: string): MadeState | undefined {
  return getSetting<MadeState>(services.store, madeSetting(organizationId));
}

/**
 * Makes the example rows of a tenant once: each step is a request to the sandbox itself, in
 * process, with an access token of the tenant's client, so every rule applies as it would to a
 * user's request. Does nothing when they were made already. Asked for by a tenant's own token
 * (`asAdmin` false), it leaves out the rows only the admin may make (`needsAdmin` names them), as
 * their requests would refuse that token; the admin's request makes them later.
 */
export async function makeExampleRows(
  services: Services,
  dispatch: (request: Request) => Promise<Response>,
  ids: ExampleIds,
  baseUrl: string,
  asAdmin = true,
): Promise<{ made: boolean; failed: string[]; needsAdmin: string[] }> {
  const state = examplesMade(services, ids.organization);
  if (state === true || (state === 'without-admin' && !asAdmin)) return { made: false, failed: [], needsAdmin: [] };
  const failed: string[] = [];
  const needsAdmin: string[] = [];
  const client = services.store.get('clients', ids.client);
  // Issued on the tenant's own clock, as the token endpoint issues its tokens: one ahead of the global clock would find it expired.
  const { token } = await signToken(services.keys, services.clocks.of(ids.organization), services.config, {
    clientId: ids.client,
    scopes,
    jti: randomUUID(),
    generation: client?.token_generation ?? 0,
  });
  const admin = services.config.adminToken;
  for (const step of state === 'without-admin' ? setupSteps.filter((step) => step.admin) : setupSteps) {
    if (step.made?.(services, ids)) continue;
    if (step.admin && !asAdmin) {
      needsAdmin.push(step.name);
      continue;
    }
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
  const made: MadeState = needsAdmin.length > 0 ? 'without-admin' : true;
  await services.store.transact((tx) => putSetting(tx, madeSetting(ids.organization), made));
  return { made: true, failed, needsAdmin };
}
