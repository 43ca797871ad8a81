// The requests the sandbox is measured on (token, one shipment, four lists, a create), made as an integration makes them.
import type { Scenario } from '../lib/drive.js';
import type { Server } from '../lib/server.js';
import { BENCH_CLIENT, dutchShop, shipmentBody, type ShopResource } from '../shipment-body.js';

export async function api(server: Server, path: string, init: RequestInit = {}): Promise<any> {
  const response = await fetch(server.url + path, init);
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const TOKEN_BODY = { grant_type: 'client_credentials', client_id: BENCH_CLIENT.id, client_secret: BENCH_CLIENT.secret, scope: '*' };

export type Prepared = Awaited<ReturnType<typeof prepare>>;

/** What the scenarios need from a running sandbox: a token, a shop, a shipment id. */
export async function prepare(server: Server) {
  const { access_token: token } = await api(server, '/access-token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(TOKEN_BODY),
  });
  const headers = { authorization: `Bearer ${token as string}`, accept: 'application/vnd.api+json' };
  const shop = dutchShop((await api(server, '/shops', { headers })).data as ShopResource[]);
  const list = await api(server, '/shipments?page[size]=1', { headers });
  const shipmentId = (list.data[0]?.id as string | undefined) ?? undefined;
  const total = (list.meta?.total_records as number | undefined) ?? undefined;
  return { token: token as string, headers, shop, shipmentId, total };
}

/** The list scenarios, each measured in turns with a bare hono serving the same document (see paired-get.ts). */
export const LIST_KEYS = ['list', 'carriers', 'services', 'rates'] as const;

export type EndpointKey = 'token' | 'get' | (typeof LIST_KEYS)[number] | 'create';

export function endpoints(prepared: Prepared): Record<EndpointKey, Scenario> {
  const { headers, shop, shipmentId } = prepared;
  return {
    token: {
      name: 'POST /access-token',
      method: 'POST',
      path: '/access-token',
      headers: { 'content-type': 'application/json' },
      body: TOKEN_BODY,
    },
    get: { name: 'GET /shipments/{id}', method: 'GET', path: `/shipments/${shipmentId}`, headers },
    list: { name: 'GET /shipments?page[size]=30', method: 'GET', path: '/shipments?page[size]=30', headers },
    carriers: { name: 'GET /carriers', method: 'GET', path: '/carriers', headers },
    services: {
      name: 'GET /services?filter[...] (a filtered list)',
      method: 'GET',
      path: '/services?filter[address_from][country_code]=NL&filter[address_to][country_code]=NL',
      headers,
    },
    rates: { name: 'GET /service-rates?filter[weight]', method: 'GET', path: '/service-rates?filter[weight]=1500', headers },
    create: {
      name: 'POST /shipments',
      method: 'POST',
      path: '/shipments',
      headers: { ...headers, 'content-type': 'application/vnd.api+json' },
      body: shipmentBody(shop),
      uniqueHeader: 'idempotency-key',
    },
  };
}
