import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/*
 * DejaVu Sans is embedded in the PDFs and drawn into the PNGs. The PDF standard fonts only
 * cover Western European letters, and addresses are written in many more (Łódź, Øresund,
 * Ελλάδα); one font in both formats also keeps their text the same width, so layout is shared.
 */

const require = createRequire(import.meta.url);

export const FONT_PATHS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
} as const;

/** Ascender of DejaVu Sans as a share of the font size (1901 / 2048 units). */
export const ASCENT = 1901 / 2048;

let cache: { regular: Buffer; bold: Buffer } | undefined;

/** The font files, read once per process: every PDF embeds a subset of them. */
export function fontData(): { regular: Buffer; bold: Buffer } {
  cache ??= { regular: readFileSync(FONT_PATHS.regular), bold: readFileSync(FONT_PATHS.bold) };
  return cache;
}
