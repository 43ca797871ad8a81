import { handoverMethods, type ServiceRecord } from '../../model/service.js';
import type { ServiceRateRecord } from '../../model/service-rate.js';
import type { ChosenOption } from '../../model/shipment.js';
import type { ReadView } from '../../store/store.js';

/*
 * How a parcel reaches the carrier. parcel-api.md: a service's handover_method `collection` means
 * the carrier picks it up at the sender address, `drop-off` that the sender brings it to a
 * pick-up/drop-off location; a service option of category `handover-method`
 * (`handover-method:collection`, `handover-method:drop-off`) changes that for one shipment. Only a
 * parcel the carrier picks up belongs in a collection. The collection time slots, a shipment's
 * `collection` relationship, `meta.add_to_next_collection`, `meta.collection` and
 * POST /add-shipments-to-collection all ask this module, so they cannot disagree.
 */

type HandoverMethod = (typeof handoverMethods)[number];

/** The option that has a drop-off service collected. */
const COLLECTION_OPTION = 'handover-method:collection';

/** The method a handover-method option chooses (`handover-method:<method>`), or none for another option. */
function methodOfOption(store: ReadView, optionId: string): { method: HandoverMethod; code: string } | undefined {
  const option = store.get('serviceOptions', optionId);
  if (option?.category !== 'handover-method') return undefined;
  const method = handoverMethods.find((name) => option.code === `handover-method:${name}`);
  return method && { method, code: option.code };
}

/** Why a shipment is not collected, and whether its service option or its service decided it. */
export type DropOff = { detail: string; by: 'option' | 'service' };

/**
 * Why a shipment of `serviceId` with `options` is not collected, or `undefined` when it is, or
 * when its handover is not known yet (no service and no handover-method option).
 */
export function dropOffOf(store: ReadView, serviceId: string | undefined, options: readonly ChosenOption[], subject: string): DropOff | undefined {
  const chosen = options.map((choice) => methodOfOption(store, choice.id)).find((found) => found !== undefined);
  if (chosen) {
    if (chosen.method !== 'drop-off') return undefined;
    const detail = `${subject} is handed over at a drop-off point (service option '${chosen.code}'): there is nothing to collect. Leave the option out to have it collected.`;
    return { detail, by: 'option' };
  }
  const service = serviceId ? store.get('services', serviceId) : undefined;
  if (service?.handover_method !== 'drop-off') return undefined;
  const detail = `${subject} is handed over at a drop-off point (service '${service.code}' has handover_method drop-off): there is nothing to collect. Choose the service option '${COLLECTION_OPTION}' where the service's rate offers it, or a service handed over by collection.`;
  return { detail, by: 'service' };
}

/**
 * Whether a carrier collects shipments of `service`: a collection service, or a drop-off one that
 * a rate the caller may use offers with `handover-method:collection`.
 */
export function collectsService(store: ReadView, service: ServiceRecord, usable: (rate: ServiceRateRecord) => boolean): boolean {
  if (service.handover_method === 'collection') return true;
  return store
    .find('serviceRates', 'service_id', service.id)
    .some((rate) => usable(rate) && rate.service_options.some((offered) => methodOfOption(store, offered.service_option_id)?.method === 'collection'));
}
