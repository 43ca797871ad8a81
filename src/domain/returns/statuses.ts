import type { ReturnRecord, ReturnStatusCode } from '../../model/returns/return.js';
import { returnStatusDefs } from '../../model/returns/statuses.js';
import type { StatusRecord } from '../../model/status.js';
import type { Tx } from '../../store/store.js';

/** Statuses in which the shop has not decided yet. */
const OPEN: ReadonlySet<ReturnStatusCode> = new Set(['return-pending', 'return-payment-pending', 'return-payment-failed']);

/** Whether the shop has yet to decide on a return (approve, reject, ask a payment). */
export const isOpen = (row: ReturnRecord): boolean => OPEN.has(row.status_code);

/**
 * The status row of a return or report code. Data files written before returns existed lack
 * these rows: the first use adds every one of them (ids from the transaction, so still
 * deterministic), rather than failing.
 */
export function statusRow(tx: Tx, code: string): StatusRecord {
  const found = tx.find('statuses', 'code', code)[0];
  if (found) return found;
  for (const def of returnStatusDefs) {
    if (tx.find('statuses', 'code', def.code).length === 0) tx.insert('statuses', { id: tx.newId(), ...def });
  }
  const added = tx.find('statuses', 'code', code)[0];
  if (!added) throw new Error(`status '${code}' is not a return or report status`);
  return added;
}
