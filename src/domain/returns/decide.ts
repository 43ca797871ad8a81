import type { ReturnRecord, ReturnStatusCode } from '../../model/returns/return.js';
import type { Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import type { Acting } from '../rules.js';
import { createReturnShipment } from './shipment.js';
import { isOpen, statusRow } from './statuses.js';

/** Moves a return to a status (the row with its status id and `updated_at`). */
export function setStatus(tx: Tx, row: ReturnRecord, code: ReturnStatusCode, at: number, extra: Partial<ReturnRecord> = {}): ReturnRecord {
  return tx.update('returns', row.id, { ...extra, status_code: code, status_id: statusRow(tx, code).id, updated_at: at });
}

function mustBeOpen(row: ReturnRecord, action: string): void {
  if (!isOpen(row)) throw DomainError.unprocessable(`The return is ${row.status_code} and can no longer be ${action}.`);
}

/**
 * Approves an open return. A `shipment` method gets its return shipment now, registered on the
 * sandbox clock; store drop-off and self-shipment methods need none, even when they kept the
 * service and contract of a shipment method they once were (or were created with one).
 */
export function approveReturn(tx: Tx, acting: Acting, row: ReturnRecord): ReturnRecord {
  mustBeOpen(row, 'approved');
  const now = acting.rules.clock.now();
  const method = tx.get('returnMethods', row.return_method_id);
  if (!method) throw DomainError.unprocessable('The return method of this return no longer exists.');
  let extra: Partial<ReturnRecord> = { approved_at: now };
  if (method.return_type === 'shipment' && method.service_id && method.contract_id) {
    const shipment = createReturnShipment(tx, acting, row, method, { serviceId: method.service_id, contractId: method.contract_id });
    extra = {
      ...extra,
      shipment_id: shipment.id,
      registrations: [...row.registrations, { invocation: 'automatic', created_at: now, shipment_id: shipment.id }],
    };
  }
  return setStatus(tx, row, 'return-approved', now, extra);
}

/** Rejects an open return, with the shop's message to the consumer. */
export function rejectReturn(tx: Tx, acting: Acting, row: ReturnRecord, message?: string | null): ReturnRecord {
  mustBeOpen(row, 'rejected');
  return setStatus(tx, row, 'return-rejected', acting.rules.clock.now(), { rejection_message: message ?? undefined });
}

/** The return came after the shop's return period (a hook decides when that is). */
export function markDeadlinePassed(tx: Tx, acting: Acting, row: ReturnRecord): ReturnRecord {
  mustBeOpen(row, 'marked as too late');
  return setStatus(tx, row, 'return-deadline-passed', acting.rules.clock.now());
}
