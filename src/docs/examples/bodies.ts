// Bodies the examples and their setup share: the README's Anna de Vries shipment and its addresses.
import type { ExampleIds } from './ids.js';

/** The README's recipient: a real street and postal code of the sandbox's address table. */
export const anna = {
  first_name: 'Anna',
  last_name: 'de Vries',
  street_1: 'Kalverstraat',
  street_number: 92,
  postal_code: '1012 PH',
  city: 'Amsterdam',
  country_code: 'NL',
  email: 'anna.devries@example.com',
  phone_number: '+31612345678',
};

/** A recipient abroad, for the examples of what ships across a border. */
export const londoner = {
  first_name: 'John',
  last_name: 'Smith',
  street_1: 'Baker Street',
  street_number: 221,
  postal_code: 'NW1 6XE',
  city: 'London',
  country_code: 'GB',
  email: 'john.smith@example.com',
};

/** A Dutch sender (and return) address of the shop. */
export const warehouse = {
  company: 'Example Shop BV',
  street_1: 'Damrak',
  street_number: 1,
  postal_code: '1012 LG',
  city: 'Amsterdam',
  country_code: 'NL',
  email: 'shipping@shop.example.com',
};

const shopRef = (ids: ExampleIds) => ({ shop: { data: { type: 'shops', id: ids.shop } } });

/** A shipment from the shop to Anna de Vries; `meta.service_code` picks the PostNL service and the cheapest active contract. */
export function shipmentBody(ids: ExampleIds, extra: { reference?: string; weight?: number; tags?: string[]; serviceCode?: string } = {}) {
  return {
    data: {
      type: 'shipments',
      attributes: {
        recipient_address: anna,
        sender_address: warehouse,
        return_address: warehouse,
        description: 'Two books',
        customer_reference: extra.reference ?? 'ORDER-1001',
        physical_properties: { weight: extra.weight ?? 1500, length: 300, width: 200, height: 100 },
        ...(extra.tags ? { tags: extra.tags } : {}),
      },
      relationships: shopRef(ids),
    },
    meta: { service_code: extra.serviceCode ?? 'postnl-parcel-standard' },
  };
}

/** A shipment with its service and contract named (no `meta.service_code`), as a collection or a consolidation needs. */
export function contractShipmentBody(ids: ExampleIds, carrier: string, service: string, reference: string) {
  const { meta: _meta, ...body } = shipmentBody(ids, { reference });
  return {
    data: {
      ...body.data,
      relationships: {
        ...body.data.relationships,
        service: { data: { type: 'services', id: ids.service(service) } },
        contract: { data: { type: 'contracts', id: ids.brokerContract(carrier) } },
      },
    },
  };
}

/**
 * The `nth` working day (Monday to Friday) after the day of `now`, as a day number since 1970-01-01
 * (a Thursday). Collection slots lie on working days: a date a fixed number of days ahead fell on a
 * weekend two days a week, when the page's example answered 422.
 */
function workingDayAhead(now: number, nth: number): number {
  let day = Math.floor(now / 86400);
  for (let left = nth; left > 0;) {
    day += 1;
    const weekday = (day + 4) % 7; // 0 is a Sunday
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return day;
}

/** A collection of the shop's parcels at the warehouse, 14:00-16:00 UTC on the `nth` working day after `ids.now` (slots are booked until the day before). */
export function collectionBody(ids: ExampleIds, carrier: string, nth: number, name: string) {
  const day = workingDayAhead(ids.now, nth);
  return {
    data: {
      type: 'collections',
      attributes: {
        name,
        description: `${name}, afternoon pick-up`,
        address: warehouse,
        collection_time: { from: day * 86400 + 14 * 3600, to: day * 86400 + 16 * 3600 },
      },
      relationships: { shop: shopRef(ids).shop, contract: { data: { type: 'contracts', id: ids.brokerContract(carrier) } } },
    },
  };
}

/** A surcharge added by hand to a shipment (`POST /shipment-surcharges`): a fee in the shipment's currency. */
export const manualSurcharge = (shipmentId: string, name: string, amount: number) => ({
  data: {
    type: 'shipment-surcharges',
    attributes: { name, description: 'Added by hand by customer service.', fee: { amount, currency: 'EUR' } },
    relationships: { shipment: { data: { type: 'shipments', id: shipmentId } } },
  },
});
