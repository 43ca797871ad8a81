import { z } from 'zod';
import { requireScope } from '../../auth/authenticate.js';
import { principalOf } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { chooseMediaType } from '../../http/media.js';
import { JSONAPI_MEDIA_TYPE, resourceDocument } from '../../jsonapi/document.js';
import { jsonApi } from '../../http/respond.js';
import { ApiError } from '../../jsonapi/errors.js';
import { ownedFile } from './file-owners.js';
import { filesKind } from './files-kind.js';
import { fileSchemas } from './shipment-kinds.js';

const downloads = ['application/pdf', 'application/zpl', 'image/png', 'text/csv'] as const;
const produces = [JSONAPI_MEDIA_TYPE, ...downloads];

export const fileEndpoints = [
  endpoint({
    method: 'get',
    path: '/files/{file_id}',
    operationId: 'getFile',
    summary: 'Get a file or download its document',
    description:
      "Any file of the caller's organization: a shipment's label or customs document, a manifest's document (PDF, CSV) or a return report's CSV. " +
      'With `Accept: application/pdf` (or `application/zpl`, `image/png`, `text/csv`, as the file formats list) the answer is the document itself, as the download of its manifest or report answers it; with the JSON:API media type (or any JSON type), `*/*` or no Accept header, the file resource. `Accept` is negotiated as RFC 9110 says: wildcards (`image/*`), q-values (`q=0` refuses a type), the most specific range setting the weight of a type; at equal weight the type named more exactly wins, then the resource, then the formats in the order the file lists them. 406 when the header allows none of the types the file has. ' +
      "A manifest's document also needs shipments.manage or shipments.view, a return report's returns.manage, as their own downloads do (403 otherwise).",
    // Production's tag: the operation serves more than shipments.
    tag: 'Files',
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
      const file = ownedFile(ctx, params.file_id);
      if (!file) throw ApiError.notFound('files', params.file_id);
      // Within the caller's organization, so a refusal tells nothing another tenant could not know.
      if (file.scopes) requireScope(principalOf(ctx), file.scopes, file.owner);
      // The resource first: what a client that does not care (no Accept, */*, any JSON type) gets.
      const types = file.formats.map((format) => format.mime_type);
      const wanted = chooseMediaType(headers.Accept, [JSONAPI_MEDIA_TYPE, ...types]);
      if (wanted === undefined) {
        throw ApiError.of(
          'invalidHeader',
          `The Accept header allows none of the types this ${file.document_type} is available as: ${types.join(', ')}, or the file resource as ${JSONAPI_MEDIA_TYPE}.`,
          { source: { header: 'Accept' } },
        );
      }
      // The answer depends on Accept: a cache (a browser's, a proxy's) must not answer a PDF request with the resource.
      if (wanted === JSONAPI_MEDIA_TYPE) return jsonApi(resourceDocument(ctx, filesKind, file.row), 200, { vary: 'Accept' });
      const download = await file.download(wanted);
      download.headers.set('vary', 'Accept');
      return download;
    },
  }),
];
