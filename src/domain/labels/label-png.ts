import { PNG } from 'pngjs';
import * as PImage from 'pureimage';
import type { BarcodeOp, BoxOp, DrawOp, TextOp } from './layout.js';
import { A4, A6 } from './layout.js';
import { labelLayout } from './label-layout.js';
import { ASCENT, FONT_PATHS } from './fonts.js';
import type { LabelContent } from './content.js';
import type { LabelSize } from './types.js';

type Bitmap = ReturnType<typeof PImage.make>;
type Context = ReturnType<Bitmap['getContext']>;

/** Thermal label printers print 203 dots per inch; a PDF point is 1/72 inch. */
const DPI = 203;
const SCALE = DPI / 72;
const FAMILY = { regular: 'LabelSans', bold: 'LabelSans-Bold' } as const;

let fontsLoaded = false;

/** pureimage keeps fonts in one registry per process, so they are parsed only once. */
function loadFonts(): void {
  if (fontsLoaded) return;
  PImage.registerFont(FONT_PATHS.regular, FAMILY.regular).loadSync();
  PImage.registerFont(FONT_PATHS.bold, FAMILY.bold).loadSync();
  fontsLoaded = true;
}

/**
 * The label as a grey-scale PNG at 203 dpi, drawn from the same layout as the PDF with a pure
 * JavaScript rasteriser (pureimage): text, boxes, and bars snapped to whole pixels so the
 * barcode stays scannable. On A4 the label takes the top-left quadrant, as in the PDF.
 */
export function pngLabel(content: LabelContent, size: LabelSize): Buffer {
  loadFonts();
  const page = size === 'A4' ? A4 : A6;
  const bitmap = PImage.make(Math.round(page.width * SCALE), Math.round(page.height * SCALE));
  bitmap.data.fill(255);
  const ctx = bitmap.getContext('2d');
  for (const op of labelLayout(content, pngMeasure(ctx))) draw(ctx, op);
  if (size === 'A4') cutLines(ctx);
  const data = Buffer.from(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.byteLength);
  // pngjs only reads width, height and data; grey-scale keeps the file small.
  return PNG.sync.write({ width: bitmap.width, height: bitmap.height, data } as unknown as PNG, { colorType: 0 });
}

/** pureimage only takes whole pixel font sizes, so text is measured at the size it will get. */
function pixelSize(points: number): number {
  return Math.max(1, Math.floor(points * SCALE));
}

function setFont(ctx: Context, points: number, bold: boolean): void {
  ctx.font = `${pixelSize(points)} ${bold ? FAMILY.bold : FAMILY.regular}`;
}

function pngMeasure(ctx: Context) {
  return (text: string, size: number, bold: boolean): number => {
    setFont(ctx, size, bold);
    return ctx.measureText(text).width / SCALE;
  };
}

function draw(ctx: Context, op: DrawOp): void {
  if (op.kind === 'text') drawText(ctx, op);
  else if (op.kind === 'box') drawBox(ctx, op);
  else drawBars(ctx, op);
}

function drawText(ctx: Context, op: TextOp): void {
  setFont(ctx, op.size, op.bold ?? false);
  const width = ctx.measureText(op.text).width;
  const room = op.width * SCALE;
  const offset = op.align === 'center' ? (room - width) / 2 : op.align === 'right' ? room - width : 0;
  ctx.fillStyle = op.inverse ? '#ffffff' : '#000000';
  ctx.fillText(op.text, op.x * SCALE + offset, (op.y + op.size * ASCENT) * SCALE);
}

/** Boxes are drawn as whole-pixel filled rectangles: crisp edges, no anti-aliasing grey. */
function drawBox(ctx: Context, op: BoxOp): void {
  const [x, y] = [Math.round(op.x * SCALE), Math.round(op.y * SCALE)];
  const [w, h] = [Math.round(op.width * SCALE), Math.max(1, Math.round(op.height * SCALE))];
  ctx.fillStyle = '#000000';
  if (op.fill) {
    ctx.fillRect(x, y, w, h);
    return;
  }
  const t = Math.max(1, Math.round((op.line ?? 1) * SCALE));
  ctx.fillRect(x, y, w, t);
  ctx.fillRect(x, y + h - t, w, t);
  ctx.fillRect(x, y, t, h);
  ctx.fillRect(x + w - t, y, t, h);
}

/** Bars get a whole number of pixels per module, centred where the layout put the symbol. */
function drawBars(ctx: Context, op: BarcodeOp): void {
  const module = Math.max(1, Math.floor(op.module * SCALE));
  const centre = (op.x + (op.symbol.modules * op.module) / 2) * SCALE;
  const left = Math.round(centre - (op.symbol.modules * module) / 2);
  const [top, height] = [Math.round(op.y * SCALE), Math.round(op.height * SCALE)];
  ctx.fillStyle = '#000000';
  for (const bar of op.symbol.bars) ctx.fillRect(left + bar.start * module, top, bar.width * module, height);
}

/** Dashed cut lines along the label's inner edges on A4, as in the PDF. */
function cutLines(ctx: Context): void {
  const [right, bottom, dash] = [Math.round(A6.width * SCALE), Math.round(A6.height * SCALE), Math.round(4 * SCALE)];
  ctx.fillStyle = '#888888';
  for (let at = 0; at < bottom; at += 2 * dash) ctx.fillRect(right, at, 1, Math.min(dash, bottom - at));
  for (let at = 0; at < right; at += 2 * dash) ctx.fillRect(at, bottom, Math.min(dash, right - at), 1);
}
