import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_NOW, testSandbox, type Json } from './support/app.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

/**
 * The status webhooks MyParcel.com's own webshop plugins register and read, replayed in their
 * words. The Magento 2 plugin (MyParcelCOM/magento2-plugin) registers, when a shop is chosen in
 * its settings, a send-resource hook on new shipment-statuses owned by that shop, with a random
 * secret and the includes `status` and `shipment`; its receiver turns the decoded body back into
 * JSON with PHP's `json_encode`, signs that, and refuses the webhook (401) unless it equals the
 * `X-MYPARCELCOM-SIGNATURE` header. It then copies the shipment's tracking code and URL and the
 * status's code and name from `included`. That receiver is a route of Magento's REST API, which
 * reads a body only in the media types it has a parser for (application/json and the XML types)
 * and answers 400 to any other.
 */

type Delivery = { headers: IncomingHttpHeaders; body: string };

/** A local receiver that keeps what it is sent and answers 200. */
class Receiver {
  readonly deliveries: Delivery[] = [];
  url = '';
  private server!: Server;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.deliveries.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('true');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/rest/V1/myparcelcom/webhook/status`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const receiver = new Receiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

/**
 * PHP's `json_encode` with its default flags, of a value PHP decoded as associative arrays: `/`
 * written `\/`, every UTF-16 unit beyond ASCII as `\uXXXX`, control characters escaped, and an
 * empty object (an empty array to PHP) written `[]`. Written out here, apart from the sandbox's
 * code, so the test checks the plugin's arithmetic rather than the sandbox's own.
 */
function phpJsonEncode(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') {
    const short: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    let out = '"';
    for (let i = 0; i < value.length; i++) {
      const char = value[i]!;
      const code = value.charCodeAt(i);
      if (short[char]) out += short[char];
      else if (code < 0x20 || code > 0x7e) out += code === 0x7f ? char : `\\u${code.toString(16).padStart(4, '0')}`;
      else out += char;
    }
    return `${out}"`;
  }
  if (Array.isArray(value)) return `[${value.map(phpJsonEncode).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '[]';
  return `{${entries.map(([key, item]) => `${phpJsonEncode(key)}:${phpJsonEncode(item)}`).join(',')}}`;
}

/** The Magento plugin's check: HMAC-SHA256 (hex) of json_encode(decoded body), keyed by its secret. */
function magentoAccepts(delivery: Delivery, secret: string): boolean {
  const recomputed = createHmac('sha256', secret)
    .update(phpJsonEncode(JSON.parse(delivery.body)))
    .digest('hex');
  return recomputed === delivery.headers['x-myparcelcom-signature'];
}

const SECRET = 'a3f1c0de5b7e49d2a8c4e6f0b1d2c3e4';

/** Registers the plugin's hook for a shop, then registers a shipment of that shop: its webhooks and what they are about. */
async function magentoWebhooks() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const shop = w.shopIn('NL');
  // Sent through the plugin's PHP SDK: its Accept header, the body as json_encode writes it (slashes escaped).
  const registered = await sandbox.request('POST', '/hooks', {
    token: w.token,
    headers: { accept: 'application/vnd.api+json' },
    body: JSON.stringify({
      data: {
        type: 'hooks',
        attributes: {
          name: 'Magento shipment status update',
          order: 100,
          active: true,
          trigger: { resource_type: 'shipment-statuses', resource_action: 'create' },
          action: { action_type: 'send-resource', values: [{ url: receiver.url, secret: SECRET, includes: ['status', 'shipment'] }] },
        },
        relationships: { owner: { data: { type: 'shops', id: shop.id } } },
      },
    }).replaceAll('/', '\\/'),
  });
  expect(registered.status, registered.text).toBe(201);

  receiver.deliveries.length = 0;
  const service = w.service('postnl-parcel-standard', 'NL');
  // A name beyond ASCII, as shoppers have: json_encode writes it as \u escapes.
  const recipient = { ...recipients.NL, last_name: 'Müller-Lüdenscheidt' };
  const shipment = await createShipment(
    sandbox,
    w.token,
    shipmentBody({ shop, recipient, service, contract: w.contractFor(service), attributes: { register_at: TEST_NOW } }),
  );
  await sandbox.advance(5);
  // The concept, then the registration.
  expect(receiver.deliveries.length).toBeGreaterThanOrEqual(2);
  const current = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data;
  return { deliveries: [...receiver.deliveries], shipment: current };
}

describe('the Magento 2 plugin’s status webhook', () => {
  it('comes in a media type Magento’s REST API reads', async () => {
    const { deliveries } = await magentoWebhooks();
    // The media type Magento's REST request takes from the header (a charset parameter aside), among those it has a parser for.
    const magentoParsers = ['application/json', 'application/xml', 'application/xhtml+xml', 'text/xml'];
    for (const delivery of deliveries) expect(magentoParsers).toContain(delivery.headers['content-type']!.split(';')[0]!.trim());
  });

  it('passes the plugin’s signature check, which signs PHP’s json_encode of the decoded body, and carries what it reads', async () => {
    const { deliveries, shipment } = await magentoWebhooks();
    for (const delivery of deliveries) expect(magentoAccepts(delivery, SECRET), delivery.body.slice(0, 200)).toBe(true);

    // What the plugin then reads from the last one.
    const document = JSON.parse(deliveries.at(-1)!.body);
    const shipmentData = document.data.relationships.shipment.data;
    const statusData = document.data.relationships.status.data;
    expect(shipmentData.id).toBe(shipment.id);
    const find = (ref: Json) => document.included.find((resource: Json) => resource.type === ref.type && resource.id === ref.id);
    expect(find(shipmentData).attributes).toMatchObject({ tracking_code: shipment.attributes.tracking_code, tracking_url: shipment.attributes.tracking_url });
    expect(find(statusData).attributes).toMatchObject({ code: 'shipment-registered', name: expect.any(String) });
  });
});
