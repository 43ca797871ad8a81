import { z } from 'zod';
import { checkRate, type RateCandidate } from '../../domain/rate-rules.js';
import type { Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { ApiError } from '../../jsonapi/errors.js';
import { checkIdentity, relatedId, resourceRequest, toOneRef, unknownRelated } from '../../jsonapi/request.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { price } from '../../model/common.js';
import type { ContractRecord } from '../../model/contract.js';
import { weightBracket, type RateOption, type ServiceRateRecord } from '../../model/service-rate.js';
import { contractVisible } from '../accounts/contract-kind.js';
import { serviceRateIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';
import { rateVisible, serviceRateKind, serviceRateSchemas } from './service-rate-kind.js';

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

// Production's rate attributes are an open set: members it does not name are ignored.
const attributes = {
  weight_min: z.number().int().min(0).describe('Grams.'),
  weight_max: z.number().int().min(1).describe('Grams.'),
  weight_bracket: nullable(weightBracket),
  length_max: nullable(z.number().int().positive()).describe('Millimetres.'),
  width_max: nullable(z.number().int().positive()).describe('Millimetres.'),
  height_max: nullable(z.number().int().positive()).describe('Millimetres.'),
  volume_max: nullable(z.number().positive()).describe('Litres.'),
  is_dynamic: z.boolean().optional().describe('Default false.'),
  price: nullable(price),
  fuel_surcharge: nullable(price),
  oversize_surcharge: nullable(price),
  step_price: nullable(price).describe('Charged for every started step_size grams above weight_max.'),
  step_size: nullable(z.number().int().positive()),
  includes_vat: z.boolean().optional().describe('Default false.'),
  purchase_price: nullable(price),
  oversize_purchase_price: nullable(price),
};

const optionRefs = z.object({
  data: z
    .array(
      z.object({
        type: z.literal('service-options'),
        id: z.string(),
        meta: z.object({ price: price.optional(), included: z.boolean().optional() }).optional(),
      }),
    )
    .max(50),
});

const createRequest = resourceRequest({
  id: 'ServiceRateCreateRequest',
  attributes: z.object(attributes),
  relationships: z.object({ contract: toOneRef, service: toOneRef, service_options: optionRefs.optional() }),
});

const updateRequest = resourceRequest({
  id: 'ServiceRateUpdateRequest',
  update: true,
  attributes: z.object(attributes).partial().default({}),
  relationships: z.object({ contract: toOneRef.optional(), service: toOneRef.optional(), service_options: optionRefs.optional() }).optional(),
});

type Attributes = z.output<typeof updateRequest>['data']['attributes'];
type Relationships = NonNullable<z.output<typeof updateRequest>['data']['relationships']>;

/** The contract a rate may be written for: one the caller owns. Broker contracts are the broker's (403). */
function ownContract(ctx: Ctx, id: string): ContractRecord {
  const contract = ctx.store.get('contracts', id);
  if (!contract || !contractVisible(ctx, contract)) throw unknownRelated('contract', 'contracts', id);
  if (contract.owner.type !== 'organizations') {
    throw ApiError.of('actionNotAllowed', 'The rates of a contract your broker shares are set by the broker; add rates to a contract of your own.', {
      source: { pointer: '/data/relationships/contract/data/id' },
    });
  }
  return contract;
}

/** The sent attributes as stored fields: `null` removes an optional one. */
function fieldsOf(sent: Attributes): Partial<ServiceRateRecord> {
  return Object.fromEntries(Object.entries(sent).map(([key, value]) => [key, value ?? undefined]));
}

const optionsOf = (refs: z.output<typeof optionRefs> | undefined): RateOption[] | undefined =>
  refs?.data.map((ref) => ({ service_option_id: ref.id, ...(ref.meta?.price ? { price: ref.meta.price } : {}), included: ref.meta?.included ?? false }));

/**
 * Checks the rate as it would be (`sent`: the attributes and relationships an update sent) and stores it, in one transaction (the overlap check sees every
 * rate), and renders the answer there too: while the rate waits to be durable, another request (a
 * DELETE of its contract) may remove what the answer includes.
 */
async function save(ctx: Ctx, candidate: RateCandidate, contract: ContractRecord, include: readonly string[], sent?: ReadonlySet<string>) {
  return ctx.store.transact((tx) => {
    checkRate(tx, candidate, contract, sent);
    if (candidate.id && !tx.get('serviceRates', candidate.id)) throw ApiError.notFound('service-rates', candidate.id);
    const row = candidate.id ? tx.update('serviceRates', candidate.id, candidate) : tx.insert('serviceRates', { ...candidate, id: tx.newId() });
    return { row, document: resourceDocument(ctx, serviceRateKind, row, include) };
  });
}

function merged(
  ctx: Ctx,
  current: ServiceRateRecord,
  attributes: Attributes,
  relationships: Relationships | undefined,
): { candidate: RateCandidate; contract: ContractRecord } {
  const contractId = relatedId(relationships?.contract, 'contract', ['contracts'], false) ?? current.contract_id;
  const contract = ownContract(ctx, contractId);
  const serviceId = relatedId(relationships?.service, 'service', ['services'], false) ?? current.service_id;
  const candidate = {
    ...current,
    ...fieldsOf(attributes),
    contract_id: contract.id,
    service_id: serviceId,
    service_options: optionsOf(relationships?.service_options) ?? current.service_options,
  };
  return { candidate, contract };
}

const rules =
  'Checked before anything is stored, every problem at once (422 with pointers): weight_min <= weight_max; a price or a weight_bracket (or is_dynamic); ' +
  'the bracket start within the range, and its price at weight_max within 2^53 - 1 cents; prices in the contract currency; step_price with step_size; length_max with an oversize_surcharge; a service of the ' +
  "contract's carrier (and of its contract template); existing service options; no weight range overlapping another rate of the same contract and service. " +
  'The next shipment on the contract is priced with it.';

export const serviceRateWriteEndpoints = [
  endpoint({
    method: 'post',
    path: '/service-rates',
    operationId: 'createServiceRate',
    summary: 'Add a rate to an own contract',
    description: ` The contract must be the caller's own (a broker contract is 403, 10013). ${rules}`,
    tag: 'Service rates',
    auth: { anyOf: ['organizations.manage'] },
    body: createRequest,
    responses: {
      201: { description: 'The new rate; `Location` holds its URL.', schema: serviceRateSchemas.document },
      403: { description: 'A contract the broker shares (10013).', schema: errorDocument },
      409: { description: 'The body `type` is not `service-rates` (10007).', schema: errorDocument },
      422: { description: 'An unknown contract, service or option, or a rate that breaks a rule above (10008).', schema: errorDocument },
    },
    include: serviceRateIncludes,
    handler: async (ctx, { body, include }) => {
      const { data } = body;
      checkIdentity(data, 'service-rates');
      const contract = ownContract(ctx, relatedId(data.relationships.contract, 'contract', ['contracts'])!);
      const serviceId = relatedId(data.relationships.service, 'service', ['services'])!;
      const candidate: RateCandidate = {
        ...(fieldsOf(data.attributes) as Omit<ServiceRateRecord, 'id'>),
        is_dynamic: data.attributes.is_dynamic ?? false,
        includes_vat: data.attributes.includes_vat ?? false,
        contract_id: contract.id,
        service_id: serviceId,
        service_options: optionsOf(data.relationships.service_options) ?? [],
      };
      const { row, document } = await save(ctx, candidate, contract, include);
      return jsonApi(document, 201, { location: ctx.url(serviceRateKind.self(row)) });
    },
  }),
  endpoint({
    method: 'patch',
    path: '/service-rates/{service_rate_id}',
    operationId: 'updateServiceRate',
    summary: 'Change a rate of an own contract',
    description: ` Only the attributes and relationships sent change (\`null\` removes an optional attribute); the rate of a broker contract is 403 (10013). ${rules}`,
    tag: 'Service rates',
    auth: { anyOf: ['organizations.manage'] },
    params: z.object({ service_rate_id: z.string() }),
    body: updateRequest,
    responses: {
      200: { description: 'The whole updated rate.', schema: serviceRateSchemas.document },
      403: { description: 'A rate of a contract the broker shares (10013).', schema: errorDocument },
      409: { description: 'The body `type` or `id` does not match (10007).', schema: errorDocument },
      422: { description: 'An unknown contract, service or option, or a rate that breaks a rule above (10008).', schema: errorDocument },
    },
    include: serviceRateIncludes,
    handler: async (ctx, { params, body, include }) => {
      const current = findOr404(ctx, 'serviceRates', 'service-rates', params.service_rate_id, (row) => rateVisible(ctx, row));
      checkIdentity(body.data, 'service-rates', current.id);
      const { candidate, contract } = merged(ctx, current, body.data.attributes, body.data.relationships);
      const sent = new Set([...Object.keys(body.data.attributes), ...Object.keys(body.data.relationships ?? {})]);
      return jsonApi((await save(ctx, candidate, contract, include, sent)).document);
    },
  }),
];
