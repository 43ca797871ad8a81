import { addressLines, formatDateTime, formatWeight, oneLine } from './text.js';
import type { LabelData } from './types.js';

/** The sandbox marking printed on every document, so no one ships a parcel with it. */
export const SANDBOX_MARKING = 'SANDBOX - NOT A REAL LABEL';

/**
 * What a shipping label says, as plain strings. PDF, PNG and ZPL all print this, so the three
 * formats of one shipment can never disagree.
 */
export interface LabelContent {
  carrier: string;
  service: string;
  from: string[];
  /** The recipient block; its first line is the person's name (recipients must name one). */
  to: string[];
  trackingCode: string;
  barcode: string;
  weight: string;
  registered: string;
  details: string[];
  shipmentId: string;
}

export function labelContent(data: LabelData): LabelContent {
  return {
    carrier: oneLine(data.carrier.name),
    service: oneLine(data.service.name),
    from: addressLines(data.sender),
    to: addressLines(data.recipient),
    // An untracked letter has no tracking code; its label says so where the code would be.
    trackingCode: data.trackingCode || 'UNTRACKED',
    barcode: data.barcode,
    weight: formatWeight(data.weight),
    registered: formatDateTime(data.registeredAt),
    details: detailLines(data),
    shipmentId: data.shipmentId,
  };
}

/**
 * Optional lines between the addresses and the barcode; absent facts print nothing. The
 * shipment's `customer_reference` is not among them: the API keeps it internal, never
 * communicated to the carrier, and a label is what the carrier gets.
 */
function detailLines(data: LabelData): string[] {
  const lines: string[] = [];
  if (data.collo) lines.push(`Collo ${data.collo.number} of ${data.collo.of} - multi-colli ${data.collo.master}`);
  if (data.colli) lines.push(`Multi-colli, ${data.colli.length} colli: ${data.colli.join(', ')}`);
  if (data.pickupLocation) lines.push(`Pickup location: ${data.pickupLocation.code}`);
  if (data.options.length > 0) lines.push(`Options: ${data.options.join(', ')}`);
  if (data.description) lines.push(`Contents: ${data.description}`);
  return lines.map(oneLine);
}
