import { z } from 'zod';
import type { Ctx } from '../../http/context.js';
import { ApiError } from '../../jsonapi/errors.js';
import { relatedId, toManyRef, toOneRef } from '../../jsonapi/request.js';
import type { ContractRecord } from '../../model/contract.js';

/**
 * The relationships a PATCH of a contract may carry: production's request names them all, and
 * clients send a contract back as they read it. Members it does not name are ignored.
 */
export const contractUpdateRelationships = z
  .object({
    carrier: toOneRef.optional(),
    owner: toOneRef.optional(),
    contract_template: toOneRef.optional(),
    liability_coverages: toManyRef.optional(),
  })
  .catchall(z.unknown())
  .describe('Accepted as they are; none can change (another carrier, owner, template or set of coverages is 422).')
  .optional();

type Sent = z.output<typeof contractUpdateRelationships>;

const kept = (name: string, detail: string): ApiError => ApiError.unprocessable(detail, `/data/relationships/${name}/data/id`);

/**
 * Refuses a PATCH that would move a contract to another carrier, owner or template, or give it
 * other liability coverages: the sandbox cannot do that, and answering 200 while keeping the old
 * ones would tell the client a change was made that was dropped. The same ones sent back pass.
 */
export function checkKeptRelationships(ctx: Ctx, current: ContractRecord, sent: Sent): void {
  if (!sent) return;
  if (sent.carrier !== undefined && relatedId(sent.carrier, 'carrier', ['carriers']) !== current.carrier_id) {
    throw kept('carrier', `A contract stays with its carrier '${current.carrier_id}': add a new contract (POST /contracts) for another carrier.`);
  }
  if (sent.owner !== undefined) {
    const id = relatedId(sent.owner, 'owner', ['organizations', 'brokers']);
    if (sent.owner.data?.type !== current.owner.type || id !== current.owner.id) {
      throw kept('owner', `A contract stays with its owner, ${current.owner.type} '${current.owner.id}': \`owner\` can only be sent as it is.`);
    }
  }
  if (sent.contract_template !== undefined) {
    const id = relatedId(sent.contract_template, 'contract_template', ['contract-templates'], false);
    if (id !== current.contract_template_id) {
      throw kept(
        'contract_template',
        current.contract_template_id
          ? `The contract was made from template '${current.contract_template_id}', which cannot change: add a new contract for another template.`
          : 'The contract was made without a template, and one cannot be added later: add a new contract (POST /contracts) with `contract_template`.',
      );
    }
  }
  if (sent.liability_coverages !== undefined) {
    const held = new Set(ctx.store.find('liabilityCoverages', 'contract_id', current.id).map((row) => row.id));
    const entries = sent.liability_coverages.data;
    const ids = new Set(entries.map((entry) => entry.id));
    const same = ids.size === held.size && entries.every((entry) => entry.type === 'liability-coverages' && held.has(entry.id));
    if (!same) {
      throw ApiError.unprocessable(
        "A contract's liability coverages are offered by its broker and cannot be changed: send them as they are, or leave `liability_coverages` out.",
        '/data/relationships/liability_coverages',
      );
    }
  }
}
