import type { Address, Price, TaxIdentificationNumber } from '../../model/common.js';
import type { Customs, Item } from '../../model/shipment.js';

/**
 * Everything printed on a shipment's documents. The files endpoint builds it from a registered
 * shipment; the renderers never touch the store, so they are pure and easy to test.
 */
export interface LabelData {
  shipmentId: string;
  trackingCode: string;
  /** Text encoded in the barcode (equal to the tracking code in the sandbox). */
  barcode: string;
  carrier: { name: string; code: string };
  service: { name: string; code: string };
  sender: Address;
  recipient: Address;
  returnAddress: Address;
  /** Grams. */
  weight: number;
  /** Unix seconds of the registration. */
  registeredAt: number;
  description?: string;
  pickupLocation?: { code: string; address?: Address };
  /** Names of the chosen service options, e.g. "Signature on delivery". */
  options: string[];
  items?: Item[];
  customs?: Customs;
  totalValue?: Price;
  senderTaxNumbers?: TaxIdentificationNumber[];
  /** A collo of a multi-colli shipment: its number, how many there are, and the master's tracking code. */
  collo?: { number: number; of: number; master: string };
  /** The master of a multi-colli shipment: the tracking codes of its colli, by collo number. */
  colli?: string[];
  recipientTaxNumbers?: TaxIdentificationNumber[];
}

export type LabelMimeType = 'application/pdf' | 'application/zpl' | 'image/png';
export type LabelSize = 'A4' | 'A6';
