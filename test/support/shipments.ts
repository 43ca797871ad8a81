import { expect } from 'vitest';
import type { Json, TestSandbox } from './app.js';

export const recipients = {
  NL: {
    first_name: 'Anna',
    last_name: 'de Vries',
    street_1: 'Kalverstraat',
    street_number: 92,
    postal_code: '1012 PH',
    city: 'Amsterdam',
    country_code: 'NL',
    email: 'anna@example.com',
    phone_number: '+31201234567',
  },
  GB: {
    first_name: 'Oliver',
    last_name: 'Smith',
    street_1: 'Baker Street',
    street_number: 221,
    street_number_suffix: 'B',
    postal_code: 'NW1 6XE',
    city: 'London',
    country_code: 'GB',
    phone_number: '+442071234567',
  },
  DE: { first_name: 'Lena', last_name: 'Schmidt', street_1: 'Unter den Linden', street_number: 5, postal_code: '10117', city: 'Berlin', country_code: 'DE' },
  BE: { first_name: 'Lucas', last_name: 'Peeters', street_1: 'Grote Markt', street_number: 1, postal_code: '1000', city: 'Brussel', country_code: 'BE' },
};

/** Customs data that satisfies an international shipment. */
export const customsContent = {
  description: 'Two books',
  items: [
    {
      sku: 'BK-1',
      description: 'Paperback novel',
      quantity: 2,
      item_value: { amount: 1250, currency: 'EUR' },
      hs_code: '490199',
      origin_country_code: 'NL',
      item_weight: 300,
    },
    { description: 'Bookmark', quantity: 1, item_value: { amount: 300, currency: 'EUR' }, hs_code: '491110', origin_country_code: 'NL' },
  ],
  customs: { content_type: 'merchandise', invoice_number: 'INV-2026-001', non_delivery: 'return', incoterm: 'DAP' },
};

/** The fixture world of one client: its token, shops, the catalogue and its contracts. */
export interface World {
  token: string;
  shops: Json[];
  /** The client's first shop with a sender address in `country`. */
  shopIn(country: string): Json;
  services: Json[];
  /** A service by code, optionally for a destination country. */
  service(code: string, to?: string): Json;
  contracts: Json[];
  /** The first active contract of the service's carrier. */
  contractFor(service: Json): Json;
  options: Json[];
  option(code: string): Json;
}

export async function world(sandbox: TestSandbox, clientId = 'sandbox-client'): Promise<World> {
  const token = await sandbox.token(clientId);
  const shops = (await sandbox.get('/shops?page[size]=100', token)).body.data;
  const services = (await sandbox.read('/services?page[size]=100')).body.data;
  const contracts = (await sandbox.get('/contracts?page[size]=100', token)).body.data;
  const options = (await sandbox.read('/service-options?page[size]=100')).body.data;
  const pick = <T>(found: T | undefined, what: string): T => {
    if (!found) throw new Error(`fixture has no ${what}`);
    return found;
  };
  return {
    token,
    shops,
    shopIn: (country) =>
      pick(
        shops.find((s: Json) => s.attributes.sender_address?.country_code === country),
        `shop in ${country}`,
      ),
    services,
    service: (code, to) =>
      pick(
        services.find((s: Json) => s.attributes.code === code && (!to || s.attributes.regions_to.some((r: Json) => r.country_code === to))),
        `service ${code}`,
      ),
    contracts,
    contractFor: (service) =>
      pick(
        contracts.find((c: Json) => c.attributes.status === 'active' && c.relationships.carrier.data.id === service.relationships.carrier.data.id),
        `active contract for ${service.attributes.code}`,
      ),
    options,
    option: (code) =>
      pick(
        options.find((o: Json) => o.attributes.code === code),
        `option ${code}`,
      ),
  };
}

const ref = (type: string, row: Json | string | undefined) => (row ? { data: { type, id: typeof row === 'string' ? row : row.id } } : undefined);

/** A create body: the shop's addresses as sender and return, the given recipient and parcel. */
export function shipmentBody(options: {
  shop: Json;
  recipient?: Json;
  service?: Json;
  contract?: Json;
  attributes?: Json;
  relationships?: Json;
  meta?: Json;
}): Json {
  const relationships: Json = { shop: ref('shops', options.shop) };
  if (options.service) relationships.service = ref('services', options.service);
  if (options.contract) relationships.contract = ref('contracts', options.contract);
  const body: Json = {
    data: {
      type: 'shipments',
      attributes: {
        recipient_address: options.recipient ?? recipients.NL,
        sender_address: options.shop.attributes.sender_address,
        return_address: options.shop.attributes.return_address,
        physical_properties: { weight: 1500 },
        ...options.attributes,
      },
      relationships: { ...relationships, ...options.relationships },
    },
  };
  if (options.meta) body.meta = options.meta;
  return body;
}

/**
 * A `POST /get-dynamic-service-rates` body for a parcel from the Netherlands to Great Britain
 * (where the seeded dynamic rates ship), sent from `shop`, as production requires a shop.
 */
export function dynamicRatesBody(shop: Json, physical_properties: Json, meta?: Json): Json {
  const address = (country_code: string) => ({ first_name: 'Sam', last_name: 'Jansen', street_1: 'Main Street 1', city: 'Somewhere', country_code });
  const body: Json = {
    data: {
      type: 'shipments',
      attributes: { sender_address: address('NL'), recipient_address: address('GB'), physical_properties },
      relationships: { shop: ref('shops', shop) },
    },
  };
  if (meta) body.meta = meta;
  return body;
}

/** Creates a shipment and returns its resource, failing the test on anything but 201. */
export async function createShipment(sandbox: TestSandbox, token: string, body: Json): Promise<Json> {
  const answer = await sandbox.request('POST', '/shipments', { token, body });
  if (answer.status !== 201) throw new Error(`create failed with ${answer.status}: ${answer.text}`);
  return answer.body.data;
}

/** The body of a new shop of `like`'s organization with `like`'s addresses: a shop with nothing in it yet. */
export function shopLike(like: Json, name = 'Pop-up store'): Json {
  return {
    data: {
      type: 'shops',
      attributes: { name, sender_address: like.attributes.sender_address, return_address: like.attributes.return_address },
      relationships: { organization: like.relationships.organization },
    },
  };
}

/** Creates such a shop beside the client's Dutch one and answers it. */
export async function newShop(sandbox: TestSandbox, w: World): Promise<Json> {
  const made = await sandbox.request('POST', '/shops', { token: w.token, body: shopLike(w.shopIn('NL')) });
  expect(made.status, made.text).toBe(201);
  return made.body.data;
}
