import { z } from 'zod';
import { verifyNow } from '../../domain/contract-verification.js';
import { contractUsage, removeContract } from '../../domain/removals.js';
import type { Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { plainJson } from '../../http/respond.js';
import { ApiError } from '../../jsonapi/errors.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import type { ContractRecord } from '../../model/contract.js';
import { contractVisible } from './contract-kind.js';
import { findOr404 } from '../lookup.js';

/** DELETE and validate of a contract: what a client does with one of its own contracts besides changing it. */

const manage = { anyOf: ['organizations.manage'] } as const;
const params = z.object({ contract_id: z.string() });

/** Production's answer to a validation: plain JSON, not a JSON:API resource. */
const validation = z
  .strictObject({
    data: z.strictObject({
      valid: z.boolean(),
      message: z.string().optional().describe('Why the credentials are not valid; left out when they are.'),
    }),
  })
  .meta({ id: 'ContractValidation' });

/**
 * The caller's own contract, or 404 (unknown, another tenant's) or 403 (shared by the broker:
 * the broker set it up, so only the broker may remove or re-verify it).
 */
function ownContract(ctx: Ctx, id: string, action: string): ContractRecord {
  const contract = findOr404(ctx, 'contracts', 'contracts', id, (row) => contractVisible(ctx, row));
  if (contract.owner.type !== 'organizations') {
    throw ApiError.of('actionNotAllowed', `This contract is shared by your broker and cannot be ${action}.`);
  }
  return contract;
}

export const contractActionEndpoints = [
  endpoint({
    method: 'delete',
    path: '/contracts/{contract_id}',
    operationId: 'deleteContract',
    summary: 'Delete a contract',
    description:
      'Only an own contract that no shipment, collection, collection schedule or return method uses can be deleted; to stop using one that is in use, switch it to `inactive` (PATCH). ' +
      'Its service rates and liability coverages go with it. Contracts your broker shares answer 403.',
    tag: 'Contracts',
    auth: manage,
    params,
    responses: {
      204: { description: 'Deleted, with its service rates and liability coverages.' },
      403: { description: 'The contract is shared by your broker (10013).', schema: errorDocument },
      422: { description: 'Shipments, collections, collection schedules or return methods use the contract (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params: path }) => {
      const contract = ownContract(ctx, path.contract_id, 'deleted');
      await ctx.store.transact((tx) => {
        // Checked inside the transaction, so a shipment made meanwhile cannot lose its contract.
        const usage = contractUsage(tx, contract);
        const counted = (count: number, noun: string) => (count > 0 ? `${count} ${noun}${count === 1 ? '' : 's'}` : '');
        const uses = [
          counted(usage.shipments, 'shipment'),
          counted(usage.collections, 'collection'),
          counted(usage.schedules, 'collection schedule'),
          counted(usage.returnMethods, 'return method'),
          // A deleted method is no longer listed: say why it still counts.
          usage.deletedReturnMethods > 0 ? `${counted(usage.deletedReturnMethods, 'deleted return method')} kept by the returns made with it` : '',
        ]
          .filter(Boolean)
          .join(' and ');
        if (uses !== '') {
          throw ApiError.unprocessable(
            `Contract '${contract.id}' is used by ${uses} and cannot be deleted. Switch it to inactive (PATCH status) to stop using it for new shipments.`,
          );
        }
        removeContract(tx, contract.id);
      });
      return new Response(null, { status: 204 });
    },
  }),
  endpoint({
    method: 'post',
    path: '/contracts/{contract_id}/validate',
    operationId: 'validateContract',
    summary: 'Verify the credentials of a contract now',
    description:
      "Checks the stored credentials against the carrier's credentials_format at once (a credentials value `invalid` fails, as in verification) instead of after " +
      'CONTRACT_VERIFICATION_DELAY, and sets the status as verification does: `invalid` when they fail; `active` when they pass, except that an `inactive` contract stays inactive. ' +
      'A verification still scheduled is dropped. No body is needed. Contracts your broker shares answer 403.',
    tag: 'Contracts',
    auth: { anyOf: [['broker.member', 'organizations.manage']] },
    params,
    produces: ['application/json'],
    responses: {
      200: { description: 'Whether the credentials are valid; `message` says why not.', schema: validation, contentTypes: ['application/json'] },
      403: { description: 'The contract is shared by your broker (10013).', schema: errorDocument },
    },
    handler: async (ctx, { params: path }) => {
      const contract = ownContract(ctx, path.contract_id, 'validated by you');
      const problems = await ctx.store.transact((tx) => verifyNow(tx, ctx.rules, contract.id));
      return plainJson({ data: problems.length === 0 ? { valid: true } : { valid: false, message: problems.join(' ') } });
    },
  }),
];
