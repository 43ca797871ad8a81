import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';
import * as mupdf from 'mupdf';
import { PNG } from 'pngjs';

/*
 * Test helpers that read rendered documents the way a person or a scanner would: mupdf (WASM)
 * opens and rasterises PDFs, pngjs decodes PNGs, and ZXing (pure JS) reads barcodes from the
 * pixels. Nothing here knows how the documents were drawn.
 */

export interface PdfPage {
  width: number;
  height: number;
  text: string;
}

/** A grey-scale image, one byte per pixel, rows without padding. */
export interface GreyImage {
  width: number;
  height: number;
  pixels: Uint8ClampedArray;
}

function open(pdf: Buffer): mupdf.Document {
  return mupdf.Document.openDocument(pdf, 'application/pdf');
}

/** Size in points and extracted text of every page. */
export function readPdf(pdf: Buffer): PdfPage[] {
  const doc = open(pdf);
  const pages: PdfPage[] = [];
  for (let index = 0; index < doc.countPages(); index++) {
    const page = doc.loadPage(index);
    const [x0, y0, x1, y1] = page.getBounds();
    pages.push({ width: x1 - x0, height: y1 - y0, text: page.toStructuredText('preserve-whitespace').asText() });
  }
  return pages;
}

/** Rasterises one page at `scale` pixels per point (2 = 144 dpi), in grey. */
export function renderPdfPage(pdf: Buffer, index = 0, scale = 2): GreyImage {
  const page = open(pdf).loadPage(index);
  const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false);
  return withoutStride(pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride(), pixmap.getPixels());
}

function withoutStride(width: number, height: number, stride: number, data: Uint8ClampedArray): GreyImage {
  if (stride === width) return { width, height, pixels: new Uint8ClampedArray(data) };
  const pixels = new Uint8ClampedArray(width * height);
  for (let row = 0; row < height; row++) pixels.set(data.subarray(row * stride, row * stride + width), row * width);
  return { width, height, pixels };
}

/** Decodes a PNG file (any colour type) to grey pixels. */
export function readPng(png: Buffer): GreyImage {
  const image = PNG.sync.read(png);
  const pixels = new Uint8ClampedArray(image.width * image.height);
  for (let index = 0; index < pixels.length; index++) {
    const offset = index * 4;
    pixels[index] = (image.data[offset]! + image.data[offset + 1]! + image.data[offset + 2]!) / 3;
  }
  return { width: image.width, height: image.height, pixels };
}

/**
 * Scans the whole image for a Code 128 barcode and returns its text, or throws when none is
 * readable: the same search a handheld scanner does, with no hint of where the barcode is.
 */
export function decodeCode128(image: GreyImage): string {
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  const source = new RGBLuminanceSource(image.pixels, image.width, image.height);
  const result = new MultiFormatReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints);
  if (result.getBarcodeFormat() !== BarcodeFormat.CODE_128) throw new Error('not a Code 128 barcode');
  return result.getText();
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
