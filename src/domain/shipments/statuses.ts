import type { CarrierStatus, ShipmentRecord, ShipmentStatusRecord } from '../../model/shipment.js';
import type { StatusRecord } from '../../model/status.js';
import type { Rules } from '../rules.js';
import type { ReadView, Tx } from '../../store/store.js';

/** The `statuses` row of a code; the catalogue is fixture data, so a missing code is a bug. */
export function statusByCode(store: ReadView, code: string): StatusRecord {
  const status = store.find('statuses', 'code', code)[0];
  if (!status) throw new Error(`status '${code}' is missing from the catalogue`);
  return status;
}

/** The statuses a registration ends in when the carrier takes the shipment: tracked, or (a letter) not. */
export const REGISTERED_STATUSES: ReadonlySet<string> = new Set(['shipment-registered', 'shipment-created-without-tracking']);

/** Statuses after which a shipment is with the carrier and can no longer be edited or deleted. */
export const EDITABLE_STATUSES = new Set(['shipment-concept', 'shipment-registration-failed']);

export interface NewStatus {
  code: string;
  /** Unix seconds the status applies from. */
  at: number;
  carrier?: { code: string; description: string; category?: string };
  /** The carrier statuses as a client gave them (POST /update-shipment-status); they replace `carrier`. */
  carrierStatuses?: CarrierStatus[];
  errors?: Record<string, unknown>[];
}

/** The history row of `next` for a shipment (with a new id), and the catalogue status it is of; not yet inserted. */
export function statusRowFor(
  tx: Tx,
  shipment: Pick<ShipmentRecord, 'id' | 'tracking_code'>,
  next: NewStatus,
): { row: ShipmentStatusRecord; status: StatusRecord } {
  const status = statusByCode(tx, next.code);
  const row: ShipmentStatusRecord = {
    id: tx.newId(),
    shipment_id: shipment.id,
    status_id: status.id,
    carrier_statuses: next.carrierStatuses
      ? next.carrierStatuses.map((carrier) => ({
          ...(shipment.tracking_code ? { tracking_code: shipment.tracking_code } : {}),
          ...carrier,
          category: carrier.category ?? 'default',
        }))
      : next.carrier
        ? [
            {
              code: next.carrier.code,
              description: next.carrier.description,
              category: next.carrier.category ?? 'default',
              assigned_at: next.at,
              ...(shipment.tracking_code ? { tracking_code: shipment.tracking_code } : {}),
            },
          ]
        : [],
    errors: next.errors ?? [],
    created_at: next.at,
  };
  return { row, status };
}

/**
 * Appends a status to a shipment's history and makes it current. Carrier statuses also move
 * `synced_at`, the last time the sandbox "heard from" the carrier.
 */
export function addStatus(tx: Tx, rules: Rules, shipment: ShipmentRecord, next: NewStatus): ShipmentRecord {
  const { row, status } = statusRowFor(tx, shipment, next);
  tx.insert('shipmentStatuses', row);
  const updated = tx.update('shipments', shipment.id, {
    shipment_status_id: row.id,
    status_code: status.code,
    updated_at: Math.max(shipment.updated_at, next.at),
    ...(next.carrier || next.carrierStatuses ? { synced_at: next.at } : {}),
  });
  rules.events?.statusCreated(tx, updated, row);
  return updated;
}
