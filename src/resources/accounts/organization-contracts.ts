import { z } from 'zod';
import { shareContract, unshareContract } from '../../domain/organizations.js';
import { organizationCanUse } from '../../domain/tenancy.js';
import type { Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument } from '../../jsonapi/document.js';
import { ApiError } from '../../jsonapi/errors.js';
import { unknownRelated } from '../../jsonapi/request.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import type { ContractRecord } from '../../model/contract.js';
import type { OrganizationRecord } from '../../model/tenancy.js';
import { BROKER_ONLY, brokerOnly } from '../acting.js';
import { contractKind } from './contract-kind.js';
import { findOr404 } from '../lookup.js';

const params = z.object({ organization_id: z.string() });
const schemas = resourceSchemas(contractKind, { meta: z.object({ verification_errors: z.array(z.string()).optional() }) });

/** `{data: [{type, id}, ...]}`: the contracts to link or unlink. */
const identifiers = z
  .object({
    data: z
      .array(z.object({ type: z.string(), id: z.string() }))
      .min(1)
      .max(100),
  })
  .meta({ id: 'ContractIdentifierList' });

/** The organization a request names: a tenant names only its own; the broker (admin token) any. */
function organizationOf(ctx: Ctx, id: string): OrganizationRecord {
  return findOr404(ctx, 'organizations', 'organizations', id, (row) => !ctx.principal || row.id === ctx.principal.organizationId);
}

/**
 * The contracts of a link request, all checked before anything changes: each must be a contract of
 * the organization's broker (or the organization's own, which is linked already).
 */
function contractsOf(ctx: Ctx, organization: OrganizationRecord, data: z.output<typeof identifiers>['data']): ContractRecord[] {
  return data.map((entry, index) => {
    const pointer = `/data/${index}`;
    if (entry.type !== 'contracts') {
      throw ApiError.of('conflict', `This relationship holds resources of type 'contracts', not '${entry.type}'.`, { source: { pointer: `${pointer}/type` } });
    }
    const contract = ctx.store.get('contracts', entry.id);
    const ownOrBrokers = contract && (contract.owner.type === 'brokers' ? contract.owner.id === organization.broker_id : contract.owner.id === organization.id);
    if (!contract || !ownOrBrokers) throw unknownRelated('contracts', 'contracts', entry.id, `${pointer}/id`);
    return contract;
  });
}

async function link(ctx: Ctx, organizationId: string, data: z.output<typeof identifiers>['data'], share: boolean): Promise<Response> {
  const organization = organizationOf(ctx, organizationId);
  if (ctx.principal) throw brokerOnly(share ? 'Sharing contracts with an organization' : 'Taking shared contracts from an organization');
  const contracts = contractsOf(ctx, organization, data);
  const own = contracts.findIndex((contract) => contract.owner.type === 'organizations');
  if (!share && own >= 0) {
    throw ApiError.unprocessable(
      "An organization's own contract is not shared with it and cannot be unlinked: delete it (DELETE /contracts/{id}) instead.",
      `/data/${own}/id`,
    );
  }
  await ctx.store.transact((tx) => {
    for (const { id } of contracts) {
      const contract = tx.get('contracts', id)!;
      if (contract.owner.type !== 'brokers') continue;
      if (share) shareContract(tx, contract, organization.id);
      else unshareContract(tx, contract, organization.id);
    }
  });
  return new Response(null, { status: 204 });
}

export const organizationContractEndpoints = [
  endpoint({
    method: 'get',
    path: '/organizations/{organization_id}/contracts',
    operationId: 'listOrganizationContracts',
    summary: "List an organization's contracts",
    description:
      "The contracts the organization can use, its own and those its broker shares with it. A client lists its own organization's only (another's id is 404); the admin token (SANDBOX_ADMIN_TOKEN), or no token on a sandbox without one, any organization's.",
    tag: 'Organizations',
    auth: { anyOf: ['organizations.manage'], admin: true },
    params,
    paginated: true,
    responses: { 200: { description: "The organization's contracts.", schema: schemas.list } },
    handler: (ctx, { params, page }) => {
      const organization = organizationOf(ctx, params.organization_id);
      const rows = ctx.store.all('contracts').filter((contract) => organizationCanUse(ctx.store, organization, contract));
      return jsonApi(collectionDocument(ctx, contractKind, rows, page, []));
    },
  }),
  ...(['post', 'delete'] as const).map((method) =>
    endpoint({
      method,
      path: '/organizations/{organization_id}/relationships/contracts',
      operationId: method === 'post' ? 'shareOrganizationContracts' : 'unshareOrganizationContracts',
      summary: method === 'post' ? 'Share broker contracts with an organization' : 'Stop sharing broker contracts with an organization',
      description:
        `${BROKER_ONLY} ` +
        (method === 'post'
          ? "The broker's contracts named in `data` become usable for the organization's shipments at once (its own contracts are linked already). "
          : "The broker's contracts named in `data` are no longer shared with the organization; shipments, collections and return methods that already use one keep it, and GET /contracts/{contract_id} still answers it while they do (it leaves the list). Its own contracts cannot be unlinked. ") +
        'Every contract is checked before anything changes: one of another broker or organization is 422 and nothing changes.',
      tag: 'Organizations',
      auth: { anyOf: [['contracts.manage', 'organizations.manage']], admin: true },
      params,
      body: identifiers,
      responses: {
        204: { description: method === 'post' ? 'Shared.' : 'No longer shared.' },
        403: { description: "A tenant's access token (10013).", schema: errorDocument },
        409: { description: 'An entry whose type is not `contracts` (10007).', schema: errorDocument },
        422: { description: 'A contract of another broker or organization, or (unlinking) an own contract (10008).', schema: errorDocument },
      },
      handler: (ctx, { params, body }) => link(ctx, params.organization_id, body.data, method === 'post'),
    }),
  ),
];
