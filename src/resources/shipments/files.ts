import { z } from 'zod';
import { fileBytes } from '../../domain/shipments/documents.js';
import { endpoint } from '../../http/endpoint.js';
import { chooseMediaType } from '../../http/media.js';
import { JSONAPI_MEDIA_TYPE, resourceDocument } from '../../jsonapi/document.js';
import { jsonApi } from '../../http/respond.js';
import { ApiError } from '../../jsonapi/errors.js';
import type { FileRecord, ShipmentRecord } from '../../model/shipment.js';
import type { ReadView } from '../../store/store.js';
import { findOr404 } from '../lookup.js';
import { fileKind, fileSchemas, shipmentVisible } from './shipment-kinds.js';

const downloads = ['application/pdf', 'application/zpl', 'image/png'] as const;
const produces = [JSONAPI_MEDIA_TYPE, ...downloads];

/** Renders a file's bytes in one of its formats; documents are drawn from the shipment when asked for. */
async function render(store: ReadView, file: FileRecord, shipment: ShipmentRecord, mimeType: string): Promise<Buffer> {
  // PDF, PNG and barcode libraries load on the first download, not at start-up.
  const renderers = await import('../../domain/labels/index.js');
  return fileBytes(store, renderers, file, shipment, mimeType);
}

export const fileEndpoints = [
  endpoint({
    method: 'get',
    path: '/files/{file_id}',
    operationId: 'getFile',
    summary: 'Download a label or customs document',
    description:
      'With `Accept: application/pdf` (or `application/zpl`, `image/png`, as the file formats list) the answer is the document itself; with the JSON:API media type (or any JSON type), `*/*` or no Accept header, the file resource. `Accept` is negotiated as RFC 9110 says: wildcards (`image/*`), q-values (`q=0` refuses a type), the most specific range setting the weight of a type; at equal weight the type named more exactly wins, then the resource, then the formats in the order the file lists them. 406 when the header allows none of the types the file has.',
    tag: 'Shipments',
    auth: { anyOf: ['returns.manage', 'shipments.manage', 'shipments.view'] },
    params: z.object({ file_id: z.string() }),
    produces,
    headers: z.object({
      Accept: z
        .string()
        .optional()
        .describe(`Which representation: ${produces.join(', ')}; none (or any JSON type) gives the resource.`),
    }),
    responses: {
      200: { description: 'The file resource, or the document in the requested format.', schema: fileSchemas.document, binary: downloads },
    },
    handler: async (ctx, { params, headers }) => {
      const { store } = ctx;
      const file = findOr404(ctx, 'files', 'files', params.file_id, (row) => {
        const shipment = store.get('shipments', row.shipment_id);
        return shipment !== undefined && shipmentVisible(ctx, shipment);
      });
      // The resource first: what a client that does not care (no Accept, */*, any JSON type) gets.
      const offered = [JSONAPI_MEDIA_TYPE, ...file.formats.map((format) => format.mime_type)];
      const wanted = chooseMediaType(headers.Accept, offered);
      if (wanted === undefined) {
        const formats = file.formats.map((format) => format.mime_type).join(', ');
        throw ApiError.of(
          'invalidHeader',
          `The Accept header allows none of the types this ${file.document_type} is available as: ${formats}, or the file resource as ${JSONAPI_MEDIA_TYPE}.`,
          { source: { header: 'Accept' } },
        );
      }
      if (wanted === JSONAPI_MEDIA_TYPE) return jsonApi(resourceDocument(ctx, fileKind, file));
      const shipment = store.get('shipments', file.shipment_id)!;
      const bytes = await render(store, file, shipment, wanted);
      const extension = file.formats.find((format) => format.mime_type === wanted)!.extension;
      return new Response(new Uint8Array(bytes), {
        headers: {
          'content-type': wanted,
          'content-disposition': `attachment; filename="${file.document_type}-${shipment.tracking_code ?? shipment.id}.${extension}"`,
        },
      });
    },
  }),
];
