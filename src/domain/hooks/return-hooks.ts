import type { HookRecord } from '../../model/hook.js';
import type { ReturnRecord } from '../../model/returns/return.js';
import type { Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import type { Acting, Rules } from '../rules.js';
import { answeredItem, orderMeta, simpleAttributes } from '../returns/answered.js';
import { approveReturn, markDeadlinePassed, rejectReturn } from '../returns/decide.js';
import { requestPayment } from '../returns/payments.js';
import { automationFor } from './automation.js';
import { writeLog } from './logs.js';
import { hooksInOrder } from './order.js';
import { allHold } from './predicates.js';
import type { HookDocument } from './shipment-document.js';
import { scheduleDeliveries } from './webhooks.js';

/**
 * A return as hook predicates see it: what `GET /returns/v1/returns/{id}` answers (attributes with
 * the outcome flags and the reason texts in the return's language, relationships, meta), so a
 * predicate on `/attributes/has_preferred_outcome_refund` holds here as it does in production.
 */
function returnDocument(tx: Tx, row: ReturnRecord): HookDocument & { meta: Record<string, unknown> } {
  const link = (type: string, target: string | undefined) => ({ data: target ? { type, id: target } : null });
  const attributes = { ...simpleAttributes(row), items: row.items.map((item) => answeredItem(item, row.locale)) };
  return {
    type: 'returns',
    id: row.id,
    attributes: structuredClone(attributes) as Record<string, unknown>,
    relationships: {
      shop: link('shops', row.shop_id),
      return_method: link('return-methods', row.return_method_id),
      tags: link('return-tags', row.tag_ids[0]),
      status: link('statuses', row.status_id),
      shipment: link('shipments', row.shipment_id),
    },
    meta: orderMeta(tx, row),
  };
}

/** Runs one return action; what it changed goes into the log, or why it could not. */
function act(tx: Tx, acting: Acting, hook: HookRecord, row: ReturnRecord): { row: ReturnRecord; errors: string[] } {
  const { action } = hook;
  try {
    switch (action.action_type) {
      case 'approve-return':
        return { row: approveReturn(tx, acting, row), errors: [] };
      case 'reject-return':
        return { row: rejectReturn(tx, acting, row, action.values?.[0]?.message), errors: [] };
      case 'request-payment':
        return { row: requestPayment(tx, acting, row, action.values[0]!.price), errors: [] };
      case 'set-return-deadline-passed':
        return { row: markDeadlinePassed(tx, acting, row), errors: [] };
      default:
        return { row, errors: [`${action.action_type} does not apply to returns.`] };
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { row, errors: error.problems.map((problem) => problem.detail) };
  }
}

/**
 * The hooks on new returns, shop hooks first, each seeing what the earlier ones did: once one
 * decided (approved, rejected, deadline passed), later deciding hooks log why they could not.
 */
export function onReturnCreated(rules: Rules, tx: Tx, created: ReturnRecord): ReturnRecord {
  const organization = tx.get('organizations', created.organization_id);
  const acting: Acting = { rules, principal: automationFor(created.organization_id, organization?.broker_id ?? '') };
  const scope = { shopId: created.shop_id, organizationId: created.organization_id };
  let row = created;
  // Webhooks are rendered once every hook has run, so they send the return as its creation left
  // it (approved by a later hook, say), not as it stood when the send-resource hook's turn came.
  const webhooks: HookRecord[] = [];
  for (const hook of hooksInOrder(tx, rules.store.seed, scope, 'returns', created.id)) {
    if (!allHold(returnDocument(tx, row), hook.trigger.predicates, rules.clock.now())) continue;
    const resource = { type: 'returns', id: row.id, shipmentId: row.shipment_id ?? '' };
    if (hook.action.action_type === 'send-resource') {
      webhooks.push(hook);
      continue;
    }
    const before = row.status_code;
    const result = act(tx, acting, hook, row);
    row = result.row;
    const diff = row.status_code !== before ? { status: { from: before, to: row.status_code } } : {};
    writeLog(tx, hook, { ...resource, shipmentId: row.shipment_id ?? '' }, { diff, errors: result.errors, at: rules.clock.now() });
  }
  for (const hook of webhooks) scheduleDeliveries(tx, acting, hook, { type: 'returns', id: row.id, shipmentId: row.shipment_id ?? '' });
  return row;
}
