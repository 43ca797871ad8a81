import { TEST_NOW, type Json, type TestSandbox } from './app.js';
import type { World } from './shipments.js';

/** TEST_NOW is Sunday 2026-01-11 00:00 UTC; these are the days after it, at 00:00 UTC. */
export const HOUR = 3600;
export const DAY = 86400;
export const MONDAY = TEST_NOW + DAY;

/** A collection body at the shop's sender address; with `contract` it is a booking of that carrier. */
export function collectionBody(
  shop: Json,
  window: { from: number; to: number },
  options: { contract?: Json; register?: boolean; description?: string } = {},
): Json {
  const relationships: Json = { shop: { data: { type: 'shops', id: shop.id } } };
  if (options.contract) relationships.contract = { data: { type: 'contracts', id: options.contract.id } };
  return {
    data: {
      type: 'collections',
      attributes: {
        ...(options.description ? { description: options.description } : {}),
        address: shop.attributes.sender_address,
        collection_time: window,
        ...(options.register !== undefined ? { register: options.register } : {}),
      },
      relationships,
    },
  };
}

/** Creates a collection and returns it, failing on anything but 201. */
export async function createCollection(sandbox: TestSandbox, token: string, body: Json): Promise<Json> {
  const answer = await sandbox.request('POST', '/collections', { token, body });
  if (answer.status !== 201) throw new Error(`collection: ${answer.status} ${answer.text}`);
  return answer.body.data;
}

/** The status code of a collection, read back through the API. */
export async function collectionStatus(sandbox: TestSandbox, token: string, id: string): Promise<string> {
  const answer = await sandbox.get(`/collections/${id}?include=status`, token);
  return answer.body.included[0].attributes.code;
}

/** The shop, service and active contract a carrier's shipments from a country use. */
export function carrierSetup(w: World, country: 'NL' | 'DE', serviceCode: string) {
  const shop = w.shopIn(country);
  const service = w.service(serviceCode, country);
  const contract = w.contractFor(service);
  return { shop, service, contract, carrierId: service.relationships.carrier.data.id as string };
}

/** POST as plain JSON, as production's RPC endpoints are called. */
export function rpc(sandbox: TestSandbox, token: string, path: string, data: Json) {
  return sandbox.request('POST', path, { token, body: { data }, headers: { 'content-type': 'application/json' } });
}
