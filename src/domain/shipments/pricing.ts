import type { Price } from '../../model/common.js';
import type { ContractRecord, LiabilityCoverageRecord } from '../../model/contract.js';
import type { ServiceRateRecord } from '../../model/service-rate.js';
import type { ServiceRecord } from '../../model/service.js';
import type { PhysicalProperties } from '../../model/shipment.js';
import type { ReadView } from '../../store/store.js';
import { dynamicPrice } from '../dynamic-rates.js';
import { parcelChargeableWeight, rateAcceptsWeight, ratePrice } from '../rates.js';

/** What decides a shipment's price: its service and contract, parcel, options and coverage. */
export interface PricedChoice {
  service: ServiceRecord;
  contract: ContractRecord;
  physical: PhysicalProperties;
  optionIds: readonly string[];
  coverage?: LiabilityCoverageRecord;
  crossBorder: boolean;
}

/** The rate of a service on a contract that carries the parcel's chargeable weight, if any. */
export function findRate(store: ReadView, choice: Pick<PricedChoice, 'service' | 'contract' | 'physical'>): ServiceRateRecord | undefined {
  const weight = parcelChargeableWeight(choice.service, choice.contract, choice.physical);
  return store
    .find('serviceRates', 'contract_id', choice.contract.id)
    .find((rate) => rate.service_id === choice.service.id && rateAcceptsWeight(rate, weight));
}

/**
 * What the shipment costs: the rate price (fixed, weight bracket or the dynamic carrier formula,
 * with step pricing above the range and the chosen options), plus the rate's fuel surcharge, its
 * oversize surcharge when the longest side exceeds `length_max`, and the liability coverage.
 */
export function shipmentPrice(store: ReadView, choice: PricedChoice, carrierCode: string): Price | undefined {
  const rate = findRate(store, choice);
  if (!rate) return undefined;
  const weight = parcelChargeableWeight(choice.service, choice.contract, choice.physical);
  const base = rate.is_dynamic
    ? dynamicPrice({ carrierCode, weight, crossBorder: choice.crossBorder, currency: choice.contract.currency })
    : ratePrice(rate, weight, choice.contract.currency, choice.optionIds);
  if (!base) return undefined;
  const { length, width, height } = choice.physical;
  const longest = Math.max(length ?? 0, width ?? 0, height ?? 0);
  const oversize = rate.oversize_surcharge && rate.length_max !== undefined && longest > rate.length_max ? rate.oversize_surcharge.amount : 0;
  const amount = base.amount + (rate.fuel_surcharge?.amount ?? 0) + oversize + (choice.coverage?.price.amount ?? 0);
  return { amount, currency: base.currency };
}
