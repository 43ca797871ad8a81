import type { Json, TestSandbox } from '../support/app.js';

/** A caller's seeded returns world: its shops, their methods and demo orders. */
export interface ReturnsWorld {
  token: string;
  shops: Json[];
  /** The caller's first shop in a country (NL, DE or GB). */
  shopIn(country: string): Json;
  methods(shopId: string): Promise<Json[]>;
  method(shopId: string, title: string): Promise<Json>;
  orders(shopId: string): Promise<Json[]>;
}

export async function returnsWorld(sandbox: TestSandbox, clientId = 'sandbox-client'): Promise<ReturnsWorld> {
  const token = await sandbox.token(clientId);
  const shops = (await sandbox.get('/shops?page[size]=100', token)).body.data;
  const methods = async (shopId: string) => (await sandbox.get(`/returns/v1/return-methods?filter[shop]=${shopId}&page[size]=100`, token)).body.data;
  return {
    token,
    shops,
    shopIn: (country) => {
      const shop = shops.find((s: Json) => s.attributes.sender_address?.country_code === country);
      if (!shop) throw new Error(`no shop in ${country}`);
      return shop;
    },
    methods,
    method: async (shopId, title) => {
      const found = (await methods(shopId)).find((m: Json) => m.attributes.title === title);
      if (!found) throw new Error(`no method '${title}'`);
      return found;
    },
    orders: async (shopId) => (await sandbox.get(`/returns/v1/demo-orders?filter[shop]=${shopId}&page[size]=100`, token)).body.data,
  };
}

/** The body of a return of `order` with the given items, by the order's own recipient. */
export function returnBody(options: { shop: Json; order: Json; method: Json; items: Json[]; consumer?: Json; tags?: string[] }): Json {
  const consumer = options.consumer ?? options.order.attributes.recipient_address;
  return {
    data: {
      type: 'returns',
      attributes: { order_reference: options.order.id, consumer_address: consumer, items: options.items },
      relationships: {
        shop: { data: { type: 'shops', id: options.shop.id } },
        return_method: { data: { type: 'return-methods', id: options.method.id } },
        ...(options.tags ? { tags: { data: { type: 'return-tags', id: options.tags[0] } } } : {}),
      },
    },
  };
}

/** A demo order of `quantity` lamps (and a book) in the shop, by a consumer in the shop's country. */
export async function demoOrder(sandbox: TestSandbox, token: string, shop: Json, quantity = 5): Promise<Json> {
  const country = shop.attributes.sender_address.country_code;
  const currency = country === 'GB' ? 'GBP' : 'EUR';
  const answer = await sandbox.request('POST', '/returns/v1/demo-orders', {
    token,
    body: {
      data: {
        type: 'demo-orders',
        attributes: {
          recipient_address: {
            first_name: 'Sam',
            last_name: 'Jansen',
            street_1: 'Main Street',
            street_number: 1,
            postal_code: country === 'GB' ? 'SW1A 1AA' : '1011 AB',
            city: 'Town',
            country_code: country,
            email: 'sam@example.com',
          },
          items: [
            {
              sku: 'LAMP-1',
              name: 'Lamp',
              description: 'Desk lamp',
              quantity,
              item_price: { amount: 3999, currency },
              item_weight: { amount: 1200, unit: 'g' },
            },
            { sku: 'BOOK-1', name: 'Book', description: 'A novel', quantity: 1, item_price: { amount: 1999, currency } },
          ],
        },
        relationships: { shop: { data: { type: 'shops', id: shop.id } } },
      },
    },
  });
  if (answer.status !== 201) throw new Error(`demo order: ${answer.text}`);
  return answer.body.data;
}

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}
