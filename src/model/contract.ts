import { z } from 'zod';
import { currency, price, timestamp } from './common.js';

export { currency };

export const contractStatuses = ['pending', 'active', 'inactive', 'invalid'] as const;
export type ContractStatus = (typeof contractStatuses)[number];

export const contractAttributes = z
  .object({
    name: z.string(),
    currency,
    status: z.enum(contractStatuses),
    volumetric_weight_divisor_factor: z.number().positive(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ContractAttributes' });

type OwnerRef = { type: 'brokers' | 'organizations'; id: string };

/** Credentials encrypted at rest (AES-GCM); never part of any response. */
export type SealedCredentials = { iv: string; tag: string; data: string };

export type ContractRecord = z.infer<typeof contractAttributes> & {
  id: string;
  carrier_id: string;
  owner: OwnerRef;
  credentials?: SealedCredentials;
  /** Why the last verification failed; shown in the resource's meta while the contract is invalid. */
  verification_errors?: string[];
  /**
   * Set while a contract the user had switched off (or switches off in the same PATCH) is pending
   * after new credentials: verification that passes leaves it `inactive`, not `active`.
   */
  keep_inactive?: true;
  /** The contract template it was made from (table `contractTemplates`). */
  contract_template_id?: string;
};

/**
 * A broker contract shared with one organization of that broker (table `contractShares`), a row
 * per pair rather than a list on the contract: sharing with one more tenant writes one small row
 * whatever the number of tenants, where rewriting a list grew with it.
 */
export type ContractShareRecord = { id: string; contract_id: string; organization_id: string };

/** The id of the share of a contract with an organization: one per pair. */
export const contractShareId = (contractId: string, organizationId: string): string => `${contractId}:${organizationId}`;

export const liabilityCoverageAttributes = z.object({ name: z.string(), price, coverage_max: price }).meta({ id: 'LiabilityCoverageAttributes' });

export type LiabilityCoverageRecord = z.infer<typeof liabilityCoverageAttributes> & {
  id: string;
  contract_id: string;
};
