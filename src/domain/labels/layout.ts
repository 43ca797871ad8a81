import type { LinearBarcode } from './barcode.js';

/*
 * A label is laid out once as a list of drawing operations in PDF points on an A6 page, and
 * each output format (PDF, PNG, ZPL) only translates those operations. That keeps one layout
 * for three formats and keeps the renderers small.
 */

/** A6 portrait in PDF points (105 x 148 mm). */
export const A6 = { width: 297.64, height: 419.53 } as const;
/** A4 portrait in PDF points (210 x 297 mm). */
export const A4 = { width: 595.28, height: 841.89 } as const;

/** One line of text; `y` is the top of the line box, `width` the room it may take. */
export interface TextOp {
  kind: 'text';
  x: number;
  y: number;
  width: number;
  size: number;
  text: string;
  bold?: boolean;
  align?: 'left' | 'center' | 'right';
  /** White text, for printing on a filled box. */
  inverse?: boolean;
}

/** A rectangle, filled black or stroked with `line` points. */
export interface BoxOp {
  kind: 'box';
  x: number;
  y: number;
  width: number;
  height: number;
  fill?: boolean;
  line?: number;
}

/** A linear barcode: `x` is its left edge (quiet zone excluded), `module` the bar unit. */
export interface BarcodeOp {
  kind: 'barcode';
  x: number;
  y: number;
  height: number;
  module: number;
  symbol: LinearBarcode;
}

export type DrawOp = TextOp | BoxOp | BarcodeOp;

/** Width of `text` at `size` points, in points, as the target renderer would draw it. */
export type Measure = (text: string, size: number, bold: boolean) => number;

/** Text sizes may shrink to this share of the asked size before the text is cut. */
const MIN_SCALE = 0.75;

/**
 * Makes a text operation fit its width: first by shrinking the font a little, then by cutting
 * the text with "...". Printed labels cannot scroll, and overlapping text is unreadable.
 */
export function fitText(op: TextOp, measure: Measure): TextOp {
  const bold = op.bold ?? false;
  const natural = measure(op.text, op.size, bold);
  if (natural <= op.width) return op;
  const smallest = op.size * MIN_SCALE;
  const fits = (size: number) => measure(op.text, size, bold) <= op.width;
  const guess = Math.max(smallest, (op.size * op.width) / natural);
  if (fits(guess)) return { ...op, size: guess };
  // The PNG renderer only has whole-pixel font sizes, so its widths are not proportional to the
  // size and the guess can miss by a pixel where a slightly smaller size fits: the largest size
  // that fits, found at a bounded number of measures, rather than a cut address.
  if (guess > smallest && fits(smallest)) return { ...op, size: largestFittingSize(smallest, guess, fits) };
  const size = smallest;
  const text = op.text.slice(
    0,
    longestFitting(op.text.length, (length) => measure(`${op.text.slice(0, length)}...`, size, bold) <= op.width),
  );
  return { ...op, size, text: `${text.trimEnd()}...` };
}

/** Halvings of the size range between the smallest size, which fits, and one that does not. */
const SIZE_STEPS = 8;

/** The largest size in [low, high) that `fits`, where `low` fits and `high` does not, to 1/256 of the range. */
function largestFittingSize(low: number, high: number, fits: (size: number) => boolean): number {
  for (let step = 0; step < SIZE_STEPS; step++) {
    const middle = (low + high) / 2;
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/**
 * The longest prefix length (at least 1) of a text of `length` characters that `fits`, found by
 * halving: a prefix one character longer is never narrower (a zero-width mark aside, where the
 * answer may be a character shorter), so it is the one that cutting a character at a time finds. Cutting one at a time measured a 255-character name ~250 times (each a
 * text layout), a quarter of a label's rendering for long hostile names; halving measures it 8 times.
 */
function longestFitting(length: number, fits: (length: number) => boolean): number {
  let low = 1;
  let high = length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Splits `text` into at most `maxLines` lines of `width` at word boundaries; the last line
 * keeps the rest (and is cut by `fitText` if it is still too long).
 */
export function wrapWords(text: string, width: number, size: number, measure: Measure, maxLines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (const [index, word] of words.entries()) {
    const candidate = current === '' ? word : `${current} ${word}`;
    if (current !== '' && measure(candidate, size, false) > width) {
      lines.push(current);
      if (lines.length === maxLines - 1) return [...lines, words.slice(index).join(' ')];
      current = word;
    } else {
      current = candidate;
    }
  }
  return current === '' ? lines : [...lines, current];
}
