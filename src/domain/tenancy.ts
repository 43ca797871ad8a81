import type { BrokerRecord, Principal } from '../model/tenancy.js';
import { contractShareId, type ContractRecord } from '../model/contract.js';
import type { ReadView } from '../store/store.js';

/** Whether a broker contract is shared with an organization of that broker (a `contractShares` row). */
export function sharedWith(store: ReadView, contract: ContractRecord, organizationId: string): boolean {
  return contract.owner.type === 'brokers' && store.get('contractShares', contractShareId(contract.id, organizationId)) !== undefined;
}

/**
 * Whether a caller may see a contract: its organization's own contracts and those its broker
 * shares with it. Without a token (public catalogue endpoints) only broker contracts count.
 */
export function canSeeContract(store: ReadView, principal: Principal | undefined, contract: ContractRecord): boolean {
  if (!principal) return contract.owner.type === 'brokers';
  return organizationCanUse(store, { id: principal.organizationId, broker_id: principal.brokerId }, contract);
}

/** Whether an organization (of `brokerId`) can use a contract: its own, or one its broker shares with it. */
export function organizationCanUse(store: ReadView, organization: { id: string; broker_id: string }, contract: ContractRecord): boolean {
  return contract.owner.type === 'organizations'
    ? contract.owner.id === organization.id
    : contract.owner.id === organization.broker_id && sharedWith(store, contract, organization.id);
}

/** Ids of services that have a rate on an active contract the caller can see. */
export function servicesWithActiveContract(store: ReadView, principal: Principal | undefined): Set<string> {
  const ids = new Set<string>();
  for (const contract of store.all('contracts')) {
    if (contract.status !== 'active' || !canSeeContract(store, principal, contract)) continue;
    for (const rate of store.find('serviceRates', 'contract_id', contract.id)) ids.add(rate.service_id);
  }
  return ids;
}

/** The carriers a broker offers its organizations: those it names, or every carrier when it names none. */
export function brokerCarrierIds(store: ReadView, broker: BrokerRecord): string[] {
  return broker.carrier_ids ?? store.all('carriers').map((row) => row.id);
}
