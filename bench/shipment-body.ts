/**
 * The `POST /shipments` body the bench sends (and the seeder uses for its template shipment): a
 * domestic Dutch parcel from the shop's own address, service picked by `meta.service_code`, so a
 * create resolves service, contract, rate and price like a real integration's request does. No
 * `register_at`: the shipment stays a concept, so no registration job runs behind the bench.
 */
export interface ShopResource {
  id: string;
  attributes: { sender_address: Record<string, unknown>; return_address: Record<string, unknown> };
}

export function shipmentBody(shop: ShopResource): Record<string, unknown> {
  return {
    data: {
      type: 'shipments',
      attributes: {
        recipient_address: {
          first_name: 'Anna',
          last_name: 'de Vries',
          street_1: 'Kalverstraat',
          street_number: 92,
          postal_code: '1012 PH',
          city: 'Amsterdam',
          country_code: 'NL',
          email: 'anna@example.com',
        },
        sender_address: shop.attributes.sender_address,
        return_address: shop.attributes.return_address,
        physical_properties: { weight: 1500, length: 300, width: 200, height: 100 },
        description: 'Order 1001',
        customer_reference: 'order-1001',
        tags: ['bench'],
      },
      relationships: { shop: { data: { type: 'shops', id: shop.id } } },
    },
    meta: { service_code: 'postnl-parcel-standard' },
  };
}

/** The seeded client whose organization owns the bench's shipments (organization A). */
export const BENCH_CLIENT = { id: 'sandbox-client', secret: 'sandbox-secret' } as const;

/** The shop of organization A with a Dutch sender address. */
export function dutchShop(shops: ShopResource[]): ShopResource {
  const shop = shops.find((candidate) => candidate.attributes.sender_address.country_code === 'NL');
  if (!shop) throw new Error('no shop with a Dutch sender address among the seeded shops');
  return shop;
}
