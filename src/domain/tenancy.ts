import type { Principal } from '../model/tenancy.js';
import type { ContractRecord } from '../model/contract.js';
import type { ReadView } from '../store/store.js';

/**
 * Whether a caller may see a contract: its organization's own contracts and those its broker
 * shares. Without a token (public catalogue endpoints) only broker-shared contracts count.
 */
export function canSeeContract(principal: Principal | undefined, contract: ContractRecord): boolean {
  if (!principal) return contract.owner.type === 'brokers';
  return contract.owner.type === 'organizations'
    ? contract.owner.id === principal.organizationId
    : contract.owner.id === principal.brokerId;
}

/** Ids of services that have a rate on an active contract the caller can see. */
export function servicesWithActiveContract(store: ReadView, principal: Principal | undefined): Set<string> {
  const ids = new Set<string>();
  for (const contract of store.all('contracts')) {
    if (contract.status !== 'active' || !canSeeContract(principal, contract)) continue;
    for (const rate of store.find('serviceRates', 'contract_id', contract.id)) ids.add(rate.service_id);
  }
  return ids;
}
