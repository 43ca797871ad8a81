import { beforeAll, describe, expect, it } from 'vitest';
import { BASE, firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { carrierSetup } from './support/collections.js';
import { readPdf } from './support/pdf.js';
import { demoOrder, parseCsv, returnBody, returnsWorld } from './returns/support.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

/**
 * GET /files/{file_id} for the files of manifests and return reports: the resource, the document
 * (the bytes their own downloads serve), 406, another tenant's file, and the owner's scopes.
 */

let sandbox: TestSandbox;
let token: string;
let manifest: Json;
let manifestFile: Json;
let report: Json;
let reportFile: Json;

/** A GET with the raw answer, for documents that are not JSON. */
async function fetchRaw(path: string, accept: string | undefined, bearer = token) {
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
  if (accept !== undefined) headers.accept = accept;
  const response = await sandbox.app.request(BASE + path, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** GET /files/{id} as JSON:API, checked against both documents by the test sandbox's request. */
const getFile = (id: string, accept?: string, bearer = token) =>
  sandbox.request('GET', `/files/${id}`, { token: bearer, ...(accept ? { headers: { accept } } : {}) });

beforeAll(async () => {
  sandbox = await testSandbox();
  const w = await world(sandbox);
  token = w.token;
  const nl = carrierSetup(w, 'NL', 'postnl-parcel-standard');
  const shipment = await createShipment(
    sandbox,
    token,
    shipmentBody({ shop: nl.shop, recipient: recipients.NL, service: nl.service, contract: nl.contract, attributes: { register_at: TEST_NOW } }),
  );
  await sandbox.advance(5);
  const made = await sandbox.request('POST', '/manifests', {
    token,
    body: {
      data: {
        type: 'manifests',
        attributes: { name: 'Evening run', address: nl.shop.attributes.sender_address },
        relationships: { shipments: { data: [{ type: 'shipments', id: shipment.id }] } },
      },
    },
  });
  if (made.status !== 201) throw new Error(made.text);
  manifest = made.body.data;
  manifestFile = (await sandbox.get(`/manifests/${manifest.id}?include=files`, token)).body.included[0];

  const r = await returnsWorld(sandbox);
  const shop = r.shopIn('NL');
  const order = await demoOrder(sandbox, r.token, shop);
  const method = await r.method(shop.id, 'Return label (PostNL)');
  const returned = await sandbox.request('POST', '/returns/v1/returns', {
    token: r.token,
    body: returnBody({ shop, order, method, items: [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'changed-mind' } }] }),
  });
  if (returned.status !== 201) throw new Error(returned.text);
  const asked = await sandbox.request('POST', '/returns/v1/reports', {
    token: r.token,
    body: { data: { type: 'return-reports', attributes: { name: 'All', filters: { shops: [shop.id] } } } },
  });
  if (asked.status !== 201) throw new Error(asked.text);
  // Generated 5 seconds after it was asked (TEST_NOW + 5), at TEST_NOW + 10.
  await sandbox.advance(6);
  report = (await sandbox.get(`/returns/v1/reports/${asked.body.data.id}?include=file`, token)).body;
  reportFile = report.included[0];
});

describe('GET /files/{file_id} for a manifest and a return report', () => {
  it("answers a manifest's file as the files resource, with a JSON Accept, */* or none", async () => {
    for (const accept of [undefined, 'application/vnd.api+json', 'application/json', '*/*']) {
      const answer = await getFile(manifestFile.id, accept);
      expect(answer.status, `${accept}: ${answer.text}`).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/vnd.api+json');
      expect(answer.body).toEqual({
        data: {
          type: 'files',
          id: manifestFile.id,
          attributes: {
            document_type: 'manifest',
            formats: [
              { extension: 'pdf', mime_type: 'application/pdf' },
              { extension: 'csv', mime_type: 'text/csv' },
            ],
            created_at: TEST_NOW + 5,
          },
          links: { self: `${BASE}/files/${manifestFile.id}` },
        },
      });
    }
    // The manifest's include names the same resource, with the same self link.
    expect(manifestFile).toEqual((await getFile(manifestFile.id)).body.data);
  });

  it("answers a return report's file as the files resource, typed as production types it", async () => {
    const answer = await getFile(reportFile.id);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toEqual({
      type: 'files',
      id: report.data.relationships.file.data.id,
      attributes: { document_type: 'report', formats: [{ extension: 'csv', mime_type: 'text/csv' }], created_at: TEST_NOW + 10 },
      links: { self: `${BASE}/files/${reportFile.id}` },
    });
  });

  it("serves a manifest's PDF and CSV with the bytes and headers of the manifest's own download", async () => {
    for (const [accept, type] of [
      ['application/pdf', 'application/pdf'],
      ['text/csv', 'text/csv; charset=utf-8'],
      ['text/*', 'text/csv; charset=utf-8'],
    ] as const) {
      const viaFiles = await fetchRaw(`/files/${manifestFile.id}`, accept);
      const own = await fetchRaw(`/manifests/${manifest.id}/files/${manifestFile.id}`, accept);
      expect(viaFiles.status, accept).toBe(200);
      expect(viaFiles.headers.get('content-type')).toBe(type);
      expect(viaFiles.headers.get('content-disposition')).toBe(own.headers.get('content-disposition'));
      expect(viaFiles.bytes.equals(own.bytes), accept).toBe(true);
      // One URL, several answers by Accept: caches are told so, by the manifest's own download too.
      expect(viaFiles.headers.get('vary')).toBe('Accept');
      expect(own.headers.get('vary'), accept).toBe('Accept');
    }
    expect((await fetchRaw(`/files/${manifestFile.id}`, undefined)).headers.get('vary')).toBe('Accept');
    const pdf = await fetchRaw(`/files/${manifestFile.id}`, 'application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(readPdf(pdf.bytes)[0]!.text).toContain('Total: 1 shipment, 1.50 kg');
  });

  it("serves a return report's CSV with the bytes and headers of the report's own download", async () => {
    const viaFiles = await fetchRaw(`/files/${reportFile.id}`, 'text/csv');
    const own = await fetchRaw(`/returns/v1/reports/${report.data.id}/files/${reportFile.id}`, 'text/csv');
    expect(viaFiles.status).toBe(200);
    expect(viaFiles.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(viaFiles.headers.get('content-disposition')).toBe(`attachment; filename="return-report-${report.data.id}.csv"`);
    expect(viaFiles.headers.get('content-disposition')).toBe(own.headers.get('content-disposition'));
    expect(viaFiles.bytes.equals(own.bytes)).toBe(true);
    const rows = parseCsv(viaFiles.bytes.toString());
    expect(rows[0]).toContain('reason_code');
    expect(
      rows
        .slice(1)
        .filter((row) => row.length > 1)
        .map((row) => row[rows[0]!.indexOf('reason_code')]),
    ).toEqual(['changed-mind']);
  });

  it('is 406 naming the Accept header when it allows none of the formats nor the resource', async () => {
    for (const [id, accept] of [
      [manifestFile.id, 'image/png'],
      [manifestFile.id, 'application/pdf;q=0, text/csv;q=0'],
      [reportFile.id, 'application/pdf'],
      [reportFile.id, 'image/*'],
    ]) {
      const answer = await getFile(id, accept);
      expect(answer.status, `${id} ${accept}`).toBe(406);
      expect(firstError(answer).source).toEqual({ header: 'Accept' });
    }
  });

  it('the report download negotiates Accept like the other downloads: 406 without text/csv, the CSV for text/* and */*', async () => {
    const path = `/returns/v1/reports/${report.data.id}/files/${reportFile.id}`;
    for (const accept of ['application/pdf', 'application/vnd.api+json', 'text/csv;q=0']) {
      const answer = await sandbox.request('GET', path, { token, headers: { accept } });
      expect(answer.status, accept).toBe(406);
      expect(firstError(answer).source).toEqual({ header: 'Accept' });
    }
    for (const accept of [undefined, 'text/*', '*/*', 'application/pdf;q=0.9, text/csv;q=0.1']) {
      const answer = await fetchRaw(path, accept);
      expect(answer.status, accept).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    }
  });

  it("answers another organization's manifest or report file exactly like an unknown id (404)", async () => {
    const other = await sandbox.token('other-client');
    const unknown = '00000000-0000-4000-8000-000000000000';
    const missing = await getFile(unknown, undefined, other);
    expect(missing.status).toBe(404);
    for (const id of [manifestFile.id, reportFile.id]) {
      for (const accept of [undefined, 'text/csv', 'application/pdf', 'image/png']) {
        const answer = await getFile(id, accept, other);
        expect(answer.status, `${id} ${accept}`).toBe(404);
        expect(answer.text.replaceAll(id, unknown)).toBe(missing.text);
      }
    }
    // The owner still gets them.
    expect((await getFile(manifestFile.id)).status).toBe(200);
  });

  it("refuses a token without the scope the file's owner needs (403, the Authorization header), and serves one with it", async () => {
    const returnsOnly = await sandbox.token('sandbox-client', 'returns.manage');
    const shipmentsOnly = await sandbox.token('sandbox-client', 'shipments.manage');
    const shipmentsView = await sandbox.token('sandbox-client', 'shipments.view');
    for (const [id, bearer, needs] of [
      [manifestFile.id, returnsOnly, 'shipments.manage, shipments.view'],
      [reportFile.id, shipmentsOnly, 'returns.manage'],
      [reportFile.id, shipmentsView, 'returns.manage'],
    ]) {
      for (const accept of [undefined, 'text/csv']) {
        const answer = await getFile(id!, accept, bearer);
        expect(answer.status, `${id} ${accept}`).toBe(403);
        expect(firstError(answer)).toMatchObject({ code: '14004', source: { header: 'Authorization' } });
        expect(firstError(answer).detail).toContain(needs);
      }
    }
    // The owner's own downloads refuse the same tokens.
    expect((await fetchRaw(`/manifests/${manifest.id}/files/${manifestFile.id}`, 'text/csv', returnsOnly)).status).toBe(403);
    expect((await fetchRaw(`/returns/v1/reports/${report.data.id}/files/${reportFile.id}`, 'text/csv', shipmentsOnly)).status).toBe(403);
    // Each file to a token with its owner's scope.
    expect((await fetchRaw(`/files/${manifestFile.id}`, 'text/csv', shipmentsView)).status).toBe(200);
    expect((await fetchRaw(`/files/${manifestFile.id}`, 'text/csv', shipmentsOnly)).status).toBe(200);
    expect((await fetchRaw(`/files/${reportFile.id}`, 'text/csv', returnsOnly)).status).toBe(200);
  });
});

describe('POST /combine-files with a manifest or a return report file', () => {
  it('refuses them as documents it does not combine (422, naming the file), not as files that do not exist', async () => {
    for (const file of [manifestFile, reportFile]) {
      const answer = await sandbox.request('POST', '/combine-files', {
        token,
        body: { data: { file_ids: [file.id] } },
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status, answer.text).toBe(422);
      expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/data/file_ids/0' } });
      expect(firstError(answer).detail).toContain(file.attributes.document_type);
    }
  });

  it("answers another organization's manifest file as a missing one (404)", async () => {
    const other = await sandbox.token('other-client');
    const answer = await sandbox.request('POST', '/combine-files', {
      token: other,
      body: { data: { file_ids: [manifestFile.id] } },
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(404);
    expect(firstError(answer).source).toEqual({ pointer: '/data/file_ids/0' });
  });
});
