import { describe, expect, it } from 'vitest';
import { BASE, testSandbox, type Answer, type Json, type TestSandbox } from './support/app.js';
import { shipmentBody, world, type World } from './support/shipments.js';

/**
 * Requests as production's official PHP SDK (MyParcelCOM/api-sdk-php) forms them, which the
 * sandbox must answer as production does: `Authorization` and `Accept: application/vnd.api+json`,
 * no `Content-Type`, the body always JSON-encoded (`[]` on a GET or DELETE).
 */
async function asTheSdk(sandbox: TestSandbox, token: string, method: string, path: string, body: unknown = []): Promise<Answer> {
  const response = await sandbox.app.request(BASE + path, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' },
    // Bytes, not a string: a string body would get fetch's `text/plain` type, which the SDK never sends.
    body: new TextEncoder().encode(JSON.stringify(body)),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

async function setup(): Promise<{ sandbox: TestSandbox; w: World }> {
  const sandbox = await testSandbox();
  return { sandbox, w: await world(sandbox) };
}

describe('POST /multi-colli-shipments as the PHP SDK sends it', () => {
  it('takes include=colli,colli.files and embeds each collo with the label its meta carries', async () => {
    const { sandbox, w } = await setup();
    const service = w.service('postnl-multi-colli', 'NL');
    const body = shipmentBody({
      shop: w.shopIn('NL'),
      service,
      contract: w.contractFor(service),
      attributes: { physical_properties: { weight: 3000 } },
      meta: { colli: [{ physical_properties: { weight: 1000 } }, { physical_properties: { weight: 2000 } }], label_mime_type: 'application/pdf' },
    });

    const answer = await asTheSdk(sandbox, w.token, 'POST', '/multi-colli-shipments?include=colli%2Ccolli.files', body);

    expect(answer.status, answer.text).toBe(201);
    const colli: Json[] = answer.body.data.relationships.colli.data;
    expect(colli.map((collo) => collo.meta.collo_number)).toEqual([1, 2]);
    const included = new Map<string, Json>(answer.body.included.map((resource: Json) => [`${resource.type}:${resource.id}`, resource]));
    for (const identifier of colli) {
      const collo = included.get(`shipments:${identifier.id}`);
      expect(collo?.attributes.collo_number).toBe(identifier.meta.collo_number);
      const [fileId] = collo!.relationships.files.data.map((file: Json) => file.id);
      const file = included.get(`files:${fileId}`);
      const [embedded] = identifier.meta.files;
      // The SDK pairs the two by document type, mime type and extension.
      expect(file?.attributes.document_type).toBe(embedded.document_type);
      expect(file?.attributes.formats[0]).toEqual({ mime_type: embedded.mime_type, extension: embedded.extension });
    }
  });
});
