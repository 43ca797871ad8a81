import type { Price } from '../../model/common.js';
import type { Item, PhysicalProperties, ShipmentRecord } from '../../model/shipment.js';
import type { ReadView, Tx } from '../../store/store.js';
import { DomainError, type Field } from '../errors.js';
import { assertRoom } from '../quotas.js';
import type { Acting } from '../rules.js';
import type { ShipmentDraft } from './draft.js';
import { createShipment } from './lifecycle.js';
import { registeredAt, registerInRequest } from './register-now.js';
import { Problems } from './problems.js';
import { checkItemValues, totalValue, type ResolvedShipment } from './resolve.js';
import { withVolumetricWeight } from './volumetric.js';

/** What `meta.colli` says of one collo; what it leaves out, the collo takes from the shipment. */
export interface ColloInput {
  physical_properties: PhysicalProperties;
  items?: Item[];
  description?: string;
  customer_reference?: string;
  total_value?: Price;
}

/**
 * The master's draft: its weight is that of all colli together (a weight the request gives
 * must be that sum), and it carries the colli's sizes, which the rate's size limits bind one by one.
 */
export function masterDraft(draft: ShipmentDraft, colli: readonly ColloInput[]): ShipmentDraft {
  const total = colli.reduce((sum, collo) => sum + collo.physical_properties.weight, 0);
  const given = draft.attributes.physical_properties as PhysicalProperties | undefined;
  if (given?.weight !== undefined && given.weight !== total) {
    throw DomainError.unprocessable(`The shipment weighs ${given.weight} g, but its colli weigh ${total} g together; leave the weight out or give their sum.`, {
      attribute: 'physical_properties.weight',
    });
  }
  return {
    ...draft,
    attributes: { ...draft.attributes, physical_properties: { ...given, weight: total } },
    colli: colli.map((collo) => collo.physical_properties),
  };
}

/**
 * Runs `work` (the master's resolution) and, when the request left the master's weight out, blames
 * a problem with that weight on `meta.colli`, where it came from: the request has no
 * `physical_properties.weight` to point at.
 */
export function blamingColli<R>(weightGiven: boolean, work: () => R): R {
  try {
    return work();
  } catch (error) {
    if (weightGiven || !(error instanceof DomainError)) throw error;
    const isWeight = (field: Field | undefined) => field !== undefined && 'attribute' in field && field.attribute === 'physical_properties.weight';
    if (!error.problems.some((problem) => isWeight(problem.field))) throw error;
    throw new DomainError(
      error.kind,
      error.problems.map((problem) =>
        isWeight(problem.field) ? { ...problem, detail: `${problem.detail} That is the weight of all colli together.`, field: { meta: 'colli' } } : problem,
      ),
    );
  }
}

/** A multi-colli shipment needs a service of package type `multi-colli` (see GET /services?filter[package_type]=multi-colli). */
export function checkMultiColliService(store: ReadView, draft: ShipmentDraft, resolved: ResolvedShipment): void {
  const { service } = resolved;
  if (!service)
    throw DomainError.unprocessable('A multi-colli shipment needs a multi-colli service: give the service relationship or meta.service_code.', {
      relationship: 'service',
    });
  if (service.package_type === 'multi-colli') return;
  const carrier = store.get('carriers', service.carrier_id);
  const codes = [
    ...new Set(
      store
        .find('services', 'carrier_id', service.carrier_id)
        .filter((s) => s.package_type === 'multi-colli')
        .map((s) => s.code),
    ),
  ];
  const detail =
    codes.length > 0
      ? `Service '${service.code}' carries single parcels; ${carrier?.name ?? 'its carrier'} carries multi-colli shipments with ${codes.join(', ')}.`
      : `${carrier?.name ?? 'The carrier'} does not carry multi-colli shipments.`;
  throw DomainError.unprocessable(detail, draft.serviceCode && !draft.serviceId ? { meta: 'service_code' } : { relationship: 'service.id' });
}

/**
 * Creates a multi-colli shipment and registers it at once: the master (priced for all its colli,
 * with a label that lists them) and each collo, a shipment of its own with its number, tracking
 * code and label, that follows the life cycle on its own. Colli have no price of their own (the
 * master's covers them); they share the master's addresses, service, contract and tags.
 */
export function createMultiColliShipment(
  tx: Tx,
  acting: Acting,
  draft: ShipmentDraft,
  resolved: ResolvedShipment,
  colli: readonly ColloInput[],
): { master: ShipmentRecord; colli: ShipmentRecord[] } {
  const { rules } = acting;
  // A collo's own items give its total value: they are checked as the shipment's are.
  const problems = new Problems();
  colli.forEach((input, index) => checkItemValues(input.items, problems, (path) => ({ meta: `colli[${index}].${path}` })));
  problems.throwIfAny();
  // Room for the master and every collo up front, so a refusal names what the request needs.
  assertRoom(rules, tx, resolved.shop.organization_id, 'shipments', colli.length + 1);
  const base = registeredAt(draft, rules.clock.now());
  const master = registerInRequest(tx, rules, createShipment(tx, acting, base, resolved));
  const rows = colli.map((input, index) => {
    const attributes = {
      ...base.attributes,
      physical_properties: input.physical_properties,
      items: input.items ?? base.attributes.items,
      description: input.description ?? base.attributes.description,
      customer_reference: input.customer_reference ?? base.attributes.customer_reference,
      total_value: input.total_value,
    };
    const colloDraft = { ...base, attributes };
    const colloResolved = {
      ...resolved,
      physical: withVolumetricWeight(input.physical_properties, resolved.service, resolved.contract),
      price: undefined,
      surcharges: [],
      totalValue: totalValue(colloDraft),
    };
    const created = createShipment(tx, acting, colloDraft, colloResolved, { fields: { multi_colli_shipment_id: master.id, collo_number: index + 1 } });
    return registerInRequest(tx, rules, created);
  });
  return { master, colli: rows };
}
