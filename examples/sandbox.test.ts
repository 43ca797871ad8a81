import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type JsonApiDocument, type JsonApiResource, type Sandbox } from '../src/index.js';

describe('shipping an order', () => {
  let sandbox: Sandbox;
  let token: string;

  beforeEach(async () => {
    sandbox = await createSandbox({ seed: 1 }); // in memory, no port; same seed, same ids
    token = await sandbox.token(); // sandbox-client with every scope it has
  });
  afterEach(() => sandbox.close());

  /** What your API client does; `sandbox.fetch` can also be handed to it as its fetch. */
  async function api(path: string, body?: unknown): Promise<{ status: number; document: JsonApiDocument<any> }> {
    const init = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) };
    const response = await sandbox.request(path, { ...init, headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, document: (await response.json()) as JsonApiDocument<any> };
  }

  it('registers the shipment once the sandbox clock passes register_at', async () => {
    const carriers = await api('/carriers');
    expect(carriers.document.data.map((carrier: JsonApiResource) => carrier.attributes.code)).toContain('postnl');

    const shops = await api('/shops');
    const shop = shops.document.data.find((s: JsonApiResource) => s.attributes.sender_address.country_code === 'NL');

    const created = await api('/shipments', {
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
          },
          sender_address: shop.attributes.sender_address,
          return_address: shop.attributes.return_address,
          physical_properties: { weight: 1500 },
          register_at: sandbox.now(),
        },
        relationships: { shop: { data: { type: 'shops', id: shop.id } } },
      },
      meta: { service_code: 'postnl-parcel-standard' }, // the sandbox picks the service and cheapest contract
    });
    expect(created.status).toBe(201);

    await sandbox.advanceClock(60); // registration is due 2 s after register_at: no waiting

    const shipment = await api(`/shipments/${created.document.data.id}?include=shipment_status.status`);
    const status = shipment.document.included!.find((resource) => resource.type === 'statuses')!;
    expect(status.attributes.code).toBe('shipment-registered');
    expect(shipment.document.data.attributes.tracking_code).toMatch(/^3S/);
  });
});
