import type { Price } from '../model/common.js';
import type { ContractRecord } from '../model/contract.js';
import type { ServiceRateRecord, WeightBracket } from '../model/service-rate.js';
import type { ServiceRecord } from '../model/service.js';

/**
 * The price rules of service rates, as pure functions. Weights are grams, dimensions
 * millimetres, volumes litres and amounts integer cents of the contract currency.
 */

/** Dimensions of a parcel in millimetres. */
export type Dimensions = { length: number; width: number; height: number };

/**
 * Divisor used when a service says it uses volumetric weight but names no divisor. 5000 is the
 * production default (L x W x H in cm / 5000 gives kilograms), so it is the least surprising.
 */
export const DEFAULT_VOLUMETRIC_DIVISOR = 5000;

/**
 * Price of a weight bracket: `start_amount` up to and including `start` grams, plus
 * `size_amount` for every started `size` grams above `start`.
 * Example: start 6000, start_amount 500, size 2000, size_amount 50, 9000 g -> 500 + 2 x 50 = 600.
 */
export function bracketPrice(bracket: WeightBracket, weight: number): number {
  if (weight <= bracket.start) return bracket.start_amount;
  return bracket.start_amount + Math.ceil((weight - bracket.start) / bracket.size) * bracket.size_amount;
}

/**
 * The divisor a contract applies to a service: the service's divisor times the contract factor
 * (a factor of 1.25 turns 4000 into 5000). Rounded to a millionth so that a factor such as 1.1
 * does not leave a float tail that would push an exact division up by one gram.
 */
export function effectiveDivisor(
  service: Pick<ServiceRecord, 'volumetric_weight_divisor'>,
  contract: Pick<ContractRecord, 'volumetric_weight_divisor_factor'>,
): number {
  const divisor = (service.volumetric_weight_divisor ?? DEFAULT_VOLUMETRIC_DIVISOR) * contract.volumetric_weight_divisor_factor;
  return Math.round(divisor * 1e6) / 1e6;
}

/** Volumetric weight in grams of a parcel: ceil(L x W x H in mm / divisor). 500x300x150 / 5000 -> 4500. */
export function volumetricWeight(dimensions: Dimensions, divisor: number): number {
  return Math.ceil((dimensions.length * dimensions.width * dimensions.height) / divisor);
}

/**
 * Volumetric weight in grams of a volume in litres: one litre is 1,000,000 mm3. The volume is
 * first rounded to whole mm3 so that decimal litres (0.3 x 1e6 = 300000.00000000006) do not
 * gain a gram from float noise.
 */
export function volumeToVolumetricWeight(litres: number, divisor: number): number {
  return Math.ceil(Math.round(litres * 1_000_000) / divisor);
}

/**
 * The weight a service charges for: the higher of the actual and the volumetric weight for
 * services that use volumetric weight, the actual weight for all others.
 */
export function chargeableWeight(service: Pick<ServiceRecord, 'uses_volumetric_weight'>, weight: number, volumetric: number | undefined): number {
  return service.uses_volumetric_weight && volumetric !== undefined ? Math.max(weight, volumetric) : weight;
}

/** Weight and optional dimensions of a parcel, as a shipment's `physical_properties` carry them. */
export type PhysicalProperties = { weight: number; length?: number; width?: number; height?: number };

/**
 * Chargeable weight of a parcel on a service and contract. The volumetric weight only counts
 * when all three dimensions are known (production computes it only then).
 */
export function parcelChargeableWeight(
  service: Pick<ServiceRecord, 'uses_volumetric_weight' | 'volumetric_weight_divisor'>,
  contract: Pick<ContractRecord, 'volumetric_weight_divisor_factor'>,
  parcel: PhysicalProperties,
): number {
  const { length, width, height } = parcel;
  const volumetric =
    length !== undefined && width !== undefined && height !== undefined
      ? volumetricWeight({ length, width, height }, effectiveDivisor(service, contract))
      : undefined;
  return chargeableWeight(service, parcel.weight, volumetric);
}

/** What the rate filters of `GET /service-rates` say about weight; every field is optional. */
export type WeightQuery = { weight?: number; volume?: number; volumetricWeight?: number };

/**
 * The weight that selects a rate's range under the filters, or `undefined` when the filters say
 * nothing about this rate. The volume and volumetric-weight filters only count for services
 * that use volumetric weight; the highest of the given weights wins. So `filter[volume]` or
 * `filter[volumetric_weight]` without `filter[weight]` selects the range of volumetric services
 * by the volumetric weight alone and leaves every other service unfiltered.
 */
export function selectionWeight(
  service: Pick<ServiceRecord, 'uses_volumetric_weight' | 'volumetric_weight_divisor'>,
  contract: Pick<ContractRecord, 'volumetric_weight_divisor_factor'>,
  query: WeightQuery,
): number | undefined {
  const weights = [query.weight];
  if (service.uses_volumetric_weight) {
    weights.push(query.volumetricWeight);
    if (query.volume !== undefined) weights.push(volumeToVolumetricWeight(query.volume, effectiveDivisor(service, contract)));
  }
  const given = weights.filter((weight): weight is number => weight !== undefined);
  return given.length > 0 ? Math.max(...given) : undefined;
}

/** Whether a rate's weight range covers a weight: `weight_min <= weight <= weight_max`. */
export function rateCoversWeight(rate: Pick<ServiceRateRecord, 'weight_min' | 'weight_max'>, weight: number): boolean {
  return rate.weight_min <= weight && weight <= rate.weight_max;
}

/** Whether a rate can carry a weight: in its range, or above it when the rate has step pricing. */
export function rateAcceptsWeight(rate: ServiceRateRecord, weight: number): boolean {
  return rateCoversWeight(rate, weight) || (weight > rate.weight_max && stepCharge(rate, weight) !== undefined);
}

/**
 * Extra charge for weight above `weight_max` on a rate with step pricing: every started
 * `step_size` grams costs `step_price`. Zero at or below `weight_max`; `undefined` when the rate
 * has no step pricing (then it cannot carry more than `weight_max`).
 */
export function stepCharge(rate: Pick<ServiceRateRecord, 'weight_max' | 'step_size' | 'step_price'>, weight: number): number | undefined {
  if (weight <= rate.weight_max) return 0;
  if (!rate.step_size || !rate.step_price) return undefined;
  return Math.ceil((weight - rate.weight_max) / rate.step_size) * rate.step_price.amount;
}

/**
 * Price of a shipment of `weight` (chargeable) grams on a rate, with the chosen service options:
 * the fixed `price` or the bracket price (of at most `weight_max`), plus step pricing above `weight_max`, plus the price of
 * each chosen option the rate offers. Options that are `included`, or that the rate does not
 * offer, add nothing (whether an option may be chosen is the caller's check). Surcharges (fuel,
 * oversize) are not part of it, as the spec says of `price`. `undefined` for a rate without a
 * price of its own (dynamic rates) or a weight above `weight_max` without step pricing.
 */
export function ratePrice(rate: ServiceRateRecord, weight: number, currency: string, optionIds: readonly string[] = []): Price | undefined {
  // Above weight_max step pricing takes over: the bracket stops growing there, or every gram past
  // it would be charged twice (once by the bracket, once by the steps).
  const base = rate.price?.amount ?? (rate.weight_bracket ? bracketPrice(rate.weight_bracket, Math.min(weight, rate.weight_max)) : undefined);
  const steps = stepCharge(rate, weight);
  if (base === undefined || steps === undefined) return undefined;
  const options = optionCharges(rate, optionIds).reduce((sum, option) => sum + option.amount, 0);
  return { amount: base + steps + options, currency: rate.price?.currency ?? currency };
}

/**
 * What each chosen option adds on a rate, in the rate's order: only options the rate offers,
 * that are not `included` and whose price is not zero.
 */
export function optionCharges(rate: Pick<ServiceRateRecord, 'service_options'>, optionIds: readonly string[]): { optionId: string; amount: number }[] {
  return rate.service_options
    .filter((option) => optionIds.includes(option.service_option_id) && !option.included && (option.price?.amount ?? 0) !== 0)
    .map((option) => ({ optionId: option.service_option_id, amount: option.price!.amount }));
}
