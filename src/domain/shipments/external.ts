import type { ShipmentRecord } from '../../model/shipment.js';
import type { Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import type { Acting } from '../rules.js';
import type { ShipmentDraft } from './draft.js';
import { createShipment } from './lifecycle.js';
import { hasTag, TRIGGERS } from './registration.js';
import type { ResolvedShipment } from './resolve.js';
import { carrierTrackingUrl } from './tracking.js';
import { scheduleWalk } from './walk.js';

/**
 * Tracks a shipment registered outside the API (`POST /track-external-shipment`): it is stored
 * as registered with the carrier of its contract under the tracking code given, without files or
 * a price (nothing was bought through the API), and its carrier statuses then come as for any
 * registered shipment: with the `sandbox:auto-deliver` tag, the walk on the sandbox clock.
 */
export function trackExternalShipment(tx: Tx, acting: Acting, draft: ShipmentDraft, resolved: ResolvedShipment, code: string): ShipmentRecord {
  const { rules, principal } = acting;
  const { contract, carrier } = resolved;
  if (!contract || !carrier) throw DomainError.unprocessable('Tracking needs the contract the shipment was registered on.', { relationship: 'contract' });
  const taken = tx.find('shipments', 'tracking_code', code).some((other) => {
    const otherContract = other.contract_id ? tx.get('contracts', other.contract_id) : undefined;
    return other.organization_id === principal?.organizationId && otherContract?.carrier_id === carrier.id;
  });
  if (taken)
    throw DomainError.unprocessable(`${carrier.name} tracking code '${code}' is already tracked for your organization.`, { attribute: 'tracking_code' });
  const now = rules.clock.now();
  const shipment = createShipment(
    tx,
    acting,
    draft,
    { ...resolved, price: undefined, surcharges: [] },
    {
      status: {
        code: 'shipment-registered',
        at: now,
        carrier: { code: 'TRACKING', description: 'Tracking started for a shipment registered outside the API' },
      },
      fields: { tracking_code: code, barcode: code, tracking_url: carrierTrackingUrl(carrier.code, code), synced_at: now },
    },
  );
  if (hasTag(shipment, TRIGGERS.autoDeliver)) scheduleWalk(tx, rules, shipment, 0, now);
  return shipment;
}
