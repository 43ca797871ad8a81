import type { Ctx, Kind } from '../../http/context.js';
import { linkTo } from '../../jsonapi/resource.js';
import { contractAttributes, liabilityCoverageAttributes, type ContractRecord, type LiabilityCoverageRecord } from '../../model/contract.js';
import { contractUsage } from '../../domain/removals.js';
import { canSeeContract } from '../../domain/tenancy.js';

/** Whether the caller of `ctx` may see the contract. */
export const contractVisible = (ctx: Ctx, row: ContractRecord): boolean => canSeeContract(ctx.store, ctx.principal, row);

/**
 * Whether the caller may read the contract by id: one it can use, or a broker's contract no longer
 * shared with it that its shipments, collections or return methods still name (they keep it), so
 * their `contract` link answers what their include shows. It stays out of the list and unusable.
 */
export function contractReadable(ctx: Ctx, row: ContractRecord): boolean {
  if (contractVisible(ctx, row)) return true;
  const organizationId = ctx.principal?.organizationId;
  if (organizationId === undefined || row.owner.type !== 'brokers') return false;
  return Object.values(contractUsage(ctx.store, row, organizationId)).some((count) => count > 0);
}

export const contractKind: Kind<ContractRecord> = {
  type: 'contracts',
  attributesSchema: contractAttributes,
  attributes: (row) => ({
    name: row.name,
    currency: row.currency,
    status: row.status,
    volumetric_weight_divisor_factor: row.volumetric_weight_divisor_factor,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }),
  relationships: {
    carrier: { targets: ['carriers'], data: (row) => linkTo('carriers', row.carrier_id) },
    owner: { targets: ['organizations', 'brokers'], data: (row) => ({ type: row.owner.type, id: row.owner.id }) },
    liability_coverages: {
      targets: ['liability-coverages'],
      many: true,
      data: (row, ctx) => ctx.store.find('liabilityCoverages', 'contract_id', row.id).map((c) => ({ type: 'liability-coverages', id: c.id })),
    },
    contract_template: {
      targets: ['contract-templates'],
      optional: true,
      data: (row) => linkTo('contract-templates', row.contract_template_id),
      related: (row) => (row.contract_template_id ? `/contracts/v1/templates/${row.contract_template_id}` : undefined),
    },
  },
  self: (row) => `/contracts/${row.id}`,
  meta: (row) => (row.status === 'invalid' && row.verification_errors?.length ? { verification_errors: row.verification_errors } : undefined),
  load: (ctx, id) => ctx.store.get('contracts', id),
};

export const liabilityCoverageKind: Kind<LiabilityCoverageRecord> = {
  type: 'liability-coverages',
  attributesSchema: liabilityCoverageAttributes,
  attributes: ({ name, price, coverage_max }) => ({ name, price, coverage_max }),
  relationships: {
    contract: { targets: ['contracts'], data: (row) => linkTo('contracts', row.contract_id) },
  },
  self: (row) => `/liability-coverages/${row.id}`,
  load: (ctx, id) => ctx.store.get('liabilityCoverages', id),
};
