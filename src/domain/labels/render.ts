import { labelContent } from './content.js';
import { customsPdf } from './customs-pdf.js';
import { pdfLabel } from './label-pdf.js';
import { pngLabel } from './label-png.js';
import { zplLabel } from './label-zpl.js';
import type { LabelData, LabelMimeType, LabelSize } from './types.js';

export interface LabelFormat {
  mime_type: LabelMimeType;
  size: LabelSize;
}

/**
 * Renders a shipment's label. Pure: the output depends only on `data` and `format`, so the
 * same shipment always downloads the same file (PDF metadata dates come from `registeredAt`).
 */
export async function renderLabel(data: LabelData, format: LabelFormat): Promise<Buffer> {
  return renderLabelNow(data, format);
}

/** `renderLabel` without waiting: for documents made inside a store transaction. */
export function renderLabelNow(data: LabelData, format: LabelFormat): Buffer {
  const content = labelContent(data);
  switch (format.mime_type) {
    case 'application/pdf':
      return pdfLabel(content, format.size, data.registeredAt);
    case 'image/png':
      return pngLabel(content, format.size);
    case 'application/zpl':
      return Buffer.from(zplLabel(content, format.size), 'utf8');
    default:
      throw new Error(`unsupported label format ${String(format.mime_type)}`);
  }
}

/** Renders the CN23-style customs declaration of a shipment as an A4 PDF. */
export async function renderCustomsDocument(data: LabelData): Promise<Buffer> {
  return customsPdf(data);
}

/**
 * `renderCustomsDocument` without waiting.
 * @public through labels/index.ts, which resources take whole.
 */
export function renderCustomsNow(data: LabelData): Buffer {
  return customsPdf(data);
}
