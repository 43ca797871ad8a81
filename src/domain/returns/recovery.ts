import type { ReturnRecord } from '../../model/returns/return.js';
import type { Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import type { Acting } from '../rules.js';
import { createReturnShipment, reregister } from './shipment.js';
import { checkSignature } from './signing.js';

/**
 * `retry-shipment`: a return shipment whose registration failed goes to the carrier again, with
 * the return's tags as they are now (remove a `sandbox:registration-failed` tag first).
 */
export function retryShipment(tx: Tx, acting: Acting, row: ReturnRecord): ReturnRecord {
  // A reissued return was replaced by a newer return of its order, which has its own shipment:
  // a label for the old one too would send the same items twice.
  if (row.status_code !== 'return-approved' && row.shipment_id !== undefined)
    throw DomainError.unprocessable(`The return is ${row.status_code}: only an approved return's shipment is sent again.`);
  const shipment = row.shipment_id ? tx.get('shipments', row.shipment_id) : undefined;
  if (!shipment || shipment.status_code !== 'shipment-registration-failed') {
    throw DomainError.unprocessable(
      shipment ? `The return shipment is ${shipment.status_code}: only a failed registration can be retried.` : 'The return has no return shipment to retry.',
    );
  }
  const now = acting.rules.clock.now();
  reregister(tx, acting, row, shipment);
  return tx.update('returns', row.id, {
    registrations: [...row.registrations, { invocation: 'manual', created_at: now, shipment_id: shipment.id }],
    updated_at: now,
  });
}

/** The message a recovery-shipment link signs. */
export const recoveryMessage = (returnId: string) => `recovery-shipment:${returnId}`;

/**
 * `request-recovery-shipment`: a consumer's signed link asks for a new return shipment with the
 * method's recovery service and contract (say the first label was lost). The return must be
 * approved and its method a `shipment` method with a recovery service.
 */
export function requestRecoveryShipment(tx: Tx, acting: Acting, row: ReturnRecord, hmac: string): ReturnRecord {
  checkSignature(recoveryMessage(row.id), hmac);
  if (row.status_code !== 'return-approved')
    throw DomainError.unprocessable(`The return is ${row.status_code}: only approved returns get a recovery shipment.`);
  const method = tx.get('returnMethods', row.return_method_id);
  // The consumer of a drop-off or self-shipment return had no label to lose: nothing to recover.
  if (method && method.return_type !== 'shipment')
    throw DomainError.unprocessable(`The return method is a ${method.return_type} method: its returns get no return shipment to recover.`);
  if (!method?.recovery_service_id || !method.recovery_contract_id) {
    throw DomainError.unprocessable('The return method has no recovery service and contract.');
  }
  const now = acting.rules.clock.now();
  const shipment = createReturnShipment(tx, acting, row, method, { serviceId: method.recovery_service_id, contractId: method.recovery_contract_id });
  return tx.update('returns', row.id, {
    shipment_id: shipment.id,
    registrations: [...row.registrations, { invocation: 'manual', created_at: now, shipment_id: shipment.id }],
    updated_at: now,
  });
}
