import type { Acting } from '../rules.js';
import type { CarrierRecord } from '../../model/carrier.js';
import type { CollectionRecord } from '../../model/collection.js';
import type { Address, Price } from '../../model/common.js';
import type { ContractRecord, LiabilityCoverageRecord } from '../../model/contract.js';
import type { ServiceRecord } from '../../model/service.js';
import type { ChosenOption, Item, LabelChoice, PhysicalProperties, ShipmentRecord } from '../../model/shipment.js';
import type { ShopRecord } from '../../model/shop.js';
import type { ReadView } from '../../store/store.js';
import { DomainError, type Field } from '../errors.js';
import { holdsShipmentAddress, missedPart, narrowerThanAddress } from '../address-rules.js';
import { calendarOf, utcText } from '../../model/collection-calendar.js';
import { collectionStatus } from '../collections/lifecycle.js';
import { dropOffOf, type DropOff } from '../collections/handover.js';
import { bookedHolder, mismatch, nextCollection } from '../collections/membership.js';
import { chargeableWeight } from '../rates.js';
import { canSeeContract } from '../tenancy.js';
import { seesTenantRow } from '../tenant-lifetime.js';
import { checkContent, checkOptions, chooseLabel } from './checks.js';
import { fields, isInternational, keptAttribute, keptRelationship, type ShipmentDraft } from './draft.js';
import { findRate, priceProblem, priceBreakdown, type SurchargeLine } from './pricing.js';
import { sizeProblems } from './parcel-sizes.js';
import { Problems } from './problems.js';
import { cheapestChoice } from './service-code.js';
import { withVolumetricWeight } from './volumetric.js';

/** A draft whose references all exist, fit together and belong to the caller. */
export interface ResolvedShipment {
  shop: ShopRecord;
  service?: ServiceRecord;
  contract?: ContractRecord;
  carrier?: CarrierRecord;
  options: ChosenOption[];
  coverage?: LiabilityCoverageRecord;
  collection?: CollectionRecord;
  consolidationShipment?: ShipmentRecord;
  label: LabelChoice;
  physical: PhysicalProperties;
  price?: Price;
  /** The parts of `price` on top of the base rate; empty without a price. */
  surcharges: SurchargeLine[];
  totalValue?: Price;
  /** Hints of the request the shipment was made without (a next collection that does not exist). */
  warnings: ShipmentWarning[];
}

/** A hint of the request that was not followed, and why; the shipment is made all the same. */
interface ShipmentWarning {
  code: 'not-added-to-collection' | 'service-code-not-resolved';
  detail: string;
  field: Field;
}

type Resolution = { service?: ServiceRecord; contract?: ContractRecord };

/** How a resolution treats what the request only hints at. */
export interface ResolveOptions {
  /**
   * A `meta.service_code` that finds no service and contract leaves the shipment without them
   * (a warning says why), as production documents for `POST /shipments`; otherwise it is refused.
   */
  keepUnresolvedServiceCode?: boolean;
}

function resolveServiceAndContract(ctx: Acting, draft: ShipmentDraft, problems: Problems, how: ResolveOptions, warnings: ShipmentWarning[]): Resolution {
  const { store } = ctx.rules;
  const { sender_address: from, recipient_address: to } = draft.attributes;
  if (!draft.serviceId && draft.serviceCode) {
    if (!how.keepUnresolvedServiceCode) return cheapestChoice(ctx, draft, problems);
    const unresolved = new Problems();
    const chosen = cheapestChoice(ctx, draft, unresolved);
    if (unresolved.empty) return chosen;
    warnings.push({
      code: 'service-code-not-resolved',
      detail: `The shipment was made without a service and contract: ${unresolved.details.join(' ')} Set them (or meta.service_code) with PATCH before it can be registered.`,
      field: fields.meta('service_code'),
    });
    // Without a service: a contract the body names still counts, checked as usual.
  }
  const named = draft.serviceId ? store.get('services', draft.serviceId) : undefined;
  // A service a pack gave another tenant is answered as an unknown one: its existence is not told.
  const service = named && seesTenantRow(store, ctx.principal?.organizationId, named.organization_id) ? named : undefined;
  if (draft.serviceId && !service) problems.add(`No service with id '${draft.serviceId}' exists.`, fields.relationship('service'));
  if (service && !(holdsShipmentAddress(service.regions_from, from) && holdsShipmentAddress(service.regions_to, to))) {
    problems.add(routeRefusal(service, from, to), routeBlame(draft, service, from, to));
  }
  const contract = draft.contractId ? store.get('contracts', draft.contractId) : undefined;
  if (draft.contractId && (!contract || !canSeeContract(store, ctx.principal, contract))) {
    problems.add(`No contract with id '${draft.contractId}' is available to you.`, fields.relationship('contract'));
    return { service };
  }
  if (contract && contract.status !== 'active') {
    problems.add(`Contract '${contract.name}' is ${contract.status}; only active contracts can be used for shipments.`, fields.relationship('contract'));
  }
  if (service && contract && service.carrier_id !== contract.carrier_id) {
    // An update that named the service and kept the contract is told at the service it sent.
    const blamed = keptRelationship(draft, 'contract') && !keptRelationship(draft, 'service') ? 'service' : 'contract';
    problems.add('The service and the contract belong to different carriers.', fields.relationship(blamed));
  }
  return { service, contract };
}

/**
 * Why a service does not ship the route: the countries, and where the service serves the
 * address's country only in part (a state, a postal code pattern), which part the address misses.
 */
function routeRefusal(service: ServiceRecord, from: Address, to: Address): string {
  const route = `Service '${service.code}' does not ship from ${from.country_code} to ${to.country_code}.`;
  const narrower = holdsShipmentAddress(service.regions_from, from)
    ? narrowerThanAddress(service.regions_to, to, 'recipient')
    : narrowerThanAddress(service.regions_from, from, 'sender');
  return narrower ? `Service '${service.code}' does not ship this route. ${narrower}` : route;
}

/**
 * Where a service that does not ship the route is blamed: the service, unless an update kept it
 * and sent an address (the recipient's, else the sender's), which is then the member to blame:
 * at the part the service's rules leave out (its state or postal code where the country is
 * served only in part), else at its country.
 */
function routeBlame(draft: ShipmentDraft, service: ServiceRecord, from: Address, to: Address): Field {
  if (!keptRelationship(draft, 'service')) return fields.relationship('service');
  const at = (name: 'recipient_address' | 'sender_address', rules: ServiceRecord['regions_to'], address: Address) =>
    fields.attribute(`${name}.${holdsShipmentAddress(rules, address) ? 'country_code' : missedPart(rules, address)}`);
  if (!keptAttribute(draft, 'recipient_address')) return at('recipient_address', service.regions_to, to);
  if (!keptAttribute(draft, 'sender_address')) return at('sender_address', service.regions_from, from);
  return fields.relationship('service');
}

/**
 * Where a service its contract does not rate is blamed: the contract when an update named it and
 * kept the service, `meta.service_code` when that chose the service, else the service.
 */
function unratedBlame(draft: ShipmentDraft): Field {
  if (!keptRelationship(draft, 'contract') && keptRelationship(draft, 'service')) return fields.relationship('contract');
  if (draft.serviceCode && !draft.serviceId) return fields.meta('service_code');
  return fields.relationship('service');
}

/**
 * Where a weight no rate carries is blamed: the weight, unless an update kept it and chose another
 * contract or service (the one it named, or `meta.service_code`), which is then the member to blame.
 */
function weightBlame(draft: ShipmentDraft): Field {
  if (!keptAttribute(draft, 'physical_properties')) return fields.attribute('physical_properties.weight');
  if (!keptRelationship(draft, 'contract')) return fields.relationship('contract');
  if (!keptRelationship(draft, 'service')) return fields.relationship('service');
  return draft.serviceCode ? fields.meta('service_code') : fields.attribute('physical_properties.weight');
}

/**
 * The member of an update that chose another service or rate (the contract or service it named,
 * else `meta.service_code`), when it kept `attribute`; otherwise none: the attribute is blamed itself.
 */
function keptAttributeBlame(draft: ShipmentDraft, attribute: string): Field | undefined {
  if (!keptAttribute(draft, attribute)) return undefined;
  if (!keptRelationship(draft, 'contract')) return fields.relationship('contract');
  if (!keptRelationship(draft, 'service')) return fields.relationship('service');
  return draft.serviceCode ? fields.meta('service_code') : undefined;
}

/**
 * When an update kept the shipment's service options and changed what chooses its rate, the member
 * that changed it (contract, service, meta.service_code, then the parcel); otherwise none.
 */
function keptOptionsBlame(draft: ShipmentDraft): Field | undefined {
  if (!keptRelationship(draft, 'service_options')) return undefined;
  if (!keptRelationship(draft, 'contract')) return fields.relationship('contract');
  if (!keptRelationship(draft, 'service')) return fields.relationship('service');
  if (draft.serviceCode) return fields.meta('service_code');
  return keptAttribute(draft, 'physical_properties') ? undefined : fields.attribute('physical_properties.weight');
}

/**
 * When an update kept the shipment's liability coverage and changed its contract, the member that
 * changed the contract (the contract it named, else `meta.service_code`); otherwise none.
 */
function keptCoverageBlame(draft: ShipmentDraft): Field | undefined {
  if (!keptRelationship(draft, 'liability_coverage')) return undefined;
  if (!keptRelationship(draft, 'contract')) return fields.relationship('contract');
  return draft.serviceCode ? fields.meta('service_code') : undefined;
}

function resolveCoverage(ctx: Acting, draft: ShipmentDraft, contract: ContractRecord | undefined, problems: Problems) {
  if (!draft.coverageId) return undefined;
  const coverage = ctx.rules.store.get('liabilityCoverages', draft.coverageId);
  const owner = coverage && ctx.rules.store.get('contracts', coverage.contract_id);
  if (!coverage || !owner || !canSeeContract(ctx.rules.store, ctx.principal, owner)) {
    problems.add(`No liability coverage with id '${draft.coverageId}' is available to you.`, fields.relationship('liability_coverage'));
  } else if (!contract) {
    // A contract that was named but cannot be used has its own error already.
    if (draft.contractId) return coverage;
    problems.add(
      `A liability coverage is of one contract: set the shipment's contract ('${owner.name}', ${owner.id}) as well.`,
      keptCoverageBlame(draft) ?? fields.relationship('liability_coverage'),
    );
  } else if (coverage.contract_id !== contract.id) {
    const changed = keptCoverageBlame(draft);
    if (changed) {
      problems.add(
        `The shipment's liability coverage belongs to its contract '${owner.name}', not to '${contract.name}': send liability_coverage with a coverage of the new contract, or with null data.`,
        changed,
      );
    } else problems.add("The liability coverage belongs to another contract than the shipment's.", fields.relationship('liability_coverage'));
  }
  return coverage;
}

/**
 * Where a drop-off handover is blamed on an update that kept the shipment in its collection: the
 * member that made it one (the service or `meta.service_code` that chose a drop-off service, the
 * service options that chose drop-off or left out collection). None when the request changed
 * neither: a shipment kept as it was stays where it is.
 */
function dropOffBlame(draft: ShipmentDraft, dropOff: DropOff): Field | undefined {
  const options: Field = { relationship: 'service_options' };
  if (dropOff.by === 'option') return draft.named?.has('service_options') ? options : undefined;
  if (draft.serviceCode && !draft.serviceId) return fields.meta('service_code');
  if (draft.named?.has('service')) return fields.relationship('service');
  return draft.named?.has('service_options') ? options : undefined;
}

function resolveCollection(
  ctx: Acting,
  draft: ShipmentDraft,
  resolution: Resolution,
  problems: Problems,
  warnings: ShipmentWarning[],
): CollectionRecord | undefined {
  const { store, clock } = ctx.rules;
  const now = clock.now();
  const { contract, service } = resolution;
  // Only a parcel the carrier picks up joins a collection (collections/handover.ts).
  const dropOff = dropOffOf(store, service?.id, draft.options, 'The shipment');
  // Why a collection does not take this shipment: the rules of POST /add-shipments-to-collection.
  // One the shipment is in already keeps it, even once its window has begun.
  const refusal = (collection: CollectionRecord) =>
    mismatch(store, collection, draft.shopId, contract?.id) ??
    cancelled(store, collection) ??
    (collection.id === draft.currentCollectionId ? undefined : begun(collection, now));
  if (draft.collectionTime) return collectionAtTime(ctx, draft, contract, dropOff, refusal, problems);
  // An update that takes the shipment out of its collection (`data: null`) or into another: a
  // booked collection keeps it, as POST /add-shipments-to-collection has it.
  const holder = bookedHolder(store, draft.currentCollectionId, draft.collectionId);
  if (holder) {
    problems.add(
      `The shipment is in collection '${holder.id}', which is registered with the carrier: it stays there.`,
      draft.collectionId ? fields.relationship('collection') : { relationship: 'collection' },
    );
  }
  if (draft.collectionId) {
    const collection = store.get('collections', draft.collectionId);
    if (!collection || collection.organization_id !== ctx.principal?.organizationId || collection.shop_id !== draft.shopId) {
      problems.add(`No collection with id '${draft.collectionId}' exists for this shop.`, fields.relationship('collection'));
    } else {
      const why = refusal(collection);
      // The shipment is in this collection already: what changed is its contract (chosen by meta.service_code, or named).
      const changed = draft.serviceCode && !draft.contractId ? fields.meta('service_code') : fields.relationship('contract');
      if (why) problems.add(why, collection.id === draft.currentCollectionId ? changed : fields.relationship('collection'));
      else if (dropOff) {
        const blamed = collection.id === draft.currentCollectionId ? dropOffBlame(draft, dropOff) : fields.relationship('collection');
        if (blamed) problems.add(dropOff.detail, blamed);
      }
    }
    return collection;
  }
  if (!draft.addToNextCollection) return undefined;
  // A hint, as below: a parcel the sender drops off is made without a collection, and told why.
  if (dropOff) {
    warnings.push({
      code: 'not-added-to-collection',
      detail: `The shipment was made without a collection: ${dropOff.detail}`,
      field: fields.meta('add_to_next_collection'),
    });
    return undefined;
  }
  // The seed's rule: the nearest upcoming collection of the same shop and the same contract.
  const next = nextCollection(store, draft.shopId, contract?.id, now);
  // A hint, as production documents the flag: without an upcoming collection the shipment is made without one, and told why.
  if (!next) {
    // Booking one is no advice for a carrier that collects nothing: POST /collections refuses its contracts.
    const carrier = contract && store.get('carriers', contract.carrier_id);
    const detail =
      carrier && !calendarOf(carrier)
        ? `The shipment was made without a collection: ${carrier.name} does not collect (its collections.offers_collections is false), so no collection can take a shipment of contract '${contract.id}'.`
        : `The shipment was made without a collection: there is no upcoming open collection for this shop and ${contract ? `contract '${contract.id}'` : 'no contract'}. Book one (POST /collections) or set up a collection schedule, then add it (POST /add-shipments-to-collection).`;
    warnings.push({ code: 'not-added-to-collection', detail, field: fields.meta('add_to_next_collection') });
  }
  return next;
}

/**
 * `meta.collection` of POST /registered-shipments names a collection of the shop by its exact
 * window. A shop may have several with that window (one cancelled and booked again, or one per
 * carrier): the one that takes the shipment is chosen; with none, the problem is the one of the
 * collection of the shipment's contract, else of the first.
 */
function collectionAtTime(
  ctx: Acting,
  draft: ShipmentDraft,
  contract: ContractRecord | undefined,
  dropOff: DropOff | undefined,
  refusal: (collection: CollectionRecord) => string | undefined,
  problems: Problems,
): CollectionRecord | undefined {
  const field = fields.meta('collection.collection_time');
  const time = draft.collectionTime!;
  // A window that ends before it opens is refused at its end, as POST /collections refuses one.
  if (time.to <= time.from) {
    problems.add(`'to' (${time.to}) must be after 'from' (${time.from}): no collection has such a window.`, fields.meta('collection.collection_time.to'));
    return undefined;
  }
  // No window takes a parcel the sender drops off.
  if (dropOff) {
    problems.add(dropOff.detail, field);
    return undefined;
  }
  const matches = ctx.rules.store
    .find('collections', 'shop_id', draft.shopId)
    .filter((c) => c.organization_id === ctx.principal?.organizationId && c.collection_time.from === time.from && c.collection_time.to === time.to)
    // Oldest first; the sort is stable on the index's order of making, so of one second too.
    .sort((a, b) => a.created_at - b.created_at);
  if (matches.length === 0) {
    problems.add(`This shop has no collection from ${time.from} to ${time.to}; plan one with POST /collections first, or leave meta.collection out.`, field);
    return undefined;
  }
  const taking = matches.find((collection) => refusal(collection) === undefined);
  if (taking) return taking;
  const blamed = matches.find((collection) => mismatch(ctx.rules.store, collection, draft.shopId, contract?.id) === undefined) ?? matches[0]!;
  problems.add(refusal(blamed)!, field);
  return undefined;
}

/** A collection that will never be collected again takes no shipments. */
function cancelled(store: ReadView, collection: CollectionRecord): string | undefined {
  const status = collectionStatus(store, collection);
  return status === 'collection-voided' || status === 'collection-registration-failed' || status === 'collection-collected'
    ? `Collection '${collection.id}' is ${status}: it takes no shipments.`
    : undefined;
}

/** A collection whose window has begun takes no more shipments: the carrier has been, or never comes. */
function begun(collection: CollectionRecord, now: number): string | undefined {
  return collection.collection_time.from <= now
    ? `The window of collection '${collection.id}' opened at ${utcText(collection.collection_time.from)}: it takes no more shipments.`
    : undefined;
}

/** The consolidation shipment named, which must be one of the caller's shipments. */
function resolveConsolidation(ctx: Acting, draft: ShipmentDraft, problems: Problems): ShipmentRecord | undefined {
  if (!draft.consolidationShipmentId) return undefined;
  const target = ctx.rules.store.get('shipments', draft.consolidationShipmentId);
  if (!target || target.organization_id !== ctx.principal?.organizationId) {
    problems.add(`No shipment with id '${draft.consolidationShipmentId}' is available to you.`, fields.relationship('consolidation_shipment'));
  } else if (target.consolidation_shipment_id) {
    // One level deep, as POST /consolidate-shipments has it: a chain could close a cycle.
    problems.add(
      'The consolidation shipment is itself consolidated into another shipment; consolidation is one level deep.',
      fields.relationship('consolidation_shipment'),
    );
  }
  return target;
}

/**
 * Items' values are added up into the total value, so they must be in one currency (cents of
 * euros and of pounds make no sum) and the sum must stay an exact number of cents: JavaScript
 * numbers are exact only up to 2^53, and a total past that was stored and answered rounded.
 * `field` names an item's member in the request (`items[2].item_value.currency`).
 */
export function checkItemValues(items: readonly Item[] | undefined, problems: Problems, field: (path: string) => Field): void {
  let first: { index: number; currency: string } | undefined;
  let sum = 0;
  for (const [index, item] of (items ?? []).entries()) {
    if (!item.item_value) continue;
    first ??= { index, currency: item.item_value.currency };
    if (item.item_value.currency !== first.currency) {
      problems.add(
        `Item values add up to the total_value, so they share one currency: items[${first.index}] is in ${first.currency}, this one in ${item.item_value.currency}.`,
        field(`items[${index}].item_value.currency`),
      );
      return;
    }
    const value = item.item_value.amount * item.quantity;
    sum += value;
    if (!Number.isSafeInteger(value) || !Number.isSafeInteger(sum)) {
      problems.add(
        `The items' values add up to more than ${Number.MAX_SAFE_INTEGER} cents either way: no exact total_value can be given.`,
        field(`items[${index}].item_value.amount`),
      );
      return;
    }
  }
}

/** Items with a value add up to the total value (see `checkItemValues`); without them the client's own total stands. */
export function totalValue(draft: ShipmentDraft): Price | undefined {
  const valued = (draft.attributes.items ?? []).filter((item) => item.item_value);
  if (valued.length === 0) return draft.attributes.total_value;
  const amount = valued.reduce((sum, item) => sum + item.item_value!.amount * item.quantity, 0);
  return { amount, currency: valued[0]!.item_value!.currency };
}

/**
 * The weight a service charges a parcel for, as a refusal names it: the volumetric weight, with the
 * sides that make it, when that is what the service charges (a parcel of 2000 g is not carried
 * because its 40800 g of volume are not, and naming 2000 g would point at a weight every rate takes).
 */
function weightText(service: ServiceRecord, physical: PhysicalProperties): string {
  const charged = chargeableWeight(service, physical.weight, physical.volumetric_weight);
  if (charged === physical.weight) return `${physical.weight} g`;
  const { length, width, height } = physical;
  return `${charged} g: the service charges the volumetric weight of ${length} x ${width} x ${height} mm, more than the actual ${physical.weight} g`;
}

/**
 * Checks every reference and rule of a shipment draft and resolves it to records. All
 * violations are reported together as 422/10008 errors, each naming the field of the request at fault.
 */
export function resolveDraft(ctx: Acting, draft: ShipmentDraft, how: ResolveOptions = {}): ResolvedShipment {
  const { store } = ctx.rules;
  const problems = new Problems();
  const warnings: ShipmentWarning[] = [];
  const shop = store.get('shops', draft.shopId);
  if (!shop || shop.organization_id !== ctx.principal?.organizationId) {
    problems.add(`No shop with id '${draft.shopId}' is available to you.`, fields.relationship('shop'));
  }
  checkContent(draft, isInternational(draft), problems);
  checkItemValues(draft.attributes.items, problems, fields.attribute);
  const { service, contract } = resolveServiceAndContract(ctx, draft, problems, how, warnings);
  const physical = withVolumetricWeight(draft.attributes.physical_properties, service, contract);
  const rate = service && contract ? findRate(store, { service, contract, physical }) : undefined;
  if (service && contract && !rate && problems.empty) {
    // A contract that rates the service at no weight is no matter of the parcel's weight.
    const rated = store.find('serviceRates', 'contract_id', contract.id).some((one) => one.service_id === service.id);
    if (rated) problems.add(`No rate of service '${service.code}' on this contract carries ${weightText(service, physical)}.`, weightBlame(draft));
    else {
      problems.add(
        `Contract '${contract.name}' has no rate for service '${service.code}' at any weight: choose another service, or a contract that rates it (GET /service-rates?filter[service]=${service.id}).`,
        unratedBlame(draft),
      );
    }
  }
  // The rate that carries the weight must take the parcel's size too (each collo's, of a
  // multi-colli shipment): its size limits are as binding.
  // A kept parcel that the rate an update chose cannot carry is blamed on the member that chose it.
  const keptSize = draft.colli ? undefined : keptAttributeBlame(draft, 'physical_properties');
  for (const { detail, field } of rate ? sizeProblems(rate, physical, draft.colli, service!.code) : []) {
    if (keptSize) problems.add(`${detail} Send physical_properties too, or choose another service or contract.`, keptSize);
    else problems.add(detail, field!);
  }
  const options = checkOptions(ctx, draft.options, rate, problems, keptOptionsBlame(draft), keptRelationship(draft, 'service_options'));
  if (service?.delivery_method === 'pick-up' && !draft.attributes.pickup_location) {
    const detail = `Service '${service.code}' delivers to a pickup point: pickup_location is required.`;
    // An update that chose the service, keeping a shipment without a pickup location, is blamed for it.
    const chose = !keptAttribute(draft, 'pickup_location')
      ? undefined
      : !keptRelationship(draft, 'service')
        ? fields.relationship('service')
        : draft.serviceCode
          ? fields.meta('service_code')
          : undefined;
    if (chose) problems.add(`${detail} Send pickup_location too.`, chose);
    else problems.add(detail, fields.attribute('pickup_location'));
  }
  const carrier = contract ? store.get('carriers', contract.carrier_id) : service ? store.get('carriers', service.carrier_id) : undefined;
  const label = chooseLabel(draft.label, carrier, problems, draft.labelField, draft.labelKept);
  const coverage = resolveCoverage(ctx, draft, contract, problems);
  const collection = resolveCollection(ctx, draft, { service, contract }, problems, warnings);
  const consolidationShipment = resolveConsolidation(ctx, draft, problems);
  problems.throwIfAny();
  const priced =
    service && contract && carrier
      ? priceBreakdown(
          store,
          {
            service,
            contract,
            physical,
            optionIds: options.map((o) => o.id),
            coverage,
            crossBorder: isInternational(draft),
            organizationId: shop!.organization_id,
            colli: draft.colli,
          },
          carrier.code,
        )
      : undefined;
  const why = priced && priceProblem(priced);
  if (why) {
    throw DomainError.unprocessable(
      `The price of this shipment on contract '${contract!.name}' ${why}. Check the amounts of its rate and of your carrier surcharges.`,
      fields.relationship('contract'),
    );
  }
  return {
    shop: shop!,
    service,
    contract,
    carrier,
    options,
    coverage,
    collection,
    consolidationShipment,
    label,
    physical,
    price: priced?.price,
    surcharges: priced?.surcharges ?? [],
    totalValue: totalValue(draft),
    warnings,
  };
}
