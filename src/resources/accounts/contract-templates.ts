import { z } from 'zod';
import type { Ctx, Kind } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { csvCountryCodes, csvIds, listHas } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { missingRelated } from '../../domain/errors.js';
import { brokerMayNameTenantRow } from '../../domain/tenant-lifetime.js';
import { checkIdentity, relatedId, resourceRequest, toManyRef, toOneRef, unknownRelated } from '../../jsonapi/request.js';
import { linkTo } from '../../jsonapi/resource.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { contractTemplateAttributes, type ContractTemplateRecord } from '../../model/contract-template.js';
import { currency } from '../../model/contract.js';
import { BROKER_ONLY, brokerOnly } from '../acting.js';
import { contractTemplateIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';
import { readEndpoints } from '../read-endpoints.js';

/** A client sees its broker's templates; the broker (admin token) every template. */
const templateVisible = (ctx: Ctx, row: ContractTemplateRecord): boolean => !ctx.principal || row.broker_id === ctx.principal.brokerId;

/** The countries the template's services ship from, each once, sorted. */
function countriesFrom(ctx: Ctx, row: ContractTemplateRecord): string[] {
  const codes = row.service_ids.flatMap((id) => ctx.store.get('services', id)?.regions_from.map((rule) => rule.country_code) ?? []);
  return [...new Set(codes)].sort();
}

const contractTemplatePath = (id: string) => `/contracts/v1/templates/${id}`;

export const contractTemplateKind: Kind<ContractTemplateRecord> = {
  type: 'contract-templates',
  attributesSchema: contractTemplateAttributes,
  attributes: (row, ctx) => ({
    name: row.name,
    description: row.description,
    currency: row.currency,
    created_at: row.created_at,
    countries_from: countriesFrom(ctx, row),
  }),
  relationships: {
    broker: { targets: ['brokers'], data: (row) => linkTo('brokers', row.broker_id) },
    carrier: { targets: ['carriers'], data: (row) => linkTo('carriers', row.carrier_id) },
    services: { targets: ['services'], many: true, data: (row) => row.service_ids.map((id) => ({ type: 'services', id })) },
  },
  self: (row) => contractTemplatePath(row.id),
  // Loaded for `include` from contracts: never another broker's.
  load: (ctx, id) => {
    const row = ctx.store.get('contractTemplates', id);
    return row && templateVisible(ctx, row) ? row : undefined;
  },
};

const schemas = resourceSchemas(contractTemplateKind);

const query = z.object({
  'filter[broker]': csvIds.optional().describe('Comma separated broker ids.'),
  'filter[carrier]': csvIds.optional().describe('Comma separated carrier ids.'),
  'filter[countries_from]': csvCountryCodes.optional().describe('Comma separated country codes: templates with a service from one of them.'),
});

const createRequest = resourceRequest({
  id: 'ContractTemplateCreateRequest',
  attributes: z.object({ name: z.string().min(1).max(255), description: z.string().max(255).nullable().optional(), currency }),
  relationships: z.object({ broker: toOneRef, carrier: toOneRef, services: toManyRef }),
});

/**
 * The services of a new template: each must exist, be of its carrier and be one every organization
 * of the broker may see (a service a pack gave one tenant is unknown to a template of a broker
 * other tenants share, as it is to them).
 */
function templateServices(ctx: Ctx, brokerId: string, carrierId: string, refs: z.output<typeof toManyRef>['data']): string[] {
  return refs.map((ref, index) => {
    const named = ref.type === 'services' ? ctx.store.get('services', ref.id) : undefined;
    const service = named && brokerMayNameTenantRow(ctx.store, brokerId, named.organization_id) ? named : undefined;
    if (!service) throw missingRelated('services', 'services', ref.id, { relationship: `services[${index}].id` });
    if (service.carrier_id !== carrierId)
      throw unknownRelated('services', 'services of the template carrier', ref.id, `/data/relationships/services/data/${index}/id`);
    return service.id;
  });
}

const path = '/contracts/v1/templates';

export const contractTemplateEndpoints = [
  ...readEndpoints({
    kind: contractTemplateKind,
    table: 'contractTemplates',
    tag: 'Contracts',
    noun: 'contract template',
    plural: 'contract templates',
    auth: { anyOf: ['broker.member'] },
    schemas,
    query,
    include: contractTemplateIncludes,
    description:
      "The templates of the caller's broker: which services of one carrier a contract made from it (POST /contracts with `relationships.contract_template`) takes rates for.",
    visible: templateVisible,
    filter: (ctx, rows, q) =>
      rows.filter(
        (row) =>
          (!q['filter[broker]'] || listHas(q['filter[broker]'], row.broker_id)) &&
          (!q['filter[carrier]'] || listHas(q['filter[carrier]'], row.carrier_id)) &&
          (!q['filter[countries_from]'] || countriesFrom(ctx, row).some((code) => listHas(q['filter[countries_from]']!, code))),
      ),
  }).map((declared) => ({ ...declared, path: declared.path.replace('/contract-templates', path) })),
  endpoint({
    method: 'post',
    path,
    operationId: 'createContractTemplate',
    summary: 'Create a contract template',
    description: `${BROKER_ONLY} \`services\` must be services of \`carrier\`.`,
    tag: 'Contracts',
    auth: { anyOf: ['contract_templates.manage'], admin: true },
    body: createRequest,
    responses: {
      201: { description: 'The new template; `Location` holds its URL.', schema: schemas.document },
      403: { description: "A tenant's access token (10013).", schema: errorDocument },
      409: { description: 'The body `type` is not `contract-templates` (10007).', schema: errorDocument },
      404: {
        description:
          "An unknown broker, carrier or service (10002), as production documents; a carrier or service a pack gave one tenant is unknown here unless that tenant's pack made the broker.",
        schema: errorDocument,
      },
      422: { description: 'A service of another carrier than the template (10008).', schema: errorDocument },
    },
    include: contractTemplateIncludes,
    handler: async (ctx, { body, include }) => {
      if (ctx.principal) throw brokerOnly('Creating a contract template');
      const { data } = body;
      checkIdentity(data, 'contract-templates');
      const { store } = ctx;
      const { clock } = ctx;
      const brokerId = relatedId(data.relationships.broker, 'broker', ['brokers'])!;
      if (!store.get('brokers', brokerId)) throw missingRelated('broker', 'brokers', brokerId);
      const carrierId = relatedId(data.relationships.carrier, 'carrier', ['carriers'])!;
      const carrier = store.get('carriers', carrierId);
      // A carrier a pack gave one tenant is as unknown to a shared broker's template as its services.
      if (!carrier || !brokerMayNameTenantRow(store, brokerId, carrier.organization_id)) throw missingRelated('carrier', 'carriers', carrierId);
      const serviceIds = templateServices(ctx, brokerId, carrierId, data.relationships.services.data);
      const row = await store.transact((tx) =>
        tx.insert('contractTemplates', {
          id: tx.newId(),
          name: data.attributes.name,
          ...(data.attributes.description ? { description: data.attributes.description } : {}),
          currency: data.attributes.currency,
          created_at: clock.now(),
          broker_id: brokerId,
          carrier_id: carrierId,
          service_ids: [...new Set(serviceIds)],
        }),
      );
      return jsonApi(resourceDocument(ctx, contractTemplateKind, row, include), 201, { location: ctx.url(contractTemplatePath(row.id)) });
    },
  }),
  endpoint({
    method: 'delete',
    path: `${path}/{contract_template_id}`,
    operationId: 'deleteContractTemplate',
    summary: 'Delete a contract template',
    description: `${BROKER_ONLY} Contracts made from it keep their rates and lose their \`contract_template\`.`,
    tag: 'Contracts',
    auth: { anyOf: ['contract_templates.manage'], admin: true },
    params: z.object({ contract_template_id: z.string() }),
    responses: {
      204: { description: 'Deleted.' },
      403: { description: "A tenant's access token (10013).", schema: errorDocument },
    },
    handler: async (ctx, { params }) => {
      const template = findOr404(ctx, 'contractTemplates', 'contract-templates', params.contract_template_id, (row) => templateVisible(ctx, row));
      if (ctx.principal) throw brokerOnly('Deleting a contract template');
      await ctx.store.transact((tx) => {
        for (const contract of tx.all('contracts'))
          if (contract.contract_template_id === template.id) tx.update('contracts', contract.id, { contract_template_id: undefined });
        tx.remove('contractTemplates', template.id);
      });
      return new Response(null, { status: 204 });
    },
  }),
];
