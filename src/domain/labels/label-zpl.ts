import type { LabelContent } from './content.js';
import { labelLayout } from './label-layout.js';
import { A6, type BarcodeOp, type BoxOp, type DrawOp, type TextOp } from './layout.js';
import type { LabelSize } from './types.js';

/*
 * ZPL II for Zebra-style thermal printers at 203 dpi (8 dots/mm). The printer draws text in its
 * own scalable font 0 and builds the Code 128 symbol itself from ^BC, so we send the data,
 * not bars. A6 is 832 x 1180 dots; A4 doubles every coordinate (A4 is exactly twice A6).
 */

const A6_DOTS = { width: 832, height: 1180 } as const;

/** Font 0 is condensed; this average glyph width per dot of height keeps estimates safe. */
const GLYPH_WIDTH = 0.6;

export function zplLabel(content: LabelContent, size: LabelSize): string {
  const factor = size === 'A4' ? 2 : 1;
  const scale = (A6_DOTS.width / A6.width) * factor;
  const measure = (text: string, points: number) => [...text].length * points * GLYPH_WIDTH;
  const fields = labelLayout(content, measure).map((op) => field(op, scale));
  return [
    '^XA',
    '^CI28', // field data is UTF-8, so names like Łukasz print as written
    `^PW${A6_DOTS.width * factor}`,
    `^LL${A6_DOTS.height * factor}`,
    '^LH0,0',
    ...fields,
    '^PQ1',
    '^XZ',
    '',
  ].join('\n');
}

function field(op: DrawOp, scale: number): string {
  if (op.kind === 'text') return textField(op, scale);
  if (op.kind === 'box') return boxField(op, scale);
  return barcodeField(op, scale);
}

const dots = (points: number, scale: number) => Math.round(points * scale);

/** One line of text: ^FB gives it a width to align in; ^FR prints it white on a black box. */
function textField(op: TextOp, scale: number): string {
  const height = dots(op.size, scale);
  const justify = op.align === 'center' ? 'C' : op.align === 'right' ? 'R' : 'L';
  const reverse = op.inverse ? '^FR' : '';
  return (
    `^FO${dots(op.x, scale)},${dots(op.y, scale)}${reverse}^A0N,${height},${height}` + `^FB${dots(op.width, scale)},1,0,${justify}${fieldData(op.text)}^FS`
  );
}

/** ^GB draws a box; a border as thick as the box is short fills it. */
function boxField(op: BoxOp, scale: number): string {
  const width = Math.max(1, dots(op.width, scale));
  const height = Math.max(1, dots(op.height, scale));
  const border = op.fill ? Math.min(width, height) : Math.max(1, dots(op.line ?? 1, scale));
  return `^FO${dots(op.x, scale)},${dots(op.y, scale)}^GB${width},${height},${border},B,0^FS`;
}

/**
 * ^BY sets a whole number of dots per module; ^BC in automatic mode (A) lets the printer pick
 * the shortest Code 128 encoding, as bwip-js does for the PDF, so the width matches the layout.
 * The human-readable line is off (N): the layout prints the value under the bars itself.
 */
function barcodeField(op: BarcodeOp, scale: number): string {
  const module = Math.max(2, Math.floor(op.module * scale));
  const centre = (op.x + (op.symbol.modules * op.module) / 2) * scale;
  const left = Math.round(centre - (op.symbol.modules * module) / 2);
  const height = dots(op.height, scale);
  return `^FO${left},${dots(op.y, scale)}^BY${module},3,${height}^BCN,${height},N,N,N,A${fieldData(op.symbol.value)}^FS`;
}

/**
 * ^FD data, hex-escaped with ^FH when it holds the characters ZPL reads as commands, so an
 * address with a caret or tilde cannot inject printer commands.
 */
export function fieldData(text: string): string {
  if (!/[\^~\\]/.test(text)) return `^FD${text}`;
  const escaped = text.replace(/[\^~\\]/g, (char) => `\\${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `^FH\\^FD${escaped}`;
}
