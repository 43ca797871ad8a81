import { z } from 'zod';
import { endpoint } from '../../http/endpoint.js';
import { csvIds, csvOf, listHas } from '../../http/params.js';
import { collectionDocument } from '../../jsonapi/document.js';
import { jsonApi } from '../../http/respond.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { contractStatuses, type ContractRecord } from '../../model/contract.js';
import type { Ctx } from '../../http/context.js';
import { contractKind, contractReadable, contractVisible, liabilityCoverageKind } from './contract-kind.js';
import { findOr404 } from '../lookup.js';
import { carrierVisible } from '../catalogue/carriers.js';
import { getEndpoint, readEndpoints } from '../read-endpoints.js';
import { contractIncludes, contractListIncludes } from '../include-paths.js';

const readScopes = { anyOf: ['shipments.manage', 'organizations.manage'] } as const;
const contractSchemas = resourceSchemas(contractKind, { meta: z.object({ verification_errors: z.array(z.string()).optional() }) });

const query = z.object({
  'filter[status]': csvOf(contractStatuses).optional().describe('Comma separated statuses.'),
  'filter[carrier]': csvIds.optional().describe('Comma separated carrier ids.'),
  'filter[owner]': csvIds.optional().describe('Comma separated organization or broker ids.'),
  'filter[search]': z.string().min(1).optional().describe('Case-insensitive text in the contract name or the owner name.'),
});

function ownerName(ctx: Ctx, contract: ContractRecord): string {
  const { store } = ctx;
  return (contract.owner.type === 'brokers' ? store.get('brokers', contract.owner.id) : store.get('organizations', contract.owner.id))?.name ?? '';
}

export const contractReadEndpoints = [
  ...readEndpoints({
    kind: contractKind,
    include: contractListIncludes,
    getInclude: contractIncludes,
    table: 'contracts',
    tag: 'Contracts',
    noun: 'contract',
    plural: 'contracts',
    auth: readScopes,
    schemas: contractSchemas,
    visible: contractVisible,
    readable: contractReadable,
    query,
    description: "Contracts of the caller's organization and those its broker shares. Credentials are never returned.",
    filter: (ctx, rows, q) => {
      const search = q['filter[search]']?.toLowerCase();
      return rows.filter(
        (row) =>
          (!q['filter[status]'] || listHas(q['filter[status]'], row.status)) &&
          (!q['filter[carrier]'] || listHas(q['filter[carrier]'], row.carrier_id)) &&
          (!q['filter[owner]'] || listHas(q['filter[owner]'], row.owner.id)) &&
          (!search || row.name.toLowerCase().includes(search) || ownerName(ctx, row).toLowerCase().includes(search)),
      );
    },
  }),
  endpoint({
    method: 'get',
    path: '/carriers/{carrier_id}/contracts',
    operationId: 'listCarrierContracts',
    summary: "List a carrier's contracts",
    tag: 'Contracts',
    auth: readScopes,
    params: z.object({ carrier_id: z.string() }),
    paginated: true,
    include: contractIncludes,
    responses: { 200: { description: 'The contracts of the carrier the caller can see.', schema: contractSchemas.list } },
    handler: (ctx, { params, page, include }) => {
      const carrier = findOr404(ctx, 'carriers', 'carriers', params.carrier_id, (row) => carrierVisible(ctx, row));
      const rows = ctx.store.find('contracts', 'carrier_id', carrier.id).filter((row) => contractVisible(ctx, row));
      return jsonApi(collectionDocument(ctx, contractKind, rows, page, include));
    },
  }),
  getEndpoint({
    kind: liabilityCoverageKind,
    table: 'liabilityCoverages',
    tag: 'Contracts',
    noun: 'liability coverage',
    plural: 'liability coverages',
    auth: readScopes,
    schemas: resourceSchemas(liabilityCoverageKind),
    visible: (ctx, row) => {
      const contract = ctx.store.get('contracts', row.contract_id);
      // A coverage of a contract the caller may read by id (one its shipments keep) answers too.
      return contract !== undefined && contractReadable(ctx, contract);
    },
  }),
];
