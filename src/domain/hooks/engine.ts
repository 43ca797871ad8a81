import { DomainError, type Problem } from '../errors.js';
import type { HookRecord } from '../../model/hook.js';
import type { ShipmentRecord, ShipmentStatusRecord } from '../../model/shipment.js';
import type { Acting, ResourceEvents, Rules } from '../rules.js';
import { automationFor } from './automation.js';
import type { Tx } from '../../store/store.js';
import { shipmentFields } from '../shipments/fields.js';
import { resolveDraft, type ResolvedShipment } from '../shipments/resolve.js';
import { syncSurcharges } from '../shipments/surcharges.js';
import { writeLog } from './logs.js';
import { hooksInOrder } from './order.js';
import { allHold } from './predicates.js';
import { diff, draftFromDocument, shipmentDocument, statusDocument } from './shipment-document.js';
import { applyUpdate } from './update-resource.js';
import { scheduleDeliveries } from './webhooks.js';
import { onReturnCreated } from './return-hooks.js';

const LANDED_COST_NOT_RUN =
  'calculate-landed-cost is not emulated: the sandbox changed nothing on the shipment (POST /calculate-landed-costs computes landed costs).';

/** Hooks act for the shipment's organization, seeing what its clients see. */
function actingFor(rules: Rules, shipment: ShipmentRecord): Acting {
  const organization = rules.store.get('organizations', shipment.organization_id);
  return { rules, principal: automationFor(shipment.organization_id, organization?.broker_id ?? '') };
}

/**
 * A collo (its master's price covers it) and a shipment tracked from elsewhere (nothing was bought
 * through the API; it starts registered, not as a concept) are made without a price or surcharges
 * of their own, so a hook's change on one keeps it that way rather than pricing it as a parcel.
 */
function withoutOwnPrice(shipment: ShipmentRecord, resolved: ResolvedShipment): ResolvedShipment {
  if (shipment.multi_colli_shipment_id === undefined && shipment.status_code === 'shipment-concept') return resolved;
  return { ...resolved, price: undefined, surcharges: [] };
}

/**
 * Runs one update-resource hook on a shipment. Its changes must leave a shipment that passes
 * the same checks as a client's update; if they do not, or any value cannot apply, the hook
 * changes nothing and its log says why.
 */
function updateShipment(
  tx: Tx,
  acting: Acting,
  hook: HookRecord,
  shipment: ShipmentRecord,
): { shipment: ShipmentRecord; diff: Record<string, unknown>; errors: string[] } {
  if (hook.action.action_type !== 'update-resource') return { shipment, diff: {}, errors: [] };
  const before = shipmentDocument(shipment);
  const { document, errors } = applyUpdate(acting, before, hook.action.values);
  const changes = diff(before, document);
  if (errors.length > 0 || Object.keys(changes).length === 0) return { shipment, diff: {}, errors };
  try {
    const draft = draftFromDocument(document, shipment);
    const resolved = withoutOwnPrice(shipment, resolveDraft(acting, draft));
    const updated = syncSurcharges(tx, tx.update('shipments', shipment.id, shipmentFields(draft, resolved)), resolved.surcharges, acting.rules.clock.now());
    return { shipment: updated, diff: diff(before, shipmentDocument(updated)), errors: [] };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const pointerOf = (problem: Problem) => (problem.field ? acting.rules.pointerOf(problem.field) : undefined);
    return { shipment, diff: {}, errors: error.problems.map((p) => `${p.detail}${pointerOf(p) !== undefined ? ` (${pointerOf(p)})` : ''}`) };
  }
}

/** The hooks on new shipments, one after another, each seeing what the earlier ones did. */
function onShipmentCreated(rules: Rules, tx: Tx, created: ShipmentRecord): ShipmentRecord {
  const acting = actingFor(rules, created);
  const at = rules.clock.now();
  let shipment = created;
  const scope = { shopId: created.shop_id, organizationId: created.organization_id };
  const resource = { type: 'shipments', id: created.id, shipmentId: created.id };
  // Webhooks are rendered once every hook has run: they send the shipment as it was created, as
  // POST /shipments answers it, not as it stood halfway (before a later hook set its service).
  const webhooks: HookRecord[] = [];
  for (const hook of hooksInOrder(tx, rules.store.seed, scope, 'shipments', created.id)) {
    if (!allHold(shipmentDocument(shipment), hook.trigger.predicates, rules.clock.now())) continue;
    if (hook.action.action_type === 'send-resource') {
      webhooks.push(hook);
      continue;
    }
    if (hook.action.action_type === 'calculate-landed-cost') {
      // Production's contract names the action but not what it changes on a shipment: the sandbox
      // keeps such a hook (a client that saves one gets it back) and logs, when it is triggered,
      // that it changed nothing, rather than guessing at a change production may not make.
      writeLog(tx, hook, { type: 'shipments', id: shipment.id, shipmentId: shipment.id }, { diff: {}, errors: [LANDED_COST_NOT_RUN], at });
      continue;
    }
    const result = updateShipment(tx, acting, hook, shipment);
    shipment = result.shipment;
    writeLog(tx, hook, { type: 'shipments', id: shipment.id, shipmentId: shipment.id }, { diff: result.diff, errors: result.errors, at });
  }
  for (const hook of webhooks) scheduleDeliveries(tx, acting, hook, resource);
  return shipment;
}

/** The hooks on new shipment statuses: webhooks, mostly. */
function onStatusCreated(rules: Rules, tx: Tx, shipment: ShipmentRecord, status: ShipmentStatusRecord): void {
  const acting = actingFor(rules, shipment);
  const document = statusDocument(status);
  const scope = { shopId: shipment.shop_id, organizationId: shipment.organization_id };
  for (const hook of hooksInOrder(tx, rules.store.seed, scope, 'shipment-statuses', status.id)) {
    if (!allHold(document, hook.trigger.predicates, rules.clock.now())) continue;
    const resource = { type: 'shipment-statuses', id: status.id, shipmentId: shipment.id };
    // Due when the status happened: a status that a move of the clock passed (the walk's, a queued
    // registration's) is sent at its moment, and its retries fall in the same move, as they would
    // have had the clock run.
    if (hook.action.action_type === 'send-resource') scheduleDeliveries(tx, acting, hook, resource, status.created_at * 1000);
    else writeLog(tx, hook, resource, { diff: {}, errors: [`${hook.action.action_type} does not apply to shipment statuses.`], at: status.created_at });
  }
}

/**
 * The hooks on a shipment-status that carrier statuses joined (production's `update` trigger on
 * shipment-statuses): due now, when they joined, with the status as it now reads.
 */
function onStatusUpdated(rules: Rules, tx: Tx, shipment: ShipmentRecord, status: ShipmentStatusRecord): void {
  const acting = actingFor(rules, shipment);
  const document = statusDocument(status);
  const scope = { shopId: shipment.shop_id, organizationId: shipment.organization_id };
  const resource = { type: 'shipment-statuses', id: status.id, shipmentId: shipment.id };
  // One status is updated again and again: each update is a delivery of its own, named by how many carrier statuses it holds.
  const occasion = `update-${status.carrier_statuses.length}`;
  for (const hook of hooksInOrder(tx, rules.store.seed, scope, 'shipment-statuses', status.id, 'update')) {
    if (!allHold(document, hook.trigger.predicates, rules.clock.now())) continue;
    if (hook.action.action_type === 'send-resource') scheduleDeliveries(tx, acting, hook, resource, undefined, occasion);
    else writeLog(tx, hook, resource, { diff: {}, errors: [`${hook.action.action_type} does not apply to shipment statuses.`], at: rules.clock.now() });
  }
}

/**
 * The hook engine, as the resource events the shipment life cycle raises. Hooks run on the clock
 * of the organization whose resource it is: their logs are dated and their webhooks due on it.
 */
export function hookEvents(rules: () => Rules): ResourceEvents {
  return {
    shipmentCreated: (tx, shipment) => onShipmentCreated(rules().forTenant(shipment.organization_id), tx, shipment),
    statusCreated: (tx, shipment, status) => onStatusCreated(rules().forTenant(shipment.organization_id), tx, shipment, status),
    statusUpdated: (tx, shipment, status) => onStatusUpdated(rules().forTenant(shipment.organization_id), tx, shipment, status),
    returnCreated: (tx, created) => onReturnCreated(rules().forTenant(created.organization_id), tx, created),
  };
}
