import { z } from 'zod';
import { manifestData } from '../../domain/collections/manifest-document.js';
import { createManifest } from '../../domain/collections/manifests.js';
import { principalOf, type Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { negotiate } from '../../http/media.js';
import { jsonApi } from '../../http/respond.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { ApiError } from '../../jsonapi/errors.js';
import { checkIdentity, relatedId, resourceRequest, toManyRef, toOneRef } from '../../jsonapi/request.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { address } from '../../model/common.js';
import type { ManifestFileRecord } from '../../model/manifest.js';
import { manifestIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';
import { manifestKind, manifestVisible } from './manifest-kinds.js';
import { readEndpoints } from '../read-endpoints.js';

/*
 * Manifests: GET /manifests[/{id}], POST /manifests and the download of a manifest's document.
 * Scopes: production's shipments.manage (or shipments.view, which this API does not have).
 */

const manage = { anyOf: ['shipments.manage'] } as const;
/** Reading manifests and their documents, also through GET /files/{file_id}. */
export const manifestRead = { anyOf: ['shipments.manage', 'shipments.view'] } as const;

export const manifestSchemas = resourceSchemas(manifestKind, {
  meta: z
    .object({ errors: z.array(z.string()).optional().describe('Shipments of the collection left off the manifest, and why.') })
    .meta({ id: 'ManifestMeta' }),
});

// Clients send whole resources back, so read-only members are accepted and ignored.
const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');

const createRequest = resourceRequest({
  id: 'ManifestCreateRequest',
  attributes: z.strictObject({ name: z.string().min(1).max(255), address, created_at: readOnly }).meta({ id: 'ManifestCreateAttributes' }),
  relationships: z.object({
    shipments: toManyRef
      .optional()
      .describe('The registered shipments to list (at least one), all of one contract. A multi-colli master brings its colli (not voided) after it.'),
    owner: toOneRef.optional().describe('A shop or your organization; default: the shop all shipments are of, else your organization.'),
    shop: toOneRef.optional().describe('Deprecated: the owner shop.'),
    contract: toOneRef.optional().describe("Default: the shipments' contract."),
    files: readOnly,
  }),
  documentMeta: z
    .object({
      update_shipment_statuses: z
        .boolean()
        .optional()
        .describe('`true`: the manifest is the hand-over; its registered shipments become shipment-received-by-carrier at once.'),
    })
    .meta({ id: 'ManifestCreateMeta' }),
});

const downloads = ['application/pdf', 'text/csv'] as const;

/** The manifest's document as PDF or CSV, rendered from the shipments it lists. */
export async function manifestDocument(ctx: Ctx, file: ManifestFileRecord, mimeType: string): Promise<Response> {
  // The PDF and barcode libraries load on the first download, not at start-up. The file and its
  // manifest are read once they are loaded: a manifest gone meanwhile (its organization reset or
  // removed) is gone for this download too, as it is for a later one.
  const { manifestCsv, manifestPdf } = await ctx.rules.libraries.labels();
  const current = ctx.store.get('manifestFiles', file.id);
  const manifest = current && ctx.store.get('manifests', current.manifest_id);
  if (!manifest || !manifestVisible(ctx, manifest)) throw ApiError.notFound('files', file.id);
  const data = manifestData(ctx.store, manifest);
  const csv = mimeType === 'text/csv';
  const bytes = csv ? manifestCsv(data) : await manifestPdf(data);
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': csv ? 'text/csv; charset=utf-8' : mimeType,
      'content-disposition': `attachment; filename="manifest-${manifest.id}.${csv ? 'csv' : 'pdf'}"`,
    },
  });
}

export const manifestEndpoints = [
  ...readEndpoints({
    kind: manifestKind,
    table: 'manifests',
    tag: 'Manifests',
    noun: 'manifest',
    plural: 'manifests',
    auth: manifestRead,
    schemas: manifestSchemas,
    include: manifestIncludes,
    visible: manifestVisible,
    newestFirst: true,
    rows: (ctx) => ctx.store.find('manifests', 'organization_id', ctx.principal?.organizationId ?? ''),
    description: "The manifests of the caller's organization, newest first.",
  }),
  endpoint({
    method: 'post',
    path: '/manifests',
    operationId: 'createManifest',
    summary: 'Make a manifest of registered shipments',
    description:
      'Lists the shipments of `relationships.shipments` (registered, not voided, one contract) on a manifest with a PDF document (and CSV), downloadable at ' +
      '`/manifests/{id}/files/{file_id}`. A multi-colli master is listed with its colli (those not voided), the parcels it stands for; a collo named alone is listed alone. ' +
      'With `meta.update_shipment_statuses: true` the manifest is the hand-over: its `shipment-registered` shipments become ' +
      '`shipment-received-by-carrier` at once (hooks on shipment statuses fire). Any problem is a 422 naming each offending shipment, and nothing is made.',
    tag: 'Manifests',
    auth: manage,
    body: createRequest,
    responses: {
      201: { description: 'The manifest; `Location` holds its URL.', schema: manifestSchemas.document },
      409: { description: 'The body `type` is not `manifests` (10007).', schema: errorDocument },
      422: {
        description: 'No shipments, or shipments that are not yours, not registered, voided, of another contract or shop; an owner that is not yours (10008).',
        schema: errorDocument,
      },
    },
    include: manifestIncludes,
    handler: async (ctx, { body, include }) => {
      const { data } = body;
      checkIdentity(data, 'manifests');
      const rel = data.relationships;
      const shipmentIds = (rel.shipments?.data ?? []).map((entry, index) => {
        if (entry.type !== 'shipments')
          throw ApiError.unprocessable(`Entries of 'shipments' point at shipments, not '${entry.type}'.`, `/data/relationships/shipments/data/${index}/type`);
        return entry.id;
      });
      const owner = rel.owner?.data ?? undefined;
      const request = {
        name: data.attributes.name,
        address: data.attributes.address,
        shipmentIds,
        ...(owner ? { owner } : {}),
        shopId: relatedId(rel.shop, 'shop', ['shops'], false),
        contractId: relatedId(rel.contract, 'contract', ['contracts'], false),
        updateStatuses: body.meta?.update_shipment_statuses === true,
      };
      // Rendered in the transaction: while the manifest waits to be durable, another request (a
      // tenant reset) may remove the file its `files` names.
      const { manifest, document } = await ctx.store.transact((tx) => {
        const manifest = createManifest(tx, ctx.rules, principalOf(ctx), request, ctx.clock.now());
        return { manifest, document: resourceDocument(ctx, manifestKind, manifest, include) };
      });
      return jsonApi(document, 201, { location: ctx.url(manifestKind.self(manifest)) });
    },
  }),
  endpoint({
    method: 'get',
    path: '/manifests/{manifest_id}/files/{file_id}',
    operationId: 'getManifestFile',
    summary: "Download a manifest's document",
    description:
      'The manifest as a PDF (`Accept: application/pdf`, the default): one row per parcel with its tracking code and Code 128 barcode, recipient, destination, service and weight, and the total (a multi-colli shipment listed with its colli is their rows, not a row of its own as well); or as CSV (`Accept: text/csv`), where a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is quoted after an apostrophe, so a spreadsheet opens it as text. `GET /files/{file_id}` answers the same documents, and the file resource.',
    tag: 'Manifests',
    auth: manifestRead,
    params: z.object({ manifest_id: z.string(), file_id: z.string() }),
    produces: downloads,
    headers: z.object({ Accept: z.string().optional().describe('application/pdf (the default) or text/csv.') }),
    responses: { 200: { description: 'The document.', contentTypes: downloads } },
    handler: async (ctx, { params, headers }) => {
      const manifest = findOr404(ctx, 'manifests', 'manifests', params.manifest_id, (row) => manifestVisible(ctx, row));
      const file = findOr404(ctx, 'manifestFiles', 'files', params.file_id, (row) => row.manifest_id === manifest.id);
      const type = negotiate(
        headers.Accept,
        file.formats.map((format) => format.mime_type),
      );
      const document = await manifestDocument(ctx, file, type);
      // One URL, a PDF or a CSV by Accept: a cache (a browser's, a proxy's) must not answer a CSV request with the PDF.
      document.headers.set('vary', 'Accept');
      return document;
    },
  }),
];
