import { forgetOverrides } from './quotas.js';
import { contractShareId, type ContractRecord } from '../model/contract.js';
import type { ReadView, Tx } from '../store/store.js';
import { brokerTables } from '../store/tables.js';
import { DomainError } from './errors.js';
import { Removal, clientsOfOrganization, type OrganizationRemoval } from './removals.js';
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
  assertWithoutShipments(tx, organizationId);
  return purgeOrganization(tx, organizationId);
}

/** Throws `unprocessable` while the organization has shipments: they are its records, and keep it. */
export function assertWithoutShipments(store: ReadView, organizationId: string): void {
  const shipments = shipmentsOfOrganization(store, organizationId);
  if (shipments > 0) {
    throw DomainError.unprocessable(
      `Organization '${organizationId}' has ${shipments} shipment${shipments === 1 ? '' : 's'} and cannot be deleted: shipments are kept with their organization. ` +
        'Delete its concept shipments first; an organization with registered shipments stays.',
    );
  }
}

/**
 * Removes an organization and everything that is its alone, shipments included: its rows of every
 * table (what `clearOrganization` removes, and its set-up: shops, users and clients, whose tokens
 * stop working, the shares of its broker's contracts, its clock, the settings named after it, the
 * carriers and services a pack made for it), its logo and quota overrides, and the jobs about any
 * of it. `undefined` when there is no such organization.
 */
export function purgeOrganization(tx: Tx, organizationId: string): OrganizationRemoval | undefined {
  const organization = tx.get('organizations', organizationId);
  if (!organization) return undefined;
  const clientIds = clientsOfOrganization(tx, organizationId);
  const removal = new Removal(tx);
  // Every row of every table that is the organization's, by the tables' declarations.
  removal.dropTenant(organizationId, () => true);
  // Its own logo names it in `shop_id`, not as a shop's: it goes by the organization's `logo_id`.
  if (organization.logo_id) removal.drop('logos', [organization.logo_id]);
  // Its quota overrides are an entry of the one quota setting.
  forgetOverrides(tx, organizationId);
  removal.dropJobs();
  return { organizationId, clientIds, removed: removal.removed };
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

/**
 * Removes brokers a pack made for a tenant, with their contracts (and those contracts' rates,
 * coverages and shares) and the rows of every table declared as a broker's (store/tables.ts:
 * contract templates, ...). Their organizations are gone already.
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
    for (const { table, key } of brokerTables) removal.drop(table, ids(tx.find(table, key as never, brokerId)));
    if (broker.logo_id) removal.drop('logos', [broker.logo_id]);
    removal.drop('brokers', [brokerId]);
  }
  return removal.removed;
}
