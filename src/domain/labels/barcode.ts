import bwipjs from 'bwip-js';

/** A bar of a linear barcode, in modules (the narrowest bar width) from the left edge. */
export interface Bar {
  start: number;
  width: number;
}

export interface LinearBarcode {
  value: string;
  /** Width of the symbol in modules, without quiet zones. */
  modules: number;
  bars: Bar[];
}

/** Quiet zone each side, in modules; Code 128 asks for at least 10. */
export const QUIET_ZONE = 10;

/**
 * Encodes `value` as Code 128 with bwip-js and returns the bars, not a picture: each renderer
 * draws them itself (vector rectangles in a PDF, whole pixels in a PNG), so the barcode stays
 * sharp at any size instead of being a scaled bitmap.
 */
export function code128(value: string): LinearBarcode {
  const [symbol] = bwipjs.raw('code128', value, {});
  if (!symbol || !('sbs' in symbol)) throw new Error(`cannot encode "${value}" as Code 128`);
  const bars: Bar[] = [];
  let position = 0;
  // `sbs` alternates bar and space widths, starting with a bar.
  symbol.sbs.forEach((width, index) => {
    if (index % 2 === 0) bars.push({ start: position, width });
    position += width;
  });
  return { value, modules: position, bars };
}
