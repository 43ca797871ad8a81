import type { TaxIdentificationNumber } from '../../model/common.js';
import type { FileRecord, ShipmentRecord } from '../../model/shipment.js';
import type { Rules } from '../rules.js';
import type { ReadView, Tx } from '../../store/store.js';
import type { JobHandler } from '../scheduler.js';
import type { DomainError, Field } from '../errors.js';
import { quotaProblem } from '../quotas.js';
import { isInternational } from './draft.js';
import { addStatus } from './statuses.js';
import { carrierTrackingUrl, mailPieceNumber, offersTracking, trackingCode } from './tracking.js';
import { scheduleWalk } from './walk.js';

export const REGISTER_SHIPMENT = 'register-shipment';

/** Tags that steer the sandbox "carrier", documented for users like test card numbers. */
export const TRIGGERS = { registrationFailed: 'sandbox:registration-failed', autoDeliver: 'sandbox:auto-deliver' } as const;

export const hasTag = (shipment: ShipmentRecord, tag: string): boolean => (shipment.tags ?? []).some((t) => String(t) === tag);

/**
 * Queues registration when the shipment is a concept with a service, a contract and a
 * `register_at` that is set: it runs REGISTRATION_DELAY seconds after `register_at` (or after
 * now, when that lies in the past). Anything else cancels a queued registration.
 */
export function scheduleRegistration(tx: Tx, rules: Rules, shipment: ShipmentRecord): void {
  const ready = shipment.status_code === 'shipment-concept' && shipment.register_at != null && shipment.service_id && shipment.contract_id;
  if (!ready) {
    rules.jobs.cancel(tx, REGISTER_SHIPMENT, shipment.id);
    return;
  }
  const startMs = Math.max(shipment.register_at! * 1000, rules.clock.nowMs());
  rules.jobs.schedule(tx, { kind: REGISTER_SHIPMENT, subject: shipment.id, dueMs: startMs + rules.settings.registrationDelay * 1000 });
}

/** Shipment numbers win; organization numbers of another (type, country) are added. */
function mergeTaxNumbers(own: readonly TaxIdentificationNumber[] = [], organization: readonly TaxIdentificationNumber[] = []) {
  const key = (n: TaxIdentificationNumber) => `${n.type}:${n.country_code}`;
  const taken = new Set(own.map(key));
  const merged = [...own, ...organization.filter((n) => !taken.has(key(n)))];
  return merged.length > 0 ? merged : undefined;
}

/**
 * The carrier's refusal, in the shape production puts on a failed shipment-status. Its source names
 * the member of the shipment to fix before registering again, as the refusal of
 * `POST /registered-shipments` does.
 */
function carrierError(rules: Rules, refused: Refusal): Record<string, unknown> {
  const pointer = rules.pointerOf(refused.field);
  return {
    status: '422',
    code: '13002',
    title: 'Carrier API Error',
    detail: refused.detail,
    ...(pointer === undefined ? {} : { source: { pointer } }),
    meta: carrierMeta(refused.detail),
  };
}

/** What production tells of the carrier's answer beside a refusal. */
export const carrierMeta = (detail: string) => ({ carrier_status: '422', carrier_response: { message: detail } });

/** Why the carrier would refuse a shipment, and the member of a create request to blame. */
export interface Refusal {
  detail: string;
  field: Field;
}

/** Why the carrier would refuse the shipment now (things may have changed since it was created). */
export function refusal(tx: ReadView, shipment: ShipmentRecord): Refusal | undefined {
  const contract = shipment.contract_id ? tx.get('contracts', shipment.contract_id) : undefined;
  if (hasTag(shipment, TRIGGERS.registrationFailed)) {
    return { detail: `The carrier rejected the shipment (sandbox trigger tag '${TRIGGERS.registrationFailed}').`, field: { attribute: 'tags' } };
  }
  // A carrier of a pack may refuse every registration (its `sandbox_triggers`).
  const carrier = contract && tx.get('carriers', contract.carrier_id);
  if (carrier?.sandbox_triggers?.includes(TRIGGERS.registrationFailed)) {
    return {
      detail: `${carrier.name} rejected the shipment (the carrier's sandbox trigger '${TRIGGERS.registrationFailed}').`,
      field: { relationship: 'contract.id' },
    };
  }
  // What production's docs require for registration beyond a service and a contract.
  if (isInternational({ attributes: shipment }) && !shipment.recipient_address.phone_number) {
    return {
      detail: "An international shipment needs the recipient's phone_number to be registered.",
      field: { attribute: 'recipient_address.phone_number' },
    };
  }
  if (shipment.customs && !shipment.items?.length) {
    return { detail: 'A shipment with customs needs items to be registered.', field: { attribute: 'items' } };
  }
  if (!contract || contract.status !== 'active') {
    return {
      detail: `The contract of this shipment is ${contract?.status ?? 'gone'}; the carrier refused it.`,
      field: { relationship: 'contract.id' },
    };
  }
  return undefined;
}

/** How many files a registration makes: the label, and a customs declaration for an international shipment. */
const filesMade = (shipment: ShipmentRecord): number => (isInternational({ attributes: shipment }) ? 2 : 1);

/**
 * Why registering the shipment would take its organization past the files quota, or `undefined`.
 * A queued registration then fails with this in the status's errors (429, 10011); a registration
 * in the request is refused with it.
 */
export function filesQuotaProblem(tx: ReadView, rules: Rules, shipment: ShipmentRecord): DomainError | undefined {
  return quotaProblem(rules, tx, shipment.organization_id, 'files', filesMade(shipment));
}

function createFiles(tx: Tx, shipment: ShipmentRecord, at: number): void {
  const label: FileRecord = {
    id: tx.newId(),
    shipment_id: shipment.id,
    organization_id: shipment.organization_id,
    document_type: 'label',
    formats: [{ extension: extensionOf(shipment.label.mime_type), mime_type: shipment.label.mime_type }],
    created_at: at,
  };
  if (shipment.label.mime_type !== 'application/pdf') label.formats.push({ extension: 'pdf', mime_type: 'application/pdf' });
  tx.insert('files', label);
  if (isInternational({ attributes: shipment })) {
    tx.insert('files', {
      id: tx.newId(),
      shipment_id: shipment.id,
      organization_id: shipment.organization_id,
      document_type: 'customs-declaration-form',
      formats: [{ extension: 'pdf', mime_type: 'application/pdf' }],
      created_at: at,
    });
  }
}

function extensionOf(mimeType: string): string {
  return mimeType === 'application/zpl' ? 'zpl' : mimeType === 'image/png' ? 'png' : 'pdf';
}

/**
 * Hands a concept with a service and an active contract to the sandbox "carrier" at `at`: it gets
 * its tracking code, barcode, tracking URL, files and the `shipment-registered` status (and, with
 * the auto-deliver trigger, the start of its walk). A service the carrier does not track (a
 * letter) gives files and a barcode only, and `shipment-created-without-tracking`, the end of its
 * life cycle. The caller has checked `refusal` first. The queued registration and
 * `POST /registered-shipments` both register through here.
 */
export function registerShipment(tx: Tx, rules: Rules, shipment: ShipmentRecord, at: number): ShipmentRecord {
  const carrier = tx.get('carriers', tx.get('contracts', shipment.contract_id!)!.carrier_id)!;
  const service = tx.get('services', shipment.service_id!);
  const tracked = !service || offersTracking(service);
  const attempt = tx.find('shipmentStatuses', 'shipment_id', shipment.id).length;
  // The tracking page needs no token: its code follows from the data file's secret, not from the seed.
  const seed = rules.store.ids.digest(`tracking:${shipment.id}:${attempt}`);
  const code = trackingCode(carrier.code, seed);
  const organization = tx.get('organizations', shipment.organization_id);
  const registered = tx.update('shipments', shipment.id, {
    ...(tracked ? { tracking_code: code, barcode: code, tracking_url: carrierTrackingUrl(carrier.code, code) } : { barcode: mailPieceNumber(seed) }),
    sender_tax_identification_numbers: mergeTaxNumbers(shipment.sender_tax_identification_numbers, organization?.tax_identification_numbers),
  });
  rules.jobs.cancel(tx, REGISTER_SHIPMENT, shipment.id);
  createFiles(tx, registered, at);
  const current = addStatus(tx, rules, registered, {
    code: tracked ? 'shipment-registered' : 'shipment-created-without-tracking',
    at,
    carrier: { code: 'PRE-ADVICE', description: 'Shipment data received by the carrier' },
  });
  if (tracked && hasTag(current, TRIGGERS.autoDeliver)) scheduleWalk(tx, rules, current, 0, at);
  return current;
}

/** Registers a queued shipment with the sandbox "carrier": registered with files, or failed. */
export const registerShipmentJob: JobHandler = {
  apply(tx, job, rules) {
    const shipment = tx.get('shipments', job.subject);
    if (!shipment || shipment.status_code !== 'shipment-concept') return;
    const at = Math.floor(job.due_ms / 1000);
    const refused = refusal(tx, shipment);
    if (refused) {
      addStatus(tx, rules, shipment, { code: 'shipment-registration-failed', at, errors: [carrierError(rules, refused)] });
      return;
    }
    const full = filesQuotaProblem(tx, rules, shipment);
    if (full) {
      const error = { status: '429', code: '10011', title: 'Too many requests.', detail: full.message, meta: full.problems[0]!.meta };
      addStatus(tx, rules, shipment, { code: 'shipment-registration-failed', at, errors: [error] });
      return;
    }
    registerShipment(tx, rules, shipment, at);
  },
};
