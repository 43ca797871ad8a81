// The ids the API reference's examples name: the catalogue's (the same for every tenant), the
// tenant's own (organization, shop, client) and the rows made for the examples (setup.ts).
import type { CapabilityPage } from '../../domain/capabilities.js';
import { defaultClients } from '../../fixtures/clients.js';
import { exampleRowId } from '../../ids.js';
import { enterpriseIdOf } from '../../resources/accounts/organizations.js';
import type { DemoOrderRecord } from '../../model/returns/order.js';
import type { ReadView } from '../../store/store.js';

/** One of the shop's orders, as a return names it. */
export interface ExampleOrder {
  reference: string;
  /** Its first item's id. */
  item: string;
  recipient: { first_name: string; last_name: string; street_1: string; city: string; country_code: string; email: string; postal_code?: string };
}

/** What only the running sandbox can compute: ids and page tokens keyed with its secrets. */
export interface ExampleSecrets {
  publicId(organizationId: string, name: string, draw: number): string;
  page(kind: CapabilityPage, id: string): string;
}

/** The tenant whose examples are resolved: its client (and secret, when known) and the shop they use. */
export interface ExampleTenant {
  organizationId: string;
  clientId: string;
  /** Known only to whoever made the client: the seed's documented secret, or a visitor's. */
  clientSecret: string;
  shopId: string;
}

/** What an example may name, resolved for one tenant. */
export interface ExampleIds {
  organization: string;
  broker: string;
  /** The enterprise the broker names (sent back in the broker update example). */
  enterprise: string;
  shop: string;
  client: string;
  clientSecret: string;
  /** Unix seconds on the global sandbox clock when the document was built. */
  now: number;
  carrier(code: string): string;
  service(code: string): string;
  option(code: string): string;
  status(code: string): string;
  region(name: string): string;
  zone(code: string): string;
  /** The broker's contract of a carrier, shared with every organization of the broker. */
  brokerContract(carrierCode: string): string;
  /** The first liability coverage of the broker's contract of a carrier. */
  coverage(carrierCode: string): string;
  template(carrierCode: string): string;
  /** The id of a row made for the examples (see setup.ts): the `draw`-th id its request made. */
  made(name: string, draw?: number): string;
  /** The `draw`-th public id (a logo, a payment) an example step made: keyed with the sandbox's secret. */
  publicId(name: string, draw: number): string;
  /** The token of a public page (return portal, tracking page, payment page) of a row. */
  page(kind: CapabilityPage, id: string): string;
  /** The shop's `index`-th order (oldest first); a stand-in order made by setup.ts when the shop has fewer (a tenant made through the controls has none). */
  order(index: number): ExampleOrder;
  /** The order made for the examples' returns (setup.ts): a few items of which many may be returned. */
  returnsOrder: ExampleOrder;
  /** The consumer of the orders setup.ts makes: one in the shop's country. */
  consumer: ExampleConsumer;
  /** A return reason the shop offers. */
  returnReason: { id: string; code: string };
  /** The shop's first return method that sends a label. */
  returnMethod: string;
  /** The service and contract such a method of the shop ships with (the shop's own, else PostNL's). */
  returnCarriage: { service: string; contract: string };
}

/**
 * The tenant of the documented default client: the one `/openapi.json` shows. Its secret is
 * public, so anyone may delete its organization (DELETE /organizations/{id}); the document is
 * still served then, its examples naming a stand-in organization that answers 404 like any row
 * that is gone, until a reset brings the seeded one back.
 */
export function defaultTenant(view: ReadView): ExampleTenant {
  const { id: clientId, secret: clientSecret } = defaultClients[0];
  const client = view.get('clients', clientId);
  const organizationId = (client && view.get('users', client.user_id)?.organization_id) ?? exampleRowId(clientId, 'organization');
  return { organizationId, clientId, clientSecret, shopId: firstShop(view, organizationId) };
}

/**
 * The shop a tenant's examples use: its first (the seed's Dutch shop for organization A). An
 * organization may delete every shop it has: its examples then name a stand-in shop, which
 * answers 404 like any row that is gone.
 */
export function firstShop(view: ReadView, organizationId: string): string {
  return view.find('shops', 'organization_id', organizationId)[0]?.id ?? exampleRowId(organizationId, 'shop');
}

/** Looks a catalogue row up by a field, failing loudly when the seed has no such row. */
function lookup<T extends { id: string }>(rows: readonly T[], what: string, match: (row: T) => boolean): string {
  const found = rows.find(match);
  if (!found) throw new Error(`the catalogue has no ${what}`);
  return found.id;
}

/** The example ids of one tenant, read from `view`. */
export function exampleIds(view: ReadView, tenant: ExampleTenant, now: number, secrets: ExampleSecrets): ExampleIds {
  const broker = view.get('organizations', tenant.organizationId)?.broker_id ?? view.all('brokers')[0]!.id;
  const carrier = (code: string) => lookup(view.all('carriers'), `carrier ${code}`, (row) => row.code === code);
  const brokerContract = (code: string) =>
    lookup(view.all('contracts'), `broker contract of ${code}`, (row) => row.owner.type === 'brokers' && row.carrier_id === carrier(code));
  return {
    organization: tenant.organizationId,
    broker,
    enterprise: enterpriseIdOf(view.get('brokers', broker)!),
    shop: tenant.shopId,
    client: tenant.clientId,
    clientSecret: tenant.clientSecret,
    now,
    carrier,
    service: (code) => lookup(view.all('services'), `service ${code}`, (row) => row.code === code),
    option: (code) => lookup(view.all('serviceOptions'), `service option ${code}`, (row) => row.code === code),
    status: (code) => lookup(view.all('statuses'), `status ${code}`, (row) => row.code === code),
    region: (name) => lookup(view.all('regions'), `region ${name}`, (row) => row.name === name),
    zone: (code) => lookup(view.all('zones'), `zone ${code}`, (row) => row.code === code && row.organization_id === undefined),
    brokerContract,
    coverage: (code) => lookup(view.all('liabilityCoverages'), `coverage of ${code}`, (row) => row.contract_id === brokerContract(code)),
    template: (code) => lookup(view.all('contractTemplates'), `template of ${code}`, (row) => row.carrier_id === carrier(code)),
    made: (name, draw = 0) => exampleRowId(tenant.organizationId, name, draw),
    publicId: (name, draw) => secrets.publicId(tenant.organizationId, name, draw),
    page: (kind, id) => secrets.page(kind, id),
    order: (index) => orderOf(view, tenant.shopId, index),
    get returnsOrder() {
      return markedOrder(view, tenant.shopId, ORDER_MARKS.returns);
    },
    get consumer() {
      return exampleConsumer(view, tenant.shopId);
    },
    get returnReason() {
      // A reason the shop offers without questions to answer.
      const offered = new Set(
        view
          .find('shopReasons', 'shop_id', tenant.shopId)
          .filter((row) => !(row.questions ?? []).some((question) => question.is_required))
          .map((row) => row.reason_id),
      );
      const reason = view.find('returnReasons', 'organization_id', tenant.organizationId).find((row) => offered.has(row.id));
      return reason ? { id: reason.id, code: reason.code } : { id: exampleRowId(tenant.organizationId, 'return-reason-offered'), code: 'colour-differs' };
    },
    get returnMethod() {
      const method = view.find('returnMethods', 'shop_id', tenant.shopId).find((row) => row.return_type === 'shipment');
      return method?.id ?? exampleRowId(tenant.organizationId, 'return-method');
    },
    get returnCarriage() {
      // The service and contract of the shop's own label method (a British shop's Royal Mail), else PostNL's.
      const method = view.find('returnMethods', 'shop_id', tenant.shopId).find((row) => row.return_type === 'shipment' && row.service_id && row.contract_id);
      return method
        ? { service: method.service_id!, contract: method.contract_id! }
        : {
            service: lookup(view.all('services'), 'service postnl-parcel-standard', (row) => row.code === 'postnl-parcel-standard'),
            contract: brokerContract('postnl'),
          };
    },
  };
}

/** The `outbound_shipment_identifier`s of the orders setup.ts makes: the examples' returns', and a stand-in first order. */
export const ORDER_MARKS = { returns: 'EXAMPLE-RETURNS', standIn: 'EXAMPLE-ORDER' } as const;
const marked = new Set<string | undefined>(Object.values(ORDER_MARKS));

/** An order as an example names it. */
function asExample(order: DemoOrderRecord): ExampleOrder {
  const { recipient_address: address } = order;
  return { reference: order.id, item: order.items[0]!.id, recipient: { ...address, email: address.email ?? 'consumer@example.com' } };
}

/** The shop's `index`-th demo order, or the stand-in order when it has fewer. */
function orderOf(view: ReadView, shopId: string, index: number): ExampleOrder {
  const orders = view
    .find('demoOrders', 'shop_id', shopId)
    .filter((order) => !marked.has(order.outbound_shipment_identifier))
    .sort((a, b) => Number(a.id) - Number(b.id));
  const order = orders[index];
  return order ? asExample(order) : markedOrder(view, shopId, ORDER_MARKS.standIn);
}

/**
 * An order setup.ts made, or a stand-in before it is made: its reference is a number the sandbox
 * hands out when the order is made, so a document names it only once the tenant's example rows
 * exist (a visitor's exist before the page shows them).
 */
function markedOrder(view: ReadView, shopId: string, mark: string): ExampleOrder {
  const order = view.find('demoOrders', 'shop_id', shopId).find((row) => row.outbound_shipment_identifier === mark);
  if (order) return asExample(order);
  return { reference: 'order-1', item: 'order-1-1', recipient: exampleConsumer(view, shopId) };
}

/**
 * The consumers of the orders setup.ts makes, by the shop's country: a return method is offered
 * to consumers of some countries only (a British shop's Royal Mail label to British ones), so the
 * examples' returns come from the shop's own country. Other countries take the Dutch one.
 */
type ExampleConsumer = ExampleOrder['recipient'] & { street_number: number };

const exampleConsumers: { NL: ExampleConsumer } & Record<string, ExampleConsumer | undefined> = {
  NL: {
    first_name: 'Sam',
    last_name: 'Jansen',
    street_1: 'Damrak',
    street_number: 20,
    postal_code: '1012 LH',
    city: 'Amsterdam',
    country_code: 'NL',
    email: 'sam.jansen@example.com',
  },
  GB: {
    first_name: 'Sam',
    last_name: 'Jones',
    street_1: 'Baker Street',
    street_number: 221,
    postal_code: 'NW1 6XE',
    city: 'London',
    country_code: 'GB',
    email: 'sam.jones@example.com',
  },
  DE: {
    first_name: 'Sam',
    last_name: 'Schulz',
    street_1: 'Torstraße',
    street_number: 49,
    postal_code: '10119',
    city: 'Berlin',
    country_code: 'DE',
    email: 'sam.schulz@example.com',
  },
};

/** The consumer of the orders setup.ts makes for `shopId`: one of the shop's own country (see above). */
export function exampleConsumer(view: ReadView, shopId: string): ExampleConsumer {
  const country = view.get('shops', shopId)?.return_address?.country_code;
  return (country === undefined ? undefined : exampleConsumers[country]) ?? exampleConsumers.NL;
}
