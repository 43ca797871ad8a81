import { z } from 'zod';
import { organizationOf } from '../../domain/returns/access.js';
import { createMethod, deleteMethod, methodOr404, updateMethod, type MethodInput } from '../../domain/returns/methods.js';
import { endpoint } from '../../http/endpoint.js';
import { writeEndpoints } from '../write-endpoints.js';
import { csvIds } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { relatedId, resourceRequest, toManyRef, toOneRef, type ToOneRef } from '../../jsonapi/request.js';
import { ApiError } from '../../jsonapi/errors.js';
import { returnMethodAttributes } from '../../model/returns/config.js';
import { returnMethodIncludes } from '../include-paths.js';
import { readOnly, returnsScope } from './common.js';
import { methodSchemas, returnMethodKind } from './config-kinds.js';
import { resolveEndpoint } from './resolve.js';

const TAG = 'Return methods';
const params = z.object({ return_method_id: z.string() });
const { created_at: _created, ...writable } = returnMethodAttributes.shape;

const relationships = z.object({
  shop: toOneRef.optional(),
  contract: toOneRef.optional(),
  service: toOneRef.optional(),
  service_options: toManyRef.optional(),
  recovery_contract: toOneRef.optional(),
  recovery_service: toOneRef.optional(),
});

const createRequest = resourceRequest({
  id: 'ReturnMethodCreateRequest',
  attributes: z.strictObject({ ...writable, created_at: readOnly }),
  relationships: relationships.extend({ shop: toOneRef }),
});
const updateRequest = resourceRequest({
  id: 'ReturnMethodUpdateRequest',
  update: true,
  attributes: z.strictObject({ ...writable, return_type: writable.return_type.optional(), created_at: readOnly }).optional(),
  relationships: relationships.optional().describe('The shop cannot change; `data: null` removes a contract or service.'),
});

type Relationships = z.infer<typeof relationships>;
type Attributes = Partial<z.infer<z.ZodObject<typeof writable>>>;

/** The stored fields a request names; a relationship left out is not in the result (PATCH keeps it). */
function fields(attributes: Attributes, rels: Relationships): Partial<MethodInput> {
  const out: Partial<MethodInput> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) (out as Record<string, unknown>)[key] = value ?? undefined;
  const one = (ref: ToOneRef | undefined, name: string, type: string) => relatedId(ref, name, [type], false);
  // The shop is never optional: a create sends one, and `data: null` names none (an update's is dropped before this).
  if (rels.shop) out.shop_id = relatedId(rels.shop, 'shop', ['shops']);
  if (rels.contract) out.contract_id = one(rels.contract, 'contract', 'contracts');
  if (rels.service) out.service_id = one(rels.service, 'service', 'services');
  if (rels.recovery_contract) out.recovery_contract_id = one(rels.recovery_contract, 'recovery_contract', 'contracts');
  if (rels.recovery_service) out.recovery_service_id = one(rels.recovery_service, 'recovery_service', 'services');
  if (rels.service_options) {
    rels.service_options.data.forEach((entry, index) => {
      if (entry.type !== 'service-options')
        throw ApiError.unprocessable(
          `service_options must point at service-options, not '${entry.type}'.`,
          `/data/relationships/service_options/data/${index}/type`,
        );
    });
    out.service_option_ids = rels.service_options.data.map((entry) => entry.id);
  }
  return out;
}

export const methodEndpoints = [
  endpoint({
    method: 'get',
    path: '/returns/v1/return-methods',
    operationId: 'listReturnMethods',
    summary: 'List return methods',
    description:
      "How consumers can send items back to the caller's shops: `shipment` (a return label the sandbox registers with the method's service and contract), `store-drop-off` (bring it to the method's address) and `self-shipment` (send it yourself). `meta` shows the carrier, service and label price of a `shipment` method.",
    tag: TAG,
    auth: returnsScope,
    query: z.object({ 'filter[shop]': csvIds.optional().describe('Comma separated shop ids.') }),
    include: returnMethodIncludes,
    paginated: true,
    responses: { 200: { description: 'The methods.', schema: methodSchemas.list } },
    handler: (ctx, { query, page, include }) => {
      const shops = query['filter[shop]'];
      const rows = ctx.store
        .find('returnMethods', 'organization_id', organizationOf(ctx))
        .filter((row) => row.deleted_at === undefined && (!shops || shops.includes(row.shop_id)));
      return jsonApi(collectionDocument(ctx, returnMethodKind, rows, page, include));
    },
  }),
  resolveEndpoint,
  endpoint({
    method: 'get',
    path: '/returns/v1/return-methods/{return_method_id}',
    operationId: 'getReturnMethod',
    summary: 'Get a return method',
    description: '',
    tag: TAG,
    auth: returnsScope,
    params,
    include: returnMethodIncludes,
    responses: { 200: { description: 'The method.', schema: methodSchemas.document } },
    handler: (ctx, { params: path, include }) => jsonApi(resourceDocument(ctx, returnMethodKind, methodOr404(ctx, path.return_method_id), include)),
  }),
  ...writeEndpoints({
    kind: returnMethodKind,
    table: 'returnMethods',
    tag: TAG,
    noun: 'return method',
    path: '/returns/v1/return-methods',
    auth: returnsScope,
    schemas: methodSchemas,
    include: returnMethodIncludes,
    own: methodOr404,
    create: {
      summary: 'Create a return method',
      description:
        "A `shipment` method needs a service and a contract (an active one the caller can use, of the same carrier, with a rate for the service) whose service delivers to the return address (the method's `address`, else the shop's return address), not to a pick-up point; service options must be offered by that rate. `country_codes` limits the consumer countries. Recovery service and contract are checked the same way.",
      body: createRequest,
      answer: 'The new method.',
      errors: { 409: 'The body type is not return-methods (10007).', 422: 'Each rule the method breaks (10008), at its pointer.' },
      insert: (tx, ctx, { attributes, relationships }) =>
        createMethod(tx, ctx, { service_option_ids: [], ...fields(attributes, relationships) } as MethodInput),
    },
    update: {
      summary: 'Change a return method',
      description: 'Send only what changes; the whole method is checked again as on create. Returns already made keep their shipments.',
      body: updateRequest,
      answer: 'The whole method.',
      errors: { 409: 'The body type or id does not match (10007).', 422: 'Each rule the changed method breaks (10008).' },
      change: (tx, ctx, current, { attributes, relationships }) => {
        const { shop: _shop, ...rels } = relationships ?? {};
        // created_at is read-only: sent (the method as it was read, or changed), it is ignored.
        const { created_at: _ignored, ...changes } = attributes ?? {};
        const sent = new Set([...Object.keys(changes), ...Object.keys(rels)]);
        return updateMethod(tx, ctx, current, fields(changes, rels), sent);
      },
    },
    delete: {
      summary: 'Delete a return method',
      description: 'Consumers can no longer choose it; returns made with it keep it.',
      answer: 'Deleted.',
      remove: (tx, ctx, method) => deleteMethod(tx, ctx, method),
    },
  }),
];
