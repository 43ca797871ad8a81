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
 * Creates a shipment and registers it at once. Its `register_at` is now unless the request set
 * one; hooks run on the concept first, as for any new shipment.
 */
export function createRegisteredShipment(tx: Tx, acting: Acting, draft: ShipmentDraft, resolved: ResolvedShipment): ShipmentRecord {
  const now = acting.rules.clock.now();
  const withTime = { ...draft, attributes: { ...draft.attributes, register_at: draft.attributes.register_at ?? now } };
  const created = createShipment(tx, acting, withTime, resolved);
  return registerInRequest(tx, acting.rules, created);
}
