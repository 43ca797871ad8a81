import type { Delivery, HookRecord } from '../../model/hook.js';
import type { Tx } from '../../store/store.js';

/** Writes the log of one hook run (or one delivery attempt) on a resource. */
export function writeLog(
  tx: Tx,
  hook: HookRecord,
  resource: { type: string; id: string; shipmentId: string },
  entry: { diff: Record<string, unknown>; errors: string[]; at: number; delivery?: Delivery },
): void {
  tx.insert('hookLogs', {
    id: tx.newId(),
    hook_id: hook.id,
    resource_type: resource.type,
    resource_id: resource.id,
    shipment_id: resource.shipmentId,
    organization_id: hook.organization_id,
    resource_diff: entry.diff,
    errors: entry.errors,
    created_at: entry.at,
    ...(entry.delivery ? { delivery: entry.delivery } : {}),
  });
}
