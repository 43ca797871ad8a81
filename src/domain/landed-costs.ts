import type { Price } from '../model/common.js';
import type { HsCodeEntry, ImportRules } from '../model/reference.js';
import { DomainError, type Field, type Problem } from './errors.js';
import { suggestHsCodes } from './hs-codes.js';

/** The reference tables the calculation reads. */
export interface LandedCostTables {
  rules: Readonly<Record<string, ImportRules>>;
  /** Countries of a shared customs territory other than their own code (the EU). */
  territories: Readonly<Record<string, string>>;
  /** Euros per unit of each currency. */
  rates: Readonly<Record<string, number>>;
  hsCodes: readonly HsCodeEntry[];
}

export interface LandedCostRequest {
  sender_country_code: string;
  recipient_country_code: string;
  shipping_value?: Price;
  items: readonly { description: string; item_value: Price; hs_code?: string; sku?: string }[];
  /** Answer in the destination's currency (default), or in the one currency of the values sent. */
  convert: boolean;
}

interface LandedCostItem {
  description: string;
  item_value: Price;
  hs_code: string;
  duty: Price;
  tax: Price;
}

export interface LandedCosts {
  items: LandedCostItem[];
  total_duty: Price;
  total_tax: Price;
}

/** The money of a request with where it was sent, for conversion and for pointing at problems. */
const valuesOf = (request: LandedCostRequest) => [
  ...request.items.map((item, index) => ({ price: item.item_value, field: { input: `items[${index}].item_value.currency` } as Field })),
  ...(request.shipping_value ? [{ price: request.shipping_value, field: { input: 'shipping_value.currency' } as Field }] : []),
];

/** Splits `total` over `weights` in whole cents that add up to it exactly (largest remainder first). */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0 || total === 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (total * weight) / sum);
  const shares = exact.map(Math.floor);
  const order = exact.map((value, index) => ({ index, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest || a.index - b.index);
  for (let left = total - shares.reduce((a, b) => a + b, 0), i = 0; left > 0; left--, i++) shares[order[i % order.length]!.index]! += 1;
  return shares;
}

/** The checks before any arithmetic; every problem of the request at once. */
function validate(tables: LandedCostTables, request: LandedCostRequest): { rules: ImportRules; currency: string; hsCodes: string[] } {
  const problems: Problem[] = [];
  const rules = tables.rules[request.recipient_country_code];
  if (!rules) {
    const known = Object.keys(tables.rules).join(', ');
    problems.push({
      detail: `Landed costs are computed for imports into ${known}; not into ${request.recipient_country_code}.`,
      field: { input: 'recipient_country_code' },
    });
  }
  const values = valuesOf(request);
  for (const { price, field } of values) {
    if (tables.rates[price.currency] === undefined) {
      problems.push({ detail: `The sandbox prices in ${Object.keys(tables.rates).join(', ')}; not in ${price.currency}.`, field });
    }
  }
  const currency = request.convert ? (rules?.currency ?? '') : values[0]!.price.currency;
  if (!request.convert) {
    const other = values.find(({ price }) => price.currency !== currency);
    if (other)
      problems.push({
        detail: `Without convert_to_destination_currency every value must be in one currency (${currency}).`,
        field: other.field,
      });
  }
  const hsCodes = request.items.map((item, index) => {
    const code = item.hs_code ?? suggestHsCodes(tables.hsCodes, item.description, 1)[0]?.hs_code;
    if (!code)
      problems.push({
        detail: `No HS code matches '${item.description.slice(0, 60)}'; send the item's hs_code.`,
        field: { input: `items[${index}].description` },
      });
    return code ?? '';
  });
  if (problems.length > 0) throw new DomainError('unprocessable', problems);
  return { rules: rules!, currency, hsCodes };
}

const chapterOf = (hsCode: string) => hsCode.replace(/\D/g, '').slice(0, 2);

/**
 * Duties and import taxes of a consignment, per item and in total (the totals are the sums of the
 * items, to the cent). Values are converted with the seeded exchange rates. Nothing is charged
 * within one customs territory (the EU, or one country). Otherwise duty is charged on consignments
 * worth more than the destination's duty-free value, at the rate of each item's HS chapter, on the
 * item's value plus its share of the shipping where the destination counts it; import VAT on
 * consignments worth more than the tax-free value, at the (reduced) rate of the chapter, on value,
 * shipping share and duty. Items without an hs_code take the best match of their description.
 */
export function landedCosts(tables: LandedCostTables, request: LandedCostRequest): LandedCosts {
  const { rules, currency, hsCodes } = validate(tables, request);
  const convert = (price: Price) => Math.round((price.amount * tables.rates[price.currency]!) / tables.rates[currency]!);
  const inTarget = (amount: number, from: string) => Math.round((amount * tables.rates[from]!) / tables.rates[currency]!);
  const values = request.items.map((item) => convert(item.item_value));
  const shipping = allocate(request.shipping_value ? convert(request.shipping_value) : 0, values);
  const territory = (country: string) => tables.territories[country] ?? country;
  const imported = territory(request.sender_country_code) !== territory(request.recipient_country_code);
  const consignment = values.reduce((a, b) => a + b, 0);
  const dutiable = imported && consignment > inTarget(rules.dutyFreeUpTo, rules.currency);
  const taxable = imported && rules.vat > 0 && consignment > inTarget(rules.taxFreeUpTo, rules.currency);
  const money = (amount: number): Price => ({ amount, currency });
  const items = request.items.map((item, index) => {
    const chapter = chapterOf(hsCodes[index]!);
    const base = values[index]!;
    const dutyRate = rules.duties.chapters[chapter] ?? rules.duties.default;
    const duty = dutiable ? Math.round(((base + (rules.dutyOnShipping ? shipping[index]! : 0)) * dutyRate) / 100) : 0;
    const vat = rules.reducedVat?.chapters.includes(chapter) ? rules.reducedVat.rate : rules.vat;
    const tax = taxable ? Math.round(((base + shipping[index]! + duty) * vat) / 100) : 0;
    return { description: item.description, item_value: money(base), hs_code: hsCodes[index]!, duty: money(duty), tax: money(tax) };
  });
  const total = (key: 'duty' | 'tax') => money(items.reduce((sum, item) => sum + item[key].amount, 0));
  return { items, total_duty: total('duty'), total_tax: total('tax') };
}
