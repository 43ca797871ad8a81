import { forgetOverrides } from './quotas.js';
import { contractShareId, type ContractRecord } from '../model/contract.js';
import type { ReadView, Tx } from '../store/store.js';
import { DomainError } from './errors.js';
import { Removal, clearOrganization, clientsOfOrganization, type OrganizationRemoval } from './removals.js';
import { sharedWith } from './tenancy.js';

/*
 * An organization's own life: sharing its broker's contracts with it, and removing it with
 * everything that is its alone.
 */

/** Shares a broker contract with an organization of that broker; sharing it again changes nothing. */
export function shareContract(tx: Tx, contract: ContractRecord, organizationId: string): void {
  if (contract.owner.type !== 'brokers' || sharedWith(tx, contract, organizationId)) return;
  tx.insert('contractShares', { id: contractShareId(contract.id, organizationId), contract_id: contract.id, organization_id: organizationId });
}

/** Stops sharing a broker contract with an organization; shipments that already use it keep it. */
export function unshareContract(tx: Tx, contract: ContractRecord, organizationId: string): void {
  if (sharedWith(tx, contract, organizationId)) tx.remove('contractShares', contractShareId(contract.id, organizationId));
}

/** How many shipments an organization has: while it has any, it stays (they are its records). */
function shipmentsOfOrganization(store: ReadView, organizationId: string): number {
  return store.find('shipments', 'organization_id', organizationId).length;
}

/**
 * Removes an organization without shipments, with everything that is its alone (see
 * `purgeOrganization`): its clients' tokens stop working. Throws `unprocessable` while it has
 * shipments.
 */
export function removeOrganization(tx: Tx, organizationId: string): OrganizationRemoval | undefined {
  if (!tx.get('organizations', organizationId)) return undefined;
  const shipments = shipmentsOfOrganization(tx, organizationId);
  if (shipments > 0) {
    throw DomainError.unprocessable(
      `Organization '${organizationId}' has ${shipments} shipment${shipments === 1 ? '' : 's'} and cannot be deleted: shipments are kept with their organization. ` +
        'Delete its concept shipments first; an organization with registered shipments stays.',
    );
  }
  return purgeOrganization(tx, organizationId);
}

/**
 * Removes an organization and everything that is its alone, shipments included: what
 * `clearOrganization` removes, then its shops, its logo, its users and their clients (whose tokens
 * stop working), the settings named after it (`tenant:<id>`, ...) and the jobs about any of it; its
 * broker's contracts are no longer shared with it. `undefined` when there is no such organization.
 */
export function purgeOrganization(tx: Tx, organizationId: string): OrganizationRemoval | undefined {
  const organization = tx.get('organizations', organizationId);
  if (!organization) return undefined;
  const removal = new Removal(tx);
  clearOrganization(removal, organizationId);
  removal.drop('shops', ids(tx.find('shops', 'organization_id', organizationId)));
  if (organization.logo_id) removal.drop('logos', [organization.logo_id]);
  removal.drop('contractShares', ids(tx.find('contractShares', 'organization_id', organizationId)));
  const clientIds = clientsOfOrganization(tx, organizationId);
  removal.drop('clients', clientIds);
  removal.drop('users', ids(tx.find('users', 'organization_id', organizationId)));
  // Settings are named `<what>:<organization id>` when they belong to one organization.
  removal.drop('settings', ids(tx.all('settings').filter((row) => row.id.split(':').includes(organizationId))));
  // Its own sandbox clock and its quota overrides go with it.
  forgetOverrides(tx, organizationId);
  removal.drop('tenantClocks', [organizationId]);
  // The carriers and services a pack made for it (only it sees them).
  removal.drop('services', ids(tx.all('services').filter((row) => row.organization_id === organizationId)));
  removal.drop('carriers', ids(tx.all('carriers').filter((row) => row.organization_id === organizationId)));
  removal.drop('organizations', [organizationId]);
  removal.dropJobs();
  return { organizationId, clientIds, removed: removal.removed };
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

/**
 * Removes brokers a pack made for a tenant, with their contracts (and those contracts' rates,
 * coverages and shares) and contract templates. Their organizations are gone already.
 */
export function purgeBrokers(tx: Tx, brokerIds: readonly string[]): Record<string, number> {
  const removal = new Removal(tx);
  for (const brokerId of brokerIds) {
    const broker = tx.get('brokers', brokerId);
    if (!broker) continue;
    const contracts = tx.all('contracts').filter((row) => row.owner.type === 'brokers' && row.owner.id === brokerId);
    for (const contract of contracts) {
      removal.drop('serviceRates', ids(tx.find('serviceRates', 'contract_id', contract.id)));
      removal.drop('liabilityCoverages', ids(tx.find('liabilityCoverages', 'contract_id', contract.id)));
      removal.drop('contractShares', ids(tx.find('contractShares', 'contract_id', contract.id)));
    }
    removal.drop('contracts', ids(contracts));
    removal.drop('contractTemplates', ids(tx.find('contractTemplates', 'broker_id', brokerId)));
    if (broker.logo_id) removal.drop('logos', [broker.logo_id]);
    removal.drop('brokers', [brokerId]);
  }
  return removal.removed;
}
