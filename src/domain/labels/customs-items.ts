import { inGrams, type Price } from '../../model/common.js';
import type { Item } from '../../model/shipment.js';
import { formatAmount, formatMoney, formatWeight, oneLine } from './text.js';
import type { LabelData } from './types.js';

/** One row of the CN23 items table, as printed. */
export type ItemRow = [
  number: string,
  description: string,
  quantity: string,
  netWeight: string,
  unitValue: string,
  value: string,
  currency: string,
  hsCode: string,
  origin: string,
];

export const ITEM_COLUMNS: { title: string; width: number; align?: 'right' }[] = [
  { title: 'No.', width: 22 },
  { title: 'Description of contents', width: 145 },
  { title: 'Qty', width: 28, align: 'right' },
  { title: 'Net weight', width: 52, align: 'right' },
  { title: 'Unit value', width: 54, align: 'right' },
  { title: 'Value', width: 56, align: 'right' },
  { title: 'Currency', width: 50 },
  { title: 'HS tariff no.', width: 64 },
  { title: 'Origin', width: 52 },
];

const NONE = '-';

/** `item_value` is the value of one unit, so a row's value is that times the quantity. */
function lineValue(item: Item): Price | undefined {
  return item.item_value && { amount: item.item_value.amount * item.quantity, currency: item.item_value.currency };
}

/** A row's weight in grams: the net weight (grams) or else the item weight (in its unit, g by default), times the quantity. */
function lineWeight(item: Item): number | undefined {
  if (item.nett_weight !== undefined) return item.nett_weight * item.quantity;
  return item.item_weight === undefined ? undefined : inGrams(item.item_weight * item.quantity, item.item_weight_unit ?? 'g');
}

const printedWeight = (grams: number): string => formatWeight(Math.round(grams));

export function itemRows(items: Item[]): ItemRow[] {
  return items.map((item, index) => {
    const value = lineValue(item);
    const weight = lineWeight(item);
    return [
      String(index + 1),
      oneLine(item.description),
      String(item.quantity),
      weight === undefined ? NONE : printedWeight(weight),
      item.item_value ? formatAmount(item.item_value.amount) : NONE,
      value ? formatAmount(value.amount) : NONE,
      value?.currency ?? NONE,
      item.hs_code ?? NONE,
      item.origin_country_code ?? NONE,
    ];
  });
}

/** The totals row: quantities, net weights and values added up. */
export function totalRow(data: LabelData): ItemRow {
  const items = data.items ?? [];
  const quantity = items.reduce((sum, item) => sum + item.quantity, 0);
  const weights = items.map(lineWeight).filter((weight) => weight !== undefined);
  const total = totalValue(data);
  return [
    '',
    'Total',
    String(quantity),
    weights.length > 0 ? printedWeight(weights.reduce((sum, weight) => sum + weight, 0)) : NONE,
    '',
    total ? formatAmount(total.amount) : NONE,
    total?.currency ?? NONE,
    '',
    '',
  ];
}

/**
 * The declared total: the shipment's own `total_value` when it has one, else the sum of the
 * item values, but only when they share one currency (adding EUR to GBP means nothing).
 */
export function totalValue(data: LabelData): Price | undefined {
  if (data.totalValue) return data.totalValue;
  const values = (data.items ?? []).map(lineValue);
  const first = values[0];
  if (!first || values.some((value) => !value || value.currency !== first.currency)) return undefined;
  return { amount: values.reduce((sum, value) => sum + (value?.amount ?? 0), 0), currency: first.currency };
}

export function totalValueText(data: LabelData): string {
  const total = totalValue(data);
  return total ? formatMoney(total) : NONE;
}
