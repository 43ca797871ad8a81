import type { ShipmentSurchargeRecord } from '../../model/shipment-surcharge.js';
import type { ShipmentRecord } from '../../model/shipment.js';
import type { Price } from '../../model/common.js';
import type { ReadView, Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import type { SurchargeLine } from './pricing.js';

/** The source of surcharges added by hand (POST /shipment-surcharges): kept when the price is computed again. */
export const MANUAL_SOURCE = 'manual';

/**
 * Makes a shipment's shipment-surcharges rows the surcharge lines of its freshly computed price,
 * in the transaction that stores the price, so the base rate plus the fees is always the price.
 * A line from the same source as an existing row keeps that row (its id and created_at) and
 * updates it only when it changed; rows whose source is gone are removed. Surcharges added by
 * hand stay and are added to the price (the shipment is answered with it); without a price, or
 * with a price in another currency than theirs, there are no surcharges.
 */
export function syncSurcharges<S extends Pick<ShipmentRecord, 'id' | 'organization_id' | 'price'>>(
  tx: Tx,
  shipment: S,
  lines: readonly SurchargeLine[],
  now: number,
): S {
  const rows = tx.find('shipmentSurcharges', 'shipment_id', shipment.id);
  const existing = new Map(rows.filter((row) => row.source !== MANUAL_SOURCE).map((row) => [row.source, row]));
  const currency = shipment.price?.currency;
  for (const line of currency === undefined ? [] : lines) {
    const fee = { amount: line.amount, currency: currency! };
    const row = existing.get(line.source);
    existing.delete(line.source);
    if (!row) {
      tx.insert('shipmentSurcharges', newRow(tx.newId(), shipment, line, fee, now));
    } else if (row.name !== line.name || row.description !== line.description || row.fee.amount !== fee.amount || row.fee.currency !== fee.currency) {
      tx.update('shipmentSurcharges', row.id, { name: line.name, description: line.description, fee, updated_at: now });
    }
  }
  for (const row of existing.values()) tx.remove('shipmentSurcharges', row.id);
  let added = 0;
  for (const row of rows.filter((row) => row.source === MANUAL_SOURCE)) {
    if (row.fee.currency === currency) added += row.fee.amount;
    else tx.remove('shipmentSurcharges', row.id);
  }
  if (added === 0 || !shipment.price) return shipment;
  return tx.update('shipments', shipment.id, { price: { amount: shipment.price.amount + added, currency: shipment.price.currency } }) as unknown as S;
}

/**
 * Surcharges added by hand stay on a price computed again (in its currency): a change that would
 * leave the price with them below zero, or past 2^53 - 1 cents, is refused before anything is stored.
 */
export function checkManualFees(store: ReadView, shipmentId: string, price: Price | undefined): void {
  if (!price) return;
  const added = store
    .find('shipmentSurcharges', 'shipment_id', shipmentId)
    .filter((row) => row.source === MANUAL_SOURCE && row.fee.currency === price.currency)
    .reduce((sum, row) => sum + row.fee.amount, 0);
  const amount = price.amount + added;
  if (added === 0 || (amount >= 0 && Number.isSafeInteger(amount))) return;
  throw DomainError.unprocessable(
    `The shipment's new price (${price.amount} cents) with its surcharges added by hand (${added} cents) would come to ${amount} cents, ` +
      `but a price is from 0 to ${Number.MAX_SAFE_INTEGER} cents: change those surcharges first.`,
  );
}

function newRow(
  id: string,
  shipment: Pick<ShipmentRecord, 'id' | 'organization_id'>,
  line: SurchargeLine,
  fee: ShipmentSurchargeRecord['fee'],
  now: number,
): ShipmentSurchargeRecord {
  const row: ShipmentSurchargeRecord = {
    id,
    shipment_id: shipment.id,
    organization_id: shipment.organization_id,
    source: line.source,
    name: line.name,
    fee,
    created_at: now,
    updated_at: now,
  };
  if (line.description !== undefined) row.description = line.description;
  return row;
}

/** Removes a shipment's surcharges, with the shipment. */
export function removeSurcharges(tx: Tx, shipmentId: string): void {
  for (const row of tx.find('shipmentSurcharges', 'shipment_id', shipmentId)) tx.remove('shipmentSurcharges', row.id);
}
