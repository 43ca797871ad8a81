import { grams } from '../../model/returns/common.js';
import type { ReturnMethodRecord } from '../../model/returns/config.js';
import type { RegistrationAttempt, ReturnRecord } from '../../model/returns/return.js';
import type { ShipmentRecord, ShipmentStatusRecord } from '../../model/shipment.js';
import type { ReadView, Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import { assertRoom } from '../quotas.js';
import type { Acting } from '../rules.js';
import type { ShipmentDraft } from '../shipments/draft.js';
import { createShipment } from '../shipments/lifecycle.js';
import { REGISTER_SHIPMENT, scheduleRegistration } from '../shipments/registration.js';
import { resolveDraft } from '../shipments/resolve.js';
import { addStatus, REGISTERED_STATUSES } from '../shipments/statuses.js';
import { DEFAULT_RETURN_GRAMS } from './method-price.js';

/** The names of a return's tags: its shipment carries them, so sandbox trigger tags steer it. */
const tagNames = (store: ReadView, row: ReturnRecord): string[] =>
  row.tag_ids.flatMap((id) => {
    const tag = store.get('returnTags', id);
    return tag ? [tag.name] : [];
  });

/** What the parcel weighs: the method's default weight, else the items' weights, else 1 kg. */
function parcelGrams(row: ReturnRecord, method: ReturnMethodRecord): number {
  if (method.default_weight) return grams(method.default_weight);
  const items = row.items.reduce((sum, item) => sum + (item.item_weight ? grams(item.item_weight) * item.quantity : 0), 0);
  return items > 0 ? items : DEFAULT_RETURN_GRAMS;
}

/** The return as a shipment from the consumer to the return address, registered at once. */
function returnDraft(
  tx: Tx,
  acting: Acting,
  row: ReturnRecord,
  method: ReturnMethodRecord,
  carriage: { serviceId: string; contractId: string },
): ShipmentDraft {
  const { email: _email, ...consumer } = row.consumer_address;
  const international = consumer.country_code !== row.return_address.country_code;
  const origin = tx.get('shops', row.shop_id)?.sender_address?.country_code ?? row.return_address.country_code;
  return {
    attributes: {
      recipient_address: row.return_address,
      sender_address: row.consumer_address,
      return_address: consumer,
      physical_properties: { weight: parcelGrams(row, method) },
      description: `Return of order ${row.order_reference}`,
      customer_reference: row.order_reference,
      channel: 'returns',
      register_at: acting.rules.clock.now(),
      tags: tagNames(tx, row),
      ...(international
        ? {
            items: row.items.map((item) => ({
              sku: item.sku ?? undefined,
              description: (item.name ?? item.description).slice(0, 255),
              quantity: item.quantity,
              item_value: item.item_price,
              origin_country_code: origin,
              ...(item.item_weight ? { item_weight: grams(item.item_weight) } : {}),
            })),
            customs: {
              content_type: 'returned_merchandise' as const,
              invoice_number: row.order_reference,
              non_delivery: 'return' as const,
              incoterm: 'DAP' as const,
            },
          }
        : {}),
    },
    shopId: row.shop_id,
    serviceId: carriage.serviceId,
    contractId: carriage.contractId,
    options: method.service_option_ids.map((id) => ({ id })),
  };
}

/**
 * Creates the return shipment and queues its registration on the sandbox clock, as a client's
 * shipment with `register_at` now would be: registered (with a label) REGISTRATION_DELAY
 * seconds later, or failed (a `sandbox:registration-failed` tag on the return does that). It is
 * made by the shipment creation rule, as the caller's (or the automation's) client.
 */
export function createReturnShipment(
  tx: Tx,
  acting: Acting,
  row: ReturnRecord,
  method: ReturnMethodRecord,
  carriage: { serviceId: string; contractId: string },
): ShipmentRecord {
  // Checked before the draft too (createShipment checks it again), so a full quota is the answer
  // even when the method no longer makes a valid shipment.
  assertRoom(acting.rules, tx, row.organization_id, 'shipments');
  const draft = returnDraft(tx, acting, row, method, carriage);
  let resolved;
  try {
    resolved = resolveDraft(acting, draft);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const why = error.problems.map((problem) => problem.detail).join(' ');
    throw DomainError.unprocessable(`The return shipment cannot be made with return method '${method.title ?? method.id}': ${why}`);
  }
  return createShipment(tx, acting, draft, resolved);
}

/** Sends a return shipment whose registration failed to the carrier again, with the return's tags of now. */
export function reregister(tx: Tx, acting: Acting, row: ReturnRecord, shipment: ShipmentRecord): void {
  const now = acting.rules.clock.now();
  const tagged = tx.update('shipments', shipment.id, { tags: tagNames(tx, row), register_at: now, updated_at: now });
  const concept = addStatus(tx, acting.rules, tagged, { code: 'shipment-concept', at: now });
  scheduleRegistration(tx, acting.rules, concept);
}

export type Registration = { invocation: 'manual' | 'automatic'; status: 'pending' | 'success' | 'failed'; error?: string; created_at: number };

/** A registration's outcome on a shipment, and when the shipment was last sent to the carrier before it. */
interface Outcome {
  status: ShipmentStatusRecord;
  code: string;
  sentAt: number;
}

/**
 * A shipment's registration outcomes (its registered and failed statuses) in order, each dated by
 * the concept status before it: the moment the shipment went (back) to the carrier's queue.
 */
function outcomesOf(store: ReadView, shipmentId: string): Outcome[] {
  const outcomes: Outcome[] = [];
  let sentAt = 0;
  for (const status of store.find('shipmentStatuses', 'shipment_id', shipmentId)) {
    const code = store.get('statuses', status.status_id)?.code ?? '';
    if (code === 'shipment-concept') sentAt = status.created_at;
    else if (REGISTERED_STATUSES.has(code) || code === 'shipment-registration-failed') outcomes.push({ status, code, sentAt });
  }
  return outcomes;
}

function outcomeOf(outcome: Outcome): Pick<Registration, 'status' | 'error'> {
  // A letter's carrier takes it without tracking: registered all the same.
  if (REGISTERED_STATUSES.has(outcome.code)) return { status: 'success' };
  const detail = (outcome.status.errors[0] as { detail?: string } | undefined)?.detail;
  return { status: 'failed', ...(detail ? { error: detail } : {}) };
}

/**
 * Each attempt with its outcome, read from the shipment's status history: a shipment's n-th
 * registered or failed status is the outcome of its n-th attempt. By count, not by time: a client
 * that retries in the second its shipment failed made an attempt at the very second of the
 * failure before it, which a time window would give to the retry (and leave the first pending).
 *
 * A return shipment whose registration failed may also be fixed and sent again with
 * `PATCH /shipments/{id}`, as any shipment: the return records no attempt of that, so outcomes
 * beyond its recorded attempts (and a registration queued when none of those waits) are manual
 * attempts of their own. Without them the return said its registration failed, and
 * `retry-shipment` refused, while its shipment was registered with a label.
 */
export function registrationsOf(store: ReadView, row: ReturnRecord): Registration[] {
  const outcomes = new Map<string, Outcome[]>();
  const historyOf = (shipmentId: string) => {
    let found = outcomes.get(shipmentId);
    if (!found) outcomes.set(shipmentId, (found = outcomesOf(store, shipmentId)));
    return found;
  };
  const attempted = new Map<string, number>();
  const recorded = row.registrations.map(({ invocation, created_at, shipment_id }: RegistrationAttempt): Registration => {
    const index = attempted.get(shipment_id) ?? 0;
    attempted.set(shipment_id, index + 1);
    const outcome = historyOf(shipment_id)[index];
    return outcome ? { invocation, created_at, ...outcomeOf(outcome) } : { invocation, created_at, status: 'pending' };
  });
  const unrecorded: Registration[] = [];
  for (const [shipmentId, count] of attempted) {
    const history = historyOf(shipmentId);
    for (const outcome of history.slice(count)) unrecorded.push({ invocation: 'manual', created_at: outcome.sentAt, ...outcomeOf(outcome) });
    const shipment = store.get('shipments', shipmentId);
    const queued = store.find('jobs', 'subject', shipmentId).some((job) => job.kind === REGISTER_SHIPMENT);
    if (shipment && queued && count <= history.length) {
      const since = store.find('shipmentStatuses', 'shipment_id', shipmentId).at(-1)?.created_at ?? shipment.updated_at;
      unrecorded.push({ invocation: 'manual', created_at: since, status: 'pending' });
    }
  }
  // In the order they were made (stable: recorded attempts keep theirs, an unrecorded one of the same second follows them).
  return [...recorded, ...unrecorded].sort((a, b) => a.created_at - b.created_at);
}

/**
 * 423 for a shipment a return was sent with (its return shipment, or one of its earlier attempts):
 * the return reads its registrations from the shipment's statuses, and a failed one is sent again
 * with `retry-shipment`, so deleting it would leave the return naming a shipment that is gone,
 * its failure reported as pending and nothing to retry.
 */
export function assertNotReturnShipment(store: ReadView, shipment: ShipmentRecord): void {
  const sentWith =
    store.find('returns', 'shipment_id', shipment.id)[0] ??
    store.find('returns', 'organization_id', shipment.organization_id).find((row) => row.registrations.some((attempt) => attempt.shipment_id === shipment.id));
  if (!sentWith) return;
  throw DomainError.locked(
    `The shipment is the return shipment of return '${sentWith.id}' and cannot be deleted: a failed registration is sent again with POST /returns/v1/returns/${sentWith.id}/retry-shipment.`,
  );
}
