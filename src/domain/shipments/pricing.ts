import type { Price } from '../../model/common.js';
import type { ContractRecord, LiabilityCoverageRecord } from '../../model/contract.js';
import type { ServiceRateRecord } from '../../model/service-rate.js';
import type { ServiceRecord } from '../../model/service.js';
import type { PhysicalProperties } from '../../model/shipment.js';
import type { ReadView } from '../../store/store.js';
import { dynamicPrice } from '../dynamic-rates.js';
import { optionCharges, parcelChargeableWeight, rateAcceptsWeight, ratePrice } from '../rates.js';

/** What decides a shipment's price: its service and contract, parcel, options and coverage. */
export interface PricedChoice {
  service: ServiceRecord;
  contract: ContractRecord;
  physical: PhysicalProperties;
  optionIds: readonly string[];
  coverage?: LiabilityCoverageRecord;
  crossBorder: boolean;
  /** The organization whose carrier surcharges apply. */
  organizationId?: string;
  /** The colli of a multi-colli shipment: the parcels the oversize surcharge is charged for, each on its own. */
  colli?: readonly PhysicalProperties[];
}

/** The rate of a service on a contract that carries the parcel's chargeable weight, if any. */
export function findRate(store: ReadView, choice: Pick<PricedChoice, 'service' | 'contract' | 'physical'>): ServiceRateRecord | undefined {
  const weight = parcelChargeableWeight(choice.service, choice.contract, choice.physical);
  return store.find('serviceRates', 'contract_id', choice.contract.id).find((rate) => rate.service_id === choice.service.id && rateAcceptsWeight(rate, weight));
}

/** One part of a shipment's price on top of its base rate, as a shipment-surcharges row shows it. */
export interface SurchargeLine {
  /** What it is for: `fuel`, `oversize`, `option:<service option id>`, `coverage:<coverage id>`, `carrier-surcharge:<id>`. */
  source: string;
  name: string;
  description?: string;
  amount: number;
}

/** A shipment's price and its parts: the base rate plus every surcharge is the price. */
export interface PriceBreakdown {
  price: Price;
  base: Price;
  surcharges: SurchargeLine[];
}

const money = (price: Price) => `${(price.amount / 100).toFixed(2)} ${price.currency}`;

/**
 * What the shipment costs: the base rate (fixed, weight bracket or the dynamic carrier formula,
 * with step pricing above the range), plus as surcharges the rate's fuel surcharge, its oversize
 * surcharge when the longest side exceeds `length_max`, the price of each chosen option the rate
 * charges for (on a dynamic rate as on any other: the option's price is the rate's, as
 * `service_options` meta shows it), the liability coverage and the organization's carrier surcharges.
 */
export function priceBreakdown(store: ReadView, choice: PricedChoice, carrierCode: string): PriceBreakdown | undefined {
  const rate = findRate(store, choice);
  if (!rate) return undefined;
  const weight = parcelChargeableWeight(choice.service, choice.contract, choice.physical);
  const base = rate.is_dynamic
    ? dynamicPrice({ carrierCode, weight, crossBorder: choice.crossBorder, currency: choice.contract.currency })
    : ratePrice(rate, weight, choice.contract.currency);
  if (!base) return undefined;
  const surcharges: SurchargeLine[] = [];
  if (rate.fuel_surcharge?.amount) {
    surcharges.push({ source: 'fuel', name: 'Fuel surcharge', description: "The carrier's fuel surcharge on this rate.", amount: rate.fuel_surcharge.amount });
  }
  const oversize = oversizeLine(rate, choice);
  if (oversize) surcharges.push(oversize);
  // A dynamic rate too: the carrier formula prices the parcel only, and the rate names what each option adds.
  for (const { optionId, amount } of optionCharges(rate, choice.optionIds)) {
    const option = store.get('serviceOptions', optionId);
    surcharges.push({
      source: `option:${optionId}`,
      name: option?.name ?? 'Service option',
      description: option && `Service option ${option.code}.`,
      amount,
    });
  }
  const coverage = choice.coverage;
  if (coverage?.price.amount) {
    surcharges.push({
      source: `coverage:${coverage.id}`,
      name: coverage.name,
      description: `Liability coverage up to ${money(coverage.coverage_max)}.`,
      amount: coverage.price.amount,
    });
  }
  surcharges.push(...carrierSurchargeLines(store, choice, base.currency));
  const amount = surcharges.reduce((sum, line) => sum + line.amount, base.amount);
  return { price: { amount, currency: base.currency }, base, surcharges };
}

const longestSide = ({ length, width, height }: PhysicalProperties) => Math.max(length ?? 0, width ?? 0, height ?? 0);

/**
 * The rate's oversize surcharge, when the longest side exceeds its `length_max`: once for the
 * parcel, or once for every collo that does of a multi-colli shipment (the carrier handles each).
 */
function oversizeLine(rate: ServiceRateRecord, choice: PricedChoice): SurchargeLine | undefined {
  const max = rate.length_max;
  const fee = rate.oversize_surcharge?.amount;
  if (!fee || max === undefined) return undefined;
  if (!choice.colli?.length) {
    const longest = longestSide(choice.physical);
    if (longest <= max) return undefined;
    return { source: 'oversize', name: 'Oversize surcharge', description: `The longest side (${longest} mm) exceeds the ${max} mm of the rate.`, amount: fee };
  }
  const over = choice.colli.flatMap((collo, index) => (longestSide(collo) > max ? [index + 1] : []));
  if (over.length === 0) return undefined;
  const which = over.length === 1 ? `Collo ${over[0]} has` : `Colli ${over.join(', ')} have`;
  const description = `${which} a longest side above the ${max} mm of the rate: the surcharge is charged for each.`;
  return { source: 'oversize', name: 'Oversize surcharge', description, amount: fee * over.length };
}

/** The organization's carrier surcharges on the contract's carrier, in the price's currency (fees are not converted). */
function carrierSurchargeLines(store: ReadView, choice: PricedChoice, currency: string): SurchargeLine[] {
  if (!choice.organizationId) return [];
  return store
    .find('carrierSurcharges', 'organization_id', choice.organizationId)
    .filter((row) => row.carrier_id === choice.contract.carrier_id && row.fee.currency === currency && row.fee.amount !== 0)
    .map((row) => ({ source: `carrier-surcharge:${row.id}`, name: row.name, description: row.description, amount: row.fee.amount }));
}

/**
 * Why a computed price cannot be charged, or `undefined`. Rates, coverages and carrier surcharges
 * take any integer amount, and step pricing multiplies by the weight, so a sum can pass 2^53,
 * where JavaScript numbers stop being exact (and production's contract stops); and a carrier
 * surcharge may be a discount larger than the rest of the price.
 */
export function priceProblem(breakdown: PriceBreakdown): string | undefined {
  const parts = [breakdown.price.amount, breakdown.base.amount, ...breakdown.surcharges.map((line) => line.amount)];
  if (!parts.every(Number.isSafeInteger)) return `comes to more than ${Number.MAX_SAFE_INTEGER} cents: no exact price can be given`;
  if (breakdown.price.amount < 0) return `comes to ${breakdown.price.amount} cents: a price cannot be below zero`;
  return undefined;
}

/** What the shipment costs in all; see `priceBreakdown`. */
export function shipmentPrice(store: ReadView, choice: PricedChoice, carrierCode: string): Price | undefined {
  const breakdown = priceBreakdown(store, choice, carrierCode);
  return breakdown && !priceProblem(breakdown) ? breakdown.price : undefined;
}
