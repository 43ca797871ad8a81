import type { ContractRecord } from '../model/contract.js';
import type { ReadView, Tx } from '../store/store.js';
import { forgetTenantClock } from '../store/tenant-clocks.js';
import { DomainError } from './errors.js';
import { removeContract, removeHook, removeShop } from './removals.js';
import { sharedWith } from './tenancy.js';

/*
 * An organization's own life: sharing its broker's contracts with it, and removing it with
 * everything that is its alone.
 */

/** The organizations a broker contract is shared with, spelled out (a contract without a list is shared with all of them). */
function shareList(store: ReadView, contract: ContractRecord): string[] {
  return contract.shared_with ?? store.find('organizations', 'broker_id', contract.owner.id).map((row) => row.id);
}

/** Shares a broker contract with an organization of that broker; sharing it again changes nothing. */
export function shareContract(tx: Tx, contract: ContractRecord, organizationId: string): void {
  if (sharedWith(contract, organizationId) && contract.shared_with !== undefined) return;
  const list = shareList(tx, contract);
  tx.update('contracts', contract.id, { shared_with: list.includes(organizationId) ? list : [...list, organizationId] });
}

/** Stops sharing a broker contract with an organization; shipments that already use it keep it. */
export function unshareContract(tx: Tx, contract: ContractRecord, organizationId: string): void {
  if (!sharedWith(contract, organizationId)) return;
  tx.update('contracts', contract.id, { shared_with: shareList(tx, contract).filter((id) => id !== organizationId) });
}

/** How many shipments an organization has: while it has any, it stays (they are its records). */
export function shipmentsOfOrganization(store: ReadView, organizationId: string): number {
  return store.find('shipments', 'organization_id', organizationId).length;
}

/**
 * Removes an organization without shipments, with its shops (their logos, hooks and collections),
 * hooks, own contracts (with their rates and coverages), address book, zones, logo, users and
 * their clients (whose tokens stop working) and their idempotency entries, and its own sandbox
 * clock; its broker's contracts are no longer shared with it. Throws `unprocessable` while it has shipments.
 */
export function removeOrganization(tx: Tx, organizationId: string, now: number): void {
  const organization = tx.get('organizations', organizationId);
  if (!organization) return;
  const shipments = shipmentsOfOrganization(tx, organizationId);
  if (shipments > 0) {
    throw DomainError.unprocessable(
      `Organization '${organizationId}' has ${shipments} shipment${shipments === 1 ? '' : 's'} and cannot be deleted: shipments are kept with their organization. ` +
        'Delete its concept shipments first; an organization with registered shipments stays.',
    );
  }
  for (const shop of tx.find('shops', 'organization_id', organizationId)) removeShop(tx, shop.id, now);
  for (const hook of tx.find('hooks', 'organization_id', organizationId)) removeHook(tx, hook.id);
  for (const contract of tx.all('contracts')) {
    if (contract.owner.type === 'organizations' && contract.owner.id === organizationId) removeContract(tx, contract.id);
    else if (contract.owner.id === organization.broker_id) unshareContract(tx, contract, organizationId);
  }
  for (const row of tx.find('addresses', 'organization_id', organizationId)) tx.remove('addresses', row.id);
  for (const row of tx.find('zones', 'organization_id', organizationId)) tx.remove('zones', row.id);
  if (organization.logo_id) tx.remove('logos', organization.logo_id);
  for (const user of tx.find('users', 'organization_id', organizationId)) {
    for (const client of tx.find('clients', 'user_id', user.id)) {
      for (const entry of tx.all('idempotencyKeys')) if (entry.client_id === client.id) tx.remove('idempotencyKeys', entry.id);
      tx.remove('clients', client.id);
    }
    tx.remove('users', user.id);
  }
  // Its own sandbox clock goes with it.
  forgetTenantClock(tx, organizationId);
  tx.remove('organizations', organizationId);
}
