import type { Price } from '../../model/common.js';
import type { ShipmentSurchargeRecord } from '../../model/shipment-surcharge.js';
import type { ShipmentRecord } from '../../model/shipment.js';
import type { Tx } from '../../store/store.js';
import { changesAny } from '../changes.js';
import { DomainError, type Field, missingRelated } from '../errors.js';
import type { Acting } from '../rules.js';
import { MANUAL_SOURCE } from './surcharges.js';

export interface ManualSurchargeInput {
  name?: string;
  /** `null` removes it. */
  description?: string | null;
  fee?: Price;
  /** The shipment the body names; on a change it must be the surcharge's own. */
  shipmentId?: string;
}

const SHIPMENT: Field = { relationship: 'shipment.id' };
const CURRENCY: Field = { attribute: 'fee.currency' };
const AMOUNT: Field = { attribute: 'fee.amount' };

/** The caller's shipment named in the body, or a 404 at the relationship (another tenant's shipment is unknown). */
function ownShipment(tx: Tx, acting: Acting, id: string): ShipmentRecord {
  const shipment = tx.get('shipments', id);
  if (!shipment || shipment.organization_id !== acting.principal?.organizationId) {
    throw missingRelated('shipment', 'shipments', id);
  }
  return shipment;
}

/**
 * A fee goes on top of the shipment's price: the shipment has one, in the fee's currency, and
 * the price with it (in place of the fee it replaces) stays an exact number of cents.
 */
function checkFee(shipment: ShipmentRecord, fee: Price, replaced = 0): void {
  if (!shipment.price) {
    throw DomainError.unprocessable('The shipment has no price (no service and contract yet), so nothing can be charged on top of it.', SHIPMENT);
  }
  if (fee.currency !== shipment.price.currency) {
    throw DomainError.unprocessable(`The fee must be in the currency of the shipment's price (${shipment.price.currency}).`, CURRENCY);
  }
  const amount = shipment.price.amount + fee.amount - replaced;
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw DomainError.unprocessable(
      `With this fee the shipment's price (${shipment.price.amount} cents) would become ${amount} cents: a price is from 0 to ${Number.MAX_SAFE_INTEGER} cents.`,
      AMOUNT,
    );
  }
}

/** Moves a shipment's price by `delta` (a fee added, changed or removed). */
function addToPrice(tx: Tx, shipment: ShipmentRecord, delta: number, now: number): void {
  if (delta === 0 || !shipment.price) return;
  tx.update('shipments', shipment.id, { price: { amount: shipment.price.amount + delta, currency: shipment.price.currency }, updated_at: now });
}

/** Only surcharges added by hand are changed by hand: the computed ones follow the price. */
function assertManual(row: ShipmentSurchargeRecord): void {
  if (row.source !== MANUAL_SOURCE) {
    throw DomainError.notAllowed('This surcharge is computed from the shipment (its rate, options or coverage); change the shipment instead.');
  }
}

/** Adds a surcharge by hand to one of the caller's priced shipments; its fee is added to the shipment's price. */
export function createManualSurcharge(
  tx: Tx,
  acting: Acting,
  input: Required<Pick<ManualSurchargeInput, 'name' | 'fee' | 'shipmentId'>> & ManualSurchargeInput,
): ShipmentSurchargeRecord {
  const shipment = ownShipment(tx, acting, input.shipmentId);
  checkFee(shipment, input.fee);
  const now = acting.rules.clock.now();
  const row: ShipmentSurchargeRecord = {
    id: tx.newId(),
    shipment_id: shipment.id,
    organization_id: shipment.organization_id,
    source: MANUAL_SOURCE,
    name: input.name,
    fee: input.fee,
    created_at: now,
    updated_at: now,
  };
  // An empty description is kept as sent, as an update keeps it: the create and the read back answer the same.
  if (input.description !== undefined && input.description !== null) row.description = input.description;
  addToPrice(tx, shipment, input.fee.amount, now);
  return tx.insert('shipmentSurcharges', row);
}

/** Changes a surcharge added by hand; the shipment's price follows its fee. It stays on its shipment. */
export function updateManualSurcharge(tx: Tx, acting: Acting, current: ShipmentSurchargeRecord, input: ManualSurchargeInput): ShipmentSurchargeRecord {
  assertManual(current);
  if (input.shipmentId !== undefined && input.shipmentId !== current.shipment_id) {
    ownShipment(tx, acting, input.shipmentId);
    throw DomainError.unprocessable('A surcharge stays on the shipment it was added to: remove it and add one to the other shipment.', SHIPMENT);
  }
  const shipment = tx.get('shipments', current.shipment_id)!;
  const now = acting.rules.clock.now();
  const changes: Partial<ShipmentSurchargeRecord> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description ?? undefined;
  if (input.fee !== undefined) {
    checkFee(shipment, input.fee, current.fee.amount);
    changes.fee = input.fee;
  }
  // An update that changes nothing (the surcharge sent back as read, or `attributes: {}`) leaves it,
  // and its shipment, as stored, updated_at included.
  if (!changesAny(current, changes)) return current;
  if (input.fee !== undefined && input.fee.amount !== current.fee.amount) addToPrice(tx, shipment, input.fee.amount - current.fee.amount, now);
  return tx.update('shipmentSurcharges', current.id, { ...changes, updated_at: now });
}

/** Removes a surcharge added by hand; its fee leaves the shipment's price. */
export function deleteManualSurcharge(tx: Tx, acting: Acting, current: ShipmentSurchargeRecord): void {
  assertManual(current);
  const shipment = tx.get('shipments', current.shipment_id);
  // A fee that other discounts lean on: without it the price would fall below zero.
  if (shipment?.price && shipment.price.amount - current.fee.amount < 0) {
    throw DomainError.unprocessable(
      `Without this fee the shipment's price (${shipment.price.amount} cents) would become ${shipment.price.amount - current.fee.amount} cents: lower the discounts added by hand first.`,
    );
  }
  if (shipment) addToPrice(tx, shipment, -current.fee.amount, acting.rules.clock.now());
  tx.remove('shipmentSurcharges', current.id);
}
