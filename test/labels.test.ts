import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { A4, A6, renderCustomsDocument, renderLabel, type LabelData } from '../src/domain/labels/index.js';
import { itemRows, totalRow } from '../src/domain/labels/customs-items.js';
import { fitText } from '../src/domain/labels/layout.js';
import { boundedSubsets, boundedWords, glyphsOfTheirText, MAX_GLYPH_VARIANTS, MAX_SUBSETS, MAX_WORD_LENGTH, MAX_WORDS } from '../src/domain/labels/pdf.js';
import { decodeCode128, PNG_SIGNATURE, readPdf, readPng, renderPdfPage } from './support/pdf.js';
import { cliEntry } from './support/server.js';

let labelsBundle: Promise<string> | undefined;

/**
 * The labels module (src/domain/labels/index.ts) bundled once, for the tests that render in a new
 * process: beside this run's server bundle, so that its packages (pdfkit, the DejaVu fonts) resolve
 * from node_modules as the server's do. Through tsx, each new process compiled the labels' sources
 * again: ~1.6 s of CPU to load them against ~0.5 s for the bundle.
 */
function labelsModule(): Promise<string> {
  labelsBundle ??= (async () => {
    const outfile = join(dirname(cliEntry()[0]!), '..', `labels-${randomUUID()}.mjs`);
    await build({
      entryPoints: [fileURLToPath(new URL('../src/domain/labels/index.ts', import.meta.url))],
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'error',
    });
    return outfile;
  })();
  return labelsBundle;
}

/** 2025-03-14 09:30:00 UTC. */
const REGISTERED_AT = 1741944600;

const international: LabelData = {
  shipmentId: '0b7e4c1a-6f0d-4c3e-9a52-1d2b3c4d5e6f',
  trackingCode: '3SSBX480271593',
  barcode: '3SSBX480271593',
  carrier: { name: 'PostNL', code: 'postnl' },
  service: { name: 'Parcel International Standard', code: 'postnl-parcel-international' },
  sender: {
    first_name: 'Jan',
    last_name: 'de Vries',
    company: 'Tulp & Co B.V.',
    street_1: 'Prinsengracht',
    street_number: 263,
    street_number_suffix: 'A',
    postal_code: '1016 GV',
    city: 'Amsterdam',
    country_code: 'NL',
    phone_number: '+31 20 555 0100',
  },
  recipient: {
    first_name: 'Zofia',
    last_name: 'Łukasiewicz',
    street_1: 'Baker Street',
    street_number: 221,
    street_number_suffix: 'B',
    postal_code: 'NW1 6XE',
    city: 'London',
    country_code: 'GB',
    email: 'zofia@example.com',
  },
  returnAddress: { street_1: 'Prinsengracht', street_number: 263, postal_code: '1016 GV', city: 'Amsterdam', country_code: 'NL' },
  weight: 1250,
  registeredAt: REGISTERED_AT,
  description: 'Clothing and accessories',
  options: ['Signature on delivery', 'Insured up to 500 EUR'],
  items: [
    {
      sku: 'TS-ORG-M',
      description: 'Organic cotton T-shirt',
      quantity: 2,
      item_value: { amount: 1250, currency: 'EUR' },
      hs_code: '610910',
      origin_country_code: 'PT',
      item_weight: 180,
    },
    {
      sku: 'WL-BRN',
      description: 'Leather wallet',
      quantity: 1,
      item_value: { amount: 4500, currency: 'EUR' },
      hs_code: '420232',
      origin_country_code: 'IT',
      item_weight: 150,
    },
  ],
  customs: { content_type: 'merchandise', invoice_number: 'INV-2025-0042', non_delivery: 'return', incoterm: 'DAP' },
  totalValue: { amount: 7000, currency: 'EUR' },
  senderTaxNumbers: [{ type: 'eori', country_code: 'NL', number: 'NL123456789' }],
  recipientTaxNumbers: [{ type: 'vat', country_code: 'GB', number: 'GB987654321' }],
};

const domestic: LabelData = {
  shipmentId: '5a1f0c2e-8b3d-4e7f-a6b5-c4d3e2f1a0b9',
  trackingCode: '05512345678901',
  barcode: '05512345678901',
  carrier: { name: 'DPD', code: 'dpd' },
  service: { name: 'DPD Home', code: 'dpd-home' },
  sender: { company: 'Fietsenwinkel Utrecht', street_1: 'Oudegracht', street_number: 12, postal_code: '3511 AN', city: 'Utrecht', country_code: 'NL' },
  recipient: {
    first_name: 'Sanne',
    last_name: 'Bakker',
    street_1: 'Dorpsstraat',
    street_number: 5,
    postal_code: '9711 AB',
    city: 'Groningen',
    country_code: 'NL',
  },
  returnAddress: { street_1: 'Oudegracht', street_number: 12, postal_code: '3511 AN', city: 'Utrecht', country_code: 'NL' },
  weight: 850,
  registeredAt: REGISTERED_AT + 3600,
  pickupLocation: { code: 'NL-DPD-176220' },
  options: [],
};

const pdf = (data: LabelData, size: 'A4' | 'A6' = 'A6') => renderLabel(data, { mime_type: 'application/pdf', size });
const zpl = async (data: LabelData, size: 'A4' | 'A6' = 'A6') => (await renderLabel(data, { mime_type: 'application/zpl', size })).toString('utf8');

describe('PDF label', () => {
  it('is one A6 page with the shipment printed as real text', async () => {
    const pages = readPdf(await pdf(international));
    expect(pages).toHaveLength(1);
    const [page] = pages;
    expect(page!.width).toBeCloseTo(A6.width, 0);
    expect(page!.height).toBeCloseTo(A6.height, 0);
    for (const expected of [
      '3SSBX480271593',
      'Zofia Łukasiewicz',
      'NW1 6XE London',
      'UNITED KINGDOM (GB)',
      'Amsterdam',
      'Tulp & Co B.V.',
      'Prinsengracht 263 A',
      'PostNL',
      'Parcel International Standard',
      '1.25 kg',
      '2025-03-14 09:30 UTC',
      'Signature on delivery, Insured up to 500 EUR',
      'SANDBOX - NOT A REAL LABEL',
    ]) {
      expect(page!.text).toContain(expected);
    }
  });

  it('prints the pickup location and is A4 when asked', async () => {
    const pages = readPdf(await pdf(domestic, 'A4'));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.width).toBeCloseTo(A4.width, 0);
    expect(pages[0]!.height).toBeCloseTo(A4.height, 0);
    expect(pages[0]!.text).toContain('Pickup location: NL-DPD-176220');
    expect(pages[0]!.text).toContain('9711 AB Groningen');
    expect(pages[0]!.text).toContain('850 g');
  });

  it('carries a Code 128 barcode that scans as the tracking code', async () => {
    expect(decodeCode128(renderPdfPage(await pdf(international), 0, 2))).toBe('3SSBX480271593');
    expect(decodeCode128(renderPdfPage(await pdf(domestic, 'A4'), 0, 1.5))).toBe('05512345678901');
  });

  it('encodes the barcode value, which is what the scanner reads (not the printed code)', async () => {
    const relabelled = { ...domestic, barcode: 'SBX-REROUTE-77' };
    expect(decodeCode128(renderPdfPage(await pdf(relabelled), 0, 2))).toBe('SBX-REROUTE-77');
  });

  it('cuts text that does not fit instead of letting it overlap', async () => {
    const longName = { ...international.recipient, company: 'The Extraordinarily Long-Named International Trading Company of Greater London Ltd' };
    const [page] = readPdf(await pdf({ ...international, recipient: longName }));
    expect(page!.text).toContain('The Extraordinarily Long-Named');
    expect(page!.text).toContain('...');
    expect(decodeCode128(renderPdfPage(await pdf({ ...international, recipient: longName }), 0, 2))).toBe('3SSBX480271593');
  });
});

describe('text that does not fit its width', () => {
  // A monospace-like measure: each character is half the size wide, "..." included.
  const measure = (text: string, size: number) => text.length * size * 0.5;

  it('shrinks the font a little, then cuts the text to the longest start that fits with "..."', () => {
    const text = 'Zofia Lukasiewicz Trading Company of Greater London';
    for (let width = 6; width <= 300; width += 7) {
      const op = fitText({ kind: 'text', x: 0, y: 0, width, size: 10, text }, measure);
      if (measure(text, 10) <= width) {
        expect(op).toMatchObject({ text, size: 10 });
        continue;
      }
      const size = Math.max(7.5, (10 * width) / measure(text, 10));
      if (measure(text, size) <= width) {
        expect(op).toMatchObject({ text, size });
        continue;
      }
      // Where rounding makes the proportional size overflow by a hair, a size a little under it still fits.
      if (measure(text, 7.5) <= width) {
        expect(op.text).toBe(text);
        expect(op.size).toBeGreaterThanOrEqual(7.5);
        expect(op.size).toBeLessThan(size);
        expect(measure(op.text, op.size)).toBeLessThanOrEqual(width);
        continue;
      }
      // What cutting a character at a time finds: the longest start that fits with "...".
      let expected = text;
      while (expected.length > 1 && measure(`${expected}...`, size) > width) expected = expected.slice(0, -1);
      expect(op).toMatchObject({ size, text: `${expected.trimEnd()}...` });
    }
  });
});

describe('ZPL label', () => {
  it('is one ^XA..^XZ format with a Code 128 field of the tracking code', async () => {
    const text = await zpl(international);
    expect(text.startsWith('^XA')).toBe(true);
    expect(text.trimEnd().endsWith('^XZ')).toBe(true);
    expect(text).toMatch(/\^BCN,\d+,N,N,N,A\^FD3SSBX480271593\^FS/);
    expect(text).toContain('^FDZofia Łukasiewicz^FS');
    expect(text).toContain('^FDNW1 6XE London^FS');
    expect(text).toContain('^PW832');
    expect(text).toContain('^LL1180');
    expect(text).toContain('SANDBOX - NOT A REAL LABEL');
  });

  it('doubles the dots for A4', async () => {
    const text = await zpl(domestic, 'A4');
    expect(text).toContain('^PW1664');
    expect(text).toContain('^LL2360');
    expect(text).toMatch(/\^BCN,\d+,N,N,N,A\^FD05512345678901\^FS/);
  });

  it('escapes carets and tildes so an address cannot end the label early', async () => {
    const recipient = { ...international.recipient, company: 'Evil ^XZ~JA Corp' };
    const text = await zpl({ ...international, recipient });
    expect(text.match(/\^XZ/g)).toHaveLength(1);
    expect(text).not.toContain('~JA');
    expect(text).toContain('^FH\\^FDEvil \\5EXZ\\7EJA Corp^FS');
  });
});

describe('PNG label', () => {
  it('is a 203 dpi A6 image whose barcode scans as the tracking code', async () => {
    const png = await renderLabel(international, { mime_type: 'image/png', size: 'A6' });
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const image = readPng(png);
    expect(image.width).toBe(839);
    expect(image.height).toBe(1183);
    expect(decodeCode128(image)).toBe('3SSBX480271593');
  });

  it('is twice as large on A4 and still scans', async () => {
    const image = readPng(await renderLabel(domestic, { mime_type: 'image/png', size: 'A4' }));
    expect(image.width).toBe(1678);
    expect(image.height).toBe(2374);
    expect(decodeCode128(image)).toBe('05512345678901');
  });
});

describe('customs document', () => {
  it('is an A4 CN23 with every item, HS code and the total', async () => {
    const document = await renderCustomsDocument(international);
    const pages = readPdf(document);
    expect(pages.length).toBeGreaterThanOrEqual(1);
    for (const page of pages) {
      expect(page.width).toBeCloseTo(A4.width, 0);
      expect(page.height).toBeCloseTo(A4.height, 0);
    }
    const text = pages.map((page) => page.text).join('\n');
    for (const expected of [
      'CUSTOMS DECLARATION',
      'Organic cotton T-shirt',
      'Leather wallet',
      '610910',
      '420232',
      '70.00 EUR',
      'INV-2025-0042',
      'DAP (Delivered At Place)',
      'Return to sender',
      '[X] Sale of goods',
      'EORI NL123456789 (NL)',
      'VAT GB987654321 (GB)',
      '2025-03-14',
      '3SSBX480271593',
      'SANDBOX - NOT A REAL LABEL',
    ]) {
      expect(text).toContain(expected);
    }
    expect(decodeCode128(renderPdfPage(document, 0, 3))).toBe('3SSBX480271593');
  });

  it('continues a long item list on more pages, numbered', async () => {
    const items = Array.from({ length: 80 }, (_, index) => ({
      ...international.items![index % 2]!,
      description: `Item ${index + 1}: ${'hand-made ceramic mug with a long description '.repeat(index % 3)}`,
    }));
    const pages = readPdf(await renderCustomsDocument({ ...international, items, totalValue: undefined }));
    expect(pages.length).toBeGreaterThan(1);
    const text = pages.map((page) => page.text).join('\n');
    for (let index = 1; index <= 80; index++) expect(text).toContain(`Item ${index}:`);
    expect(text).toContain(`Page ${pages.length} of ${pages.length}`);
    // Without total_value the total is the sum of the lines: 40 x 2 x 12.50 + 40 x 45.00.
    expect(text).toContain('2800.00 EUR');
  });

  it('weighs each item in its item_weight_unit (g when none is given) and adds the lines up in grams', () => {
    const items = [
      { description: 'Keyboard', quantity: 3, item_weight: 2, item_weight_unit: 'kg' as const },
      { description: 'Cable', quantity: 2, item_weight: 150 },
      { description: 'Manual', quantity: 1, item_weight: 8, item_weight_unit: 'oz' as const },
      { description: 'Box', quantity: 1, item_weight: 1, item_weight_unit: 'lb' as const },
      { description: 'Sticker', quantity: 4, item_weight: 500, item_weight_unit: 'mg' as const },
    ];
    expect(itemRows(items).map((row) => row[3])).toEqual(['6.00 kg', '300 g', '227 g', '454 g', '2 g']);
    // 6000 + 300 + 226.8 + 453.6 + 2 grams.
    expect(totalRow({ ...international, items, totalValue: undefined })[3]).toBe('6.98 kg');
  });

  it('still renders for a shipment without items or customs data', async () => {
    const [page] = readPdf(await renderCustomsDocument(domestic));
    expect(page!.text).toContain('No items declared');
    expect(page!.text).toContain('05512345678901');
  });
});

describe('determinism', () => {
  it('renders byte-identical files for the same shipment', async () => {
    for (const mime_type of ['application/pdf', 'application/zpl', 'image/png'] as const) {
      for (const size of ['A6', 'A4'] as const) {
        const first = await renderLabel(international, { mime_type, size });
        const second = await renderLabel(international, { mime_type, size });
        expect(first.equals(second), `${mime_type} ${size}`).toBe(true);
      }
    }
    const first = await renderCustomsDocument(international);
    expect(first.equals(await renderCustomsDocument(international))).toBe(true);
    expect(readPdf(first)[0]!.text).toBe(readPdf(await renderCustomsDocument(international))[0]!.text);
  });

  it("renders the first PDF of a process as every later one (fonts and their layouts are kept from the first; a restart must not change a label's bytes)", async () => {
    // A process of its own: in this one, other tests rendered PDFs before.
    const labels = await labelsModule();
    const script = `const { renderLabel, renderCustomsDocument } = await import(${JSON.stringify(labels)});
      const data = JSON.parse(process.argv[1]);
      const files = [];
      for (let round = 0; round < 2; round++) {
        files.push(await renderCustomsDocument(data), await renderLabel(data, { mime_type: 'application/pdf', size: 'A6' }));
      }
      process.stdout.write(JSON.stringify(files.map((file) => file.toString('base64'))));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(international)], {
      encoding: 'utf8',
    });
    const [firstCustoms, firstLabel, laterCustoms, laterLabel] = (JSON.parse(output) as string[]).map((base64) => Buffer.from(base64, 'base64'));
    expect(firstCustoms!.equals(laterCustoms!)).toBe(true);
    expect(firstLabel!.equals(laterLabel!)).toBe(true);
    // ...and as this process, which made many before, renders them.
    expect(firstLabel!.equals(await renderLabel(international, { mime_type: 'application/pdf', size: 'A6' }))).toBe(true);
    expect(firstCustoms!.equals(await renderCustomsDocument(international))).toBe(true);
  });
});

describe('the font files PDFs share', () => {
  it('embed the glyphs each document draws: labels needing other glyphs get files of their own, as a new process writes them', async () => {
    const format = { mime_type: 'application/pdf', size: 'A6' } as const;
    const other: LabelData = {
      ...international,
      recipient: { ...international.recipient, first_name: 'Ἀλέξανδρος', last_name: 'Добровольский', city: 'Þórshöfn' },
    };
    // This process has rendered many labels, so its files are shared; a new one writes each anew.
    const here = [await renderLabel(international, format), await renderLabel(other, format), await renderLabel(international, format)];
    const labels = await labelsModule();
    const script = `const { renderLabel } = await import(${JSON.stringify(labels)});
      const [data, other] = JSON.parse(process.argv[1]);
      const files = [await renderLabel(other, { mime_type: 'application/pdf', size: 'A6' }), await renderLabel(data, { mime_type: 'application/pdf', size: 'A6' })];
      process.stdout.write(JSON.stringify(files.map((file) => file.toString('base64'))));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([international, other])], {
      encoding: 'utf8',
    });
    const [fresh, freshInternational] = (JSON.parse(output) as string[]).map((base64) => Buffer.from(base64, 'base64'));
    expect(here[1]!.equals(fresh!)).toBe(true);
    expect(here[0]!.equals(freshInternational!)).toBe(true);
    expect(here[2]!.equals(here[0]!)).toBe(true);
    const text = readPdf(here[1]!)[0]!.text;
    for (const name of ['Ἀλέξανδρος', 'Добровольский', 'Þórshöfn']) expect(text).toContain(name);
  });

  it('keep at most MAX_SUBSETS files a font, whatever glyphs arrive', () => {
    const files = boundedSubsets();
    for (let index = 0; index < MAX_SUBSETS; index++) files.remember(String(index), Buffer.from([index % 256]));
    expect(files.size).toBe(MAX_SUBSETS);
    expect(files.get('0')).toEqual(Buffer.from([0]));
    // One more empties it: the next document writes its file again.
    files.remember('next', Buffer.from('next'));
    expect(files.size).toBe(1);
    expect(files.get('0')).toBeUndefined();
  });
});

describe('the glyphs of the shared fonts', () => {
  /** A font like fontkit's: one glyph object per id, with the characters that first asked for it. */
  class Glyph {
    constructor(
      readonly id: number,
      readonly codePoints: number[],
    ) {}
  }
  const fontOfOneGlyphPerId = () => {
    const glyphs = new Map<number, Glyph>();
    return { getGlyph: (id: number, characters: number[] = []) => glyphs.get(id) ?? glyphs.set(id, new Glyph(id, characters)).get(id)! };
  };

  it('carry the characters they are asked for, at most MAX_GLYPH_VARIANTS kept for other characters than the first', () => {
    const font = glyphsOfTheirText(fontOfOneGlyphPerId());
    const latin = font.getGlyph(7, [0x63]);
    const cyrillic = font.getGlyph(7, [0x441]);
    expect(latin.codePoints).toEqual([0x63]);
    expect(cyrillic.codePoints).toEqual([0x441]);
    expect(cyrillic).toBeInstanceOf(Glyph);
    expect(font.getGlyph(7, [0x441])).toBe(cyrillic);
    expect(font.getGlyph(7, [0x63])).toBe(latin);
    // Without characters (the subset asking for outlines): the glyph of that id.
    expect(font.getGlyph(7).id).toBe(7);
    for (let index = 1; index < MAX_GLYPH_VARIANTS; index++) font.getGlyph(7, [0x10000 + index]);
    expect(font.getGlyph(7, [0x441])).toBe(cyrillic);
    // One more empties them: the next ask makes its glyph again.
    font.getGlyph(8, [0x63]);
    font.getGlyph(8, [0x441]);
    expect(font.getGlyph(7, [0x441])).not.toBe(cyrillic);
    expect(font.getGlyph(7, [0x441]).codePoints).toEqual([0x441]);
  });
});

describe('the word layouts PDFs share', () => {
  it('keep at most MAX_WORDS words of at most MAX_WORD_LENGTH characters, whatever text arrives', () => {
    const words = boundedWords();
    for (let index = 0; index < MAX_WORDS; index++) words[`word${index}`] = index;
    expect(words.word0).toBe(0);
    expect(words[`word${MAX_WORDS - 1}`]).toBe(MAX_WORDS - 1);
    // One more empties it: what a document asks for next is laid out again.
    words.next = 'next';
    expect(words.word0).toBeUndefined();
    expect(words.next).toBe('next');
    const long = 'x'.repeat(MAX_WORD_LENGTH + 1);
    words[long] = 'long';
    expect(words[long]).toBeUndefined();
    words['x'.repeat(MAX_WORD_LENGTH)] = 'kept';
    expect(words['x'.repeat(MAX_WORD_LENGTH)]).toBe('kept');
  });
});

describe('text on a renderer with whole-pixel font sizes (PNG)', () => {
  // Widths as the PNG renderer measures them: the size floored to whole pixels at 203 dpi.
  const pixels = 203 / 72;
  const measure = (text: string, size: number) => (text.length * Math.floor(size * pixels) * 0.5) / pixels;

  it('shrinks the font to a size that fits rather than cutting text that fits above the smallest size', () => {
    const text = 'Burgemeester van Nispen van Sevenaerstraat 1234 bis';
    for (let width = 200; width <= 280; width += 3) {
      if (measure(text, 10.5 * 0.75) > width) continue;
      const op = fitText({ kind: 'text', x: 0, y: 0, width, size: 10.5, text }, measure);
      expect(op.text, `width ${width}`).toBe(text);
      expect(measure(op.text, op.size), `width ${width}`).toBeLessThanOrEqual(width);
    }
  });
});
