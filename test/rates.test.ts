import { describe, expect, it } from 'vitest';
import { carrierFactorPercent, dynamicPrice } from '../src/domain/dynamic-rates.js';
import {
  bracketPrice,
  chargeableWeight,
  effectiveDivisor,
  parcelChargeableWeight,
  rateAcceptsWeight,
  rateCoversWeight,
  ratePrice,
  selectionWeight,
  stepCharge,
  volumeToVolumetricWeight,
  volumetricWeight,
} from '../src/domain/rates.js';
import type { ServiceRateRecord } from '../src/model/service-rate.js';

const eur = (amount: number) => ({ amount, currency: 'EUR' });
const bracket = { start: 2000, start_amount: 625, size: 1000, size_amount: 45 };
const volumetric = { uses_volumetric_weight: true, volumetric_weight_divisor: 4000 };
const plain = { uses_volumetric_weight: false };
const factor = (volumetric_weight_divisor_factor: number) => ({ volumetric_weight_divisor_factor });

function rate(extra: Partial<ServiceRateRecord> = {}): ServiceRateRecord {
  return {
    id: 'r',
    contract_id: 'c',
    service_id: 's',
    weight_min: 0,
    weight_max: 20000,
    is_dynamic: false,
    includes_vat: false,
    service_options: [],
    ...extra,
  };
}

describe('bracketPrice', () => {
  it('charges start_amount up to and including start', () => {
    expect(bracketPrice(bracket, 0)).toBe(625);
    expect(bracketPrice(bracket, 2000)).toBe(625);
  });

  it('adds size_amount for every started size above start', () => {
    expect(bracketPrice(bracket, 2001)).toBe(670);
    expect(bracketPrice(bracket, 3000)).toBe(670);
    expect(bracketPrice(bracket, 3001)).toBe(715);
  });

  it('matches the spec example: 9 kg on start 6000 / 500, size 2000 / 50 costs 600', () => {
    expect(bracketPrice({ start: 6000, start_amount: 500, size: 2000, size_amount: 50 }, 9000)).toBe(600);
  });
});

describe('volumetric weight', () => {
  it('is ceil(L x W x H / divisor): 500x300x150 mm with 5000 is 4500 g', () => {
    expect(volumetricWeight({ length: 500, width: 300, height: 150 }, 5000)).toBe(4500);
    expect(volumetricWeight({ length: 501, width: 300, height: 150 }, 5000)).toBe(4509);
  });

  it('uses the service divisor times the contract factor (1.25 x 4000 = 5000)', () => {
    expect(effectiveDivisor(volumetric, factor(1))).toBe(4000);
    expect(effectiveDivisor(volumetric, factor(1.25))).toBe(5000);
    expect(effectiveDivisor({ volumetric_weight_divisor: 6000 }, factor(1.1))).toBe(6600);
    expect(effectiveDivisor({}, factor(1))).toBe(5000);
  });

  it('converts litres to grams: 22.5 l with 5000 is 4500 g, 0.3 l is exactly 60 g', () => {
    expect(volumeToVolumetricWeight(22.5, 5000)).toBe(4500);
    expect(volumeToVolumetricWeight(0.3, 5000)).toBe(60);
    expect(volumeToVolumetricWeight(20, 6000)).toBe(3334);
    expect(volumeToVolumetricWeight(20, 7500)).toBe(2667);
  });
});

describe('chargeable weight', () => {
  it('is the higher of actual and volumetric weight for volumetric services only', () => {
    expect(chargeableWeight(volumetric, 1000, 4500)).toBe(4500);
    expect(chargeableWeight(volumetric, 5000, 4500)).toBe(5000);
    expect(chargeableWeight(volumetric, 1000, undefined)).toBe(1000);
    expect(chargeableWeight(plain, 1000, 4500)).toBe(1000);
  });

  it('counts the dimensions of a parcel only when all three are known', () => {
    const parcel = { weight: 1000, length: 500, width: 300, height: 150 };
    expect(parcelChargeableWeight(volumetric, factor(1.25), parcel)).toBe(4500);
    expect(parcelChargeableWeight(volumetric, factor(1), parcel)).toBe(5625);
    expect(parcelChargeableWeight(plain, factor(1), parcel)).toBe(1000);
    expect(parcelChargeableWeight(volumetric, factor(1), { weight: 1000, length: 500, width: 300 })).toBe(1000);
  });

  it('selects a range by the highest given weight, volume counting only for volumetric services', () => {
    expect(selectionWeight(volumetric, factor(1), { weight: 1000, volume: 20 })).toBe(5000);
    expect(selectionWeight(volumetric, factor(1), { weight: 1000, volumetricWeight: 3000 })).toBe(3000);
    expect(selectionWeight(volumetric, factor(1), { volume: 20 })).toBe(5000);
    expect(selectionWeight(plain, factor(1), { weight: 1000, volume: 20, volumetricWeight: 9000 })).toBe(1000);
    expect(selectionWeight(plain, factor(1), { volume: 20 })).toBeUndefined();
    expect(selectionWeight(volumetric, factor(1), {})).toBeUndefined();
  });
});

describe('rate coverage and price', () => {
  it('covers weight_min <= w <= weight_max', () => {
    const r = rate({ weight_min: 2001, weight_max: 5000 });
    expect([2000, 2001, 5000, 5001].map((w) => rateCoversWeight(r, w))).toEqual([false, true, true, false]);
  });

  it('prices a plain rate, a bracket rate and a dynamic rate', () => {
    expect(ratePrice(rate({ price: eur(695) }), 1500, 'EUR')).toEqual(eur(695));
    expect(ratePrice(rate({ weight_bracket: bracket }), 3001, 'EUR')).toEqual(eur(715));
    expect(ratePrice(rate({ is_dynamic: true }), 3001, 'EUR')).toBeUndefined();
  });

  it('adds step pricing for every started step_size above weight_max', () => {
    const stepped = rate({ weight_max: 20000, price: eur(2650), step_size: 1000, step_price: eur(150) });
    expect(stepCharge(stepped, 20000)).toBe(0);
    expect(ratePrice(stepped, 20001, 'EUR')).toEqual(eur(2800));
    expect(ratePrice(stepped, 21000, 'EUR')).toEqual(eur(2800));
    expect(ratePrice(stepped, 21001, 'EUR')).toEqual(eur(2950));
    expect(rateAcceptsWeight(stepped, 50000)).toBe(true);
    expect(rateAcceptsWeight(rate({ price: eur(1) }), 20001)).toBe(false);
    expect(ratePrice(rate({ price: eur(1) }), 20001, 'EUR')).toBeUndefined();
  });

  it('adds the prices of chosen options, but not of included or unoffered ones', () => {
    const r = rate({
      price: eur(1000),
      service_options: [
        { service_option_id: 'evening', price: eur(95), included: false },
        { service_option_id: 'signature', included: true },
      ],
    });
    expect(ratePrice(r, 100, 'EUR', ['evening'])).toEqual(eur(1095));
    expect(ratePrice(r, 100, 'EUR', ['evening', 'signature', 'unknown'])).toEqual(eur(1095));
    expect(ratePrice(r, 100, 'GBP', [])).toEqual(eur(1000));
    expect(ratePrice(rate({ weight_bracket: bracket }), 100, 'GBP')).toEqual({ amount: 625, currency: 'GBP' });
  });
});

describe('dynamicPrice', () => {
  it('is deterministic and follows the documented formula', () => {
    const input = { carrierCode: 'dhl-express', weight: 2500, crossBorder: true, currency: 'EUR' };
    const percent = carrierFactorPercent('dhl-express');
    expect(percent).toBeGreaterThanOrEqual(80);
    expect(percent).toBeLessThanOrEqual(140);
    expect(dynamicPrice(input)).toEqual(dynamicPrice({ ...input }));
    expect(dynamicPrice(input)).toEqual({ amount: Math.round(((1495 + 185 * 3) * percent) / 100), currency: 'EUR' });
    expect(dynamicPrice({ ...input, crossBorder: false }).amount).toBe(Math.round(((695 + 95 * 3) * percent) / 100));
  });

  it('charges more for more weight and for crossing a border', () => {
    const base = { carrierCode: 'dhl-express', weight: 1000, crossBorder: false, currency: 'GBP' };
    expect(dynamicPrice({ ...base, weight: 1001 }).amount).toBeGreaterThan(dynamicPrice(base).amount);
    expect(dynamicPrice({ ...base, crossBorder: true }).amount).toBeGreaterThan(dynamicPrice(base).amount);
  });
});
