import type { Acting } from '../rules.js';
import type { ContractRecord } from '../../model/contract.js';
import type { ServiceRecord } from '../../model/service.js';
import { holdsShipmentAddress } from '../address-rules.js';
import { canSeeContract } from '../tenancy.js';
import { seesTenantRow } from '../tenant-lifetime.js';
import { fields, isInternational, type ShipmentDraft } from './draft.js';
import { findRate, shipmentPrice } from './pricing.js';
import { sizeProblems } from './parcel-sizes.js';
import type { Problems } from './problems.js';
import { withVolumetricWeight } from './volumetric.js';

/**
 * `meta.service_code`: among the services with that code that ship the route, and the active
 * contracts the caller may use (the given contract only, when there is one), the pair that
 * gives the cheapest price for this parcel among those whose rate offers the chosen options and
 * whose contract is the one of the chosen liability coverage.
 */
export function cheapestChoice(ctx: Acting, draft: ShipmentDraft, problems: Problems): { service?: ServiceRecord; contract?: ContractRecord } {
  const { store } = ctx.rules;
  const code = draft.serviceCode!;
  const { sender_address: from, recipient_address: to } = draft.attributes;
  // Only the services the caller sees: a code only another tenant's pack has is as unknown as any other.
  const services = store
    .all('services')
    .filter((service) => service.code === code && seesTenantRow(store, ctx.principal?.organizationId, service.organization_id));
  if (services.length === 0) {
    problems.add(`No service has the code '${code}'.`, fields.meta('service_code'));
    return {};
  }
  // The chosen options that exist (an unknown one is refused by the option checks whatever the choice).
  const optionIds = draft.options.map((o) => o.id).filter((id) => store.get('serviceOptions', id));
  type Candidate = { service: ServiceRecord; contract: ContractRecord; amount: number };
  let best: Candidate | undefined;
  // A liability coverage is of one contract: only that contract can carry it.
  const coverage = draft.coverageId ? store.get('liabilityCoverages', draft.coverageId) : undefined;
  // A pair whose rate does not offer every chosen option, or whose contract is not the coverage's,
  // would only be refused for it: it is taken only when no pair fits, so that the refusal names why.
  let bestFitting: Candidate | undefined;
  for (const service of services) {
    if (!holdsShipmentAddress(service.regions_from, from) || !holdsShipmentAddress(service.regions_to, to)) continue;
    const carrier = store.get('carriers', service.carrier_id);
    const contracts = store
      .find('contracts', 'carrier_id', service.carrier_id)
      .filter((c) => c.status === 'active' && canSeeContract(store, ctx.principal, c) && (!draft.contractId || c.id === draft.contractId));
    for (const contract of contracts) {
      const physical = withVolumetricWeight(draft.attributes.physical_properties, service, contract);
      const choice = {
        service,
        contract,
        physical,
        optionIds,
        crossBorder: isInternational(draft),
        organizationId: ctx.principal?.organizationId,
        colli: draft.colli,
      };
      // A rate whose size limits the parcel (or a collo) exceeds cannot carry it, as one whose weight range it misses.
      const rate = findRate(store, choice);
      const price = rate && sizeProblems(rate, physical, draft.colli, code).length === 0 && carrier && shipmentPrice(store, choice, carrier.code);
      if (!price) continue;
      const candidate = { service, contract, amount: price.amount };
      if (!best || price.amount < best.amount) best = candidate;
      const offered = rate.service_options;
      const offersAll = optionIds.every((id) => offered.some((option) => option.service_option_id === id));
      const fits = offersAll && (!coverage || coverage.contract_id === contract.id);
      if (fits && (!bestFitting || price.amount < bestFitting.amount)) bestFitting = candidate;
    }
  }
  best = bestFitting ?? best;
  if (!best) {
    problems.add(
      `No service '${code}' ships from ${from.country_code} to ${to.country_code} on an active contract of yours with a rate that takes this parcel (${parcelText(draft.attributes.physical_properties)}${colliText(draft.colli)}).`,
      fields.meta('service_code'),
    );
    return {};
  }
  return { service: best.service, contract: best.contract };
}

/** A parcel as a refusal names it: its weight, and its sides where all three are given. */
function parcelText(physical: ShipmentDraft['attributes']['physical_properties']): string {
  const { weight, length, width, height } = physical;
  return length !== undefined && width !== undefined && height !== undefined ? `${weight} g, ${length} x ${width} x ${height} mm` : `${weight} g`;
}

/** The colli of a multi-colli shipment as a refusal names them: each one's sides count too. */
function colliText(colli: ShipmentDraft['colli']): string {
  if (!colli?.length) return '';
  return `, in ${colli.length} colli: ${colli.map((collo) => parcelText(collo)).join('; ')}`;
}
