import type { CarrierSurchargeRecord } from '../model/carrier-surcharge.js';
import type { Price } from '../model/common.js';
import type { Tx } from '../store/store.js';
import { changesAny } from './changes.js';
import { DomainError, type Field } from './errors.js';
import type { Acting } from './rules.js';
import { canSeeContract } from './tenancy.js';
import { seesTenantRow } from './tenant-lifetime.js';

export interface CarrierSurchargeInput {
  name?: string;
  /** `null` removes it. */
  description?: string | null;
  fee?: Price;
  carrierId?: string;
}

const CARRIER: Field = { relationship: 'carrier.id' };

/** A carrier the organization has a contract with (its own or one its broker shares), or a 422 at the relationship. */
function checkCarrier(tx: Tx, acting: Acting, carrierId: string): void {
  const carrier = tx.get('carriers', carrierId);
  // A carrier a pack gave another tenant is unknown to this one (its name is not told).
  if (!carrier || !seesTenantRow(tx, acting.principal?.organizationId, carrier.organization_id))
    throw DomainError.unprocessable(`No carrier with id '${carrierId}' exists.`, CARRIER);
  const contracted = tx.find('contracts', 'carrier_id', carrierId).some((contract) => canSeeContract(tx, acting.principal, contract));
  if (!contracted) throw DomainError.unprocessable(`You have no contract with ${carrier.name}: surcharges are for the carriers of your contracts.`, CARRIER);
}

/** A new carrier surcharge of the caller's organization; shipments priced from now on carry it. */
export function createCarrierSurcharge(
  tx: Tx,
  acting: Acting,
  input: Required<Pick<CarrierSurchargeInput, 'name' | 'fee' | 'carrierId'>> & CarrierSurchargeInput,
): CarrierSurchargeRecord {
  const organizationId = acting.principal?.organizationId;
  if (!organizationId) throw DomainError.notAllowed('Carrier surcharges belong to an organization.');
  checkCarrier(tx, acting, input.carrierId);
  const now = acting.rules.clock.now();
  const row: CarrierSurchargeRecord = {
    id: tx.newId(),
    organization_id: organizationId,
    carrier_id: input.carrierId,
    name: input.name,
    fee: input.fee,
    created_at: now,
    updated_at: now,
  };
  // An empty description is kept as sent, as an update keeps it: the create and the read back answer the same.
  if (input.description !== undefined && input.description !== null) row.description = input.description;
  return tx.insert('carrierSurcharges', row);
}

/** Changes a carrier surcharge; shipments priced before keep what they were charged. */
export function updateCarrierSurcharge(tx: Tx, acting: Acting, current: CarrierSurchargeRecord, input: CarrierSurchargeInput): CarrierSurchargeRecord {
  if (input.carrierId !== undefined && input.carrierId !== current.carrier_id) checkCarrier(tx, acting, input.carrierId);
  const changes: Partial<CarrierSurchargeRecord> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.fee !== undefined) changes.fee = input.fee;
  if (input.carrierId !== undefined) changes.carrier_id = input.carrierId;
  if (input.description !== undefined) changes.description = input.description ?? undefined;
  // An update that changes nothing (the surcharge sent back as read, or `attributes: {}`) leaves it
  // as stored, updated_at included, as a save of an unchanged row does.
  if (!changesAny(current, changes)) return current;
  return tx.update('carrierSurcharges', current.id, { ...changes, updated_at: acting.rules.clock.now() });
}
