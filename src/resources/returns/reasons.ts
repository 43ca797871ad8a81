import { z } from 'zod';
import { ownOr404, organizationOf } from '../../domain/returns/access.js';
import { createReason, deleteReason, hasAnyTag, updateReason } from '../../domain/returns/reasons.js';
import { endpoint } from '../../http/endpoint.js';
import { writeEndpoints } from '../write-endpoints.js';
import { csvStrings } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { resourceRequest } from '../../jsonapi/request.js';
import { returnReasonAttributes } from '../../model/returns/config.js';
import { LANGUAGE_NOTE, acceptLanguage, languageHeader, reasonsRead, reasonsWrite, readOnly } from './common.js';
import { reasonKind, reasonSchemas } from './config-kinds.js';

const TAG = 'Return reasons';
const params = z.object({ return_reason_id: z.string() });

const createRequest = resourceRequest({
  id: 'ReturnReasonCreateRequest',
  attributes: returnReasonAttributes,
  relationships: z.record(z.string(), z.unknown()).optional(),
});
const updateRequest = resourceRequest({
  id: 'ReturnReasonUpdateRequest',
  update: true,
  attributes: returnReasonAttributes.partial().extend({ created_at: readOnly }).optional(),
  relationships: z.record(z.string(), z.unknown()).optional(),
});

export const reasonEndpoints = [
  endpoint({
    method: 'get',
    path: '/returns/v1/reasons',
    operationId: 'listReturnReasons',
    summary: 'List return reasons',
    description: `The return reasons of the caller's organization, which its shops pick from (seeded with a default set). ${LANGUAGE_NOTE}`,
    tag: TAG,
    auth: reasonsRead,
    query: z.object({ 'filter[tags]': csvStrings.optional().describe('Comma separated tags: reasons with any of them.') }),
    paginated: true,
    responses: { 200: { description: 'The reasons.', schema: reasonSchemas.list } },
    headers: languageHeader,
    handler: (ctx, { query, page, headers }) => {
      const tags = query['filter[tags]'];
      const rows = ctx.store.find('returnReasons', 'organization_id', organizationOf(ctx)).filter((row) => !tags || hasAnyTag(row, tags));
      return jsonApi(collectionDocument(ctx, reasonKind(acceptLanguage(headers['Accept-Language'])), rows, page));
    },
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/reasons/{return_reason_id}',
    operationId: 'getReturnReason',
    summary: 'Get a return reason',
    description: `${LANGUAGE_NOTE}`,
    tag: TAG,
    auth: reasonsRead,
    params,
    responses: { 200: { description: 'The reason.', schema: reasonSchemas.document } },
    headers: languageHeader,
    handler: (ctx, { params: path, headers }) =>
      jsonApi(
        resourceDocument(ctx, reasonKind(acceptLanguage(headers['Accept-Language'])), ownOr404(ctx, 'returnReasons', 'return-reasons', path.return_reason_id)),
      ),
  }),
  ...writeEndpoints({
    kind: reasonKind(undefined),
    table: 'returnReasons',
    tag: TAG,
    noun: 'return reason',
    path: '/returns/v1/reasons',
    auth: reasonsWrite,
    schemas: reasonSchemas,
    own: (ctx, id) => ownOr404(ctx, 'returnReasons', 'return-reasons', id),
    create: {
      summary: 'Create a return reason',
      description:
        'A reason consumers can give, with whether it accepts or requires a comment and photos. `description` is a text or one per locale (`{"en-GB": "...", "nl-NL": "..."}`). Codes are unique in the organization.',
      body: createRequest,
      answer: 'The new reason.',
      errors: { 409: 'The body type is not return-reasons (10007).', 422: 'A code in use, or a requirement without acceptance (10008).' },
      insert: (tx, ctx, { attributes }) => createReason(tx, ctx, attributes),
    },
    update: {
      summary: 'Change a return reason',
      description: 'Send only what changes. Returns already made keep the reason as it was.',
      body: updateRequest,
      answer: 'The whole reason.',
      errors: { 409: 'The body type or id does not match (10007).', 422: 'A code in use, or a requirement without acceptance (10008).' },
      change: (tx, _ctx, current, { attributes }) => {
        const { created_at: _ignored, ...changes } = attributes ?? {};
        return updateReason(tx, current, changes);
      },
    },
    delete: {
      summary: 'Delete a return reason',
      description: 'Shops stop offering it; returns already made keep it as the consumer gave it.',
      answer: 'Deleted.',
      remove: (tx, _ctx, current) => deleteReason(tx, current),
    },
  }),
];
