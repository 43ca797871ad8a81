import type { ShipmentRecord } from '../../model/shipment.js';
import type { Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import type { Acting, Rules } from '../rules.js';
import type { ShipmentDraft } from './draft.js';
import { createShipment } from './lifecycle.js';
import { carrierMeta, filesQuotaProblem, refusal, registerShipment } from './registration.js';
import type { ResolvedShipment } from './resolve.js';

/*
 * Registration in the request (`POST /registered-shipments`, `POST /multi-colli-shipments`): the
 * shipment is created and handed to the sandbox carrier in one transaction, by the same rules and
 * code as a queued registration. A refusal is thrown, which undoes the transaction: no concept
 * stays behind.
 */

/** Registers a concept now, or throws the carrier's refusal (422, 13002) naming the field of the request to blame. */
export function registerInRequest(tx: Tx, rules: Rules, shipment: ShipmentRecord): ShipmentRecord {
  if (!shipment.service_id) {
    throw DomainError.unprocessable('A shipment registered in the request needs a service: give the service relationship or meta.service_code.', {
      relationship: 'service',
    });
  }
  if (!shipment.contract_id) {
    throw DomainError.unprocessable('A shipment registered in the request needs a contract: give the contract relationship or meta.service_code.', {
      relationship: 'contract',
    });
  }
  const refused = refusal(tx, shipment);
  if (refused) throw DomainError.carrierRefused(refused.detail, refused.field, carrierMeta(refused.detail));
  const full = filesQuotaProblem(tx, rules, shipment);
  if (full) throw full;
  return registerShipment(tx, rules, shipment, rules.clock.now());
}

/**
 * The `register_at` of a shipment registered in the request: the time the request asked for when
 * it has passed, else now. A later time cannot stand, since the shipment is registered now: kept,
 * it would claim a registration still to come (and `filter[register_at]` would find the shipment
 * on a day it was not registered).
 */
export function registeredAt(draft: ShipmentDraft, now: number): ShipmentDraft {
  const asked = draft.attributes.register_at;
  return { ...draft, attributes: { ...draft.attributes, register_at: asked != null && asked <= now ? asked : now } };
}

/**
 * Creates a shipment and registers it at once, `register_at` as `registeredAt` says; hooks run on
 * the concept first, as for any new shipment.
 */
export function createRegisteredShipment(tx: Tx, acting: Acting, draft: ShipmentDraft, resolved: ResolvedShipment): ShipmentRecord {
  const created = createShipment(tx, acting, registeredAt(draft, acting.rules.clock.now()), resolved);
  return registerInRequest(tx, acting.rules, created);
}
