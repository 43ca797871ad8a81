import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { StoredBody } from '../store/tables.js';

/*
 * Idempotency records keep the response they replay for 24 hours, one per created shipment. As
 * plain text that response is the biggest thing the sandbox stores for a shipment (2-3 KB, more
 * than the shipment itself), in memory, in the journal and in the snapshot. Deflated against a
 * preset dictionary of the words every such response repeats, it is about 450 bytes (600 as
 * base64); most of what is left is the ids and the client's own address data.
 *
 * Stored records name their dictionary by number. Never change a dictionary that has shipped:
 * records written with it could no longer be read. Add a new one and write with that instead.
 */

const ADDRESS = '{"street_1":"","street_2":"","street_number":,"street_number_suffix":"","postal_code":"","city":"","state_code":"","country_code":"NL","first_name":"","last_name":"","company":"","email":"@example.com","phone_number":"+31"}';

/** Dictionary 1: the keys, types and shapes of shipment documents and error documents. */
const DICTIONARY_1 = [
  '{"errors":[{"status":"422","code":"10008","title":"Unprocessable entity","detail":"","source":{"pointer":"/data/attributes/"}}]}',
  '{"errors":[{"status":"400","code":"10002","title":"Invalid request","detail":"","source":{"pointer":"/data/relationships/"}}]}',
  '"included":[{"type":"services","type":"contracts","type":"carriers","type":"shops","attributes":{"name":"","code":""}}],',
  '"items":[{"sku":"","description":"","quantity":1,"hs_code":"","origin_country_code":"","item_value":{"amount":,"currency":"EUR"},"nett_weight":}],',
  '"customs":{"content_type":"merchandise","invoice_number":"","non_delivery":"return","incoterm":"DAP","license_number":""},',
  '"pickup_location":{"code":"","address":', ADDRESS, '},"register_at":,"barcode":"","tracking_code":"3S","tracking_url":"https://","synced_at":,',
  '{"data":{"type":"shipments","id":"","attributes":{"recipient_address":', ADDRESS,
  ',"return_address":', ADDRESS, ',"sender_address":', ADDRESS,
  ',"description":"Order ","customer_reference":"order-","channel":"","total_value":{"amount":,"currency":"EUR"},',
  '"price":{"amount":,"currency":"EUR"},"physical_properties":{"weight":,"length":,"width":,"height":,"volume":,"volumetric_weight":},',
  '"tags":[""],"created_at":17,"updated_at":17},"relationships":{"shop":{"data":{"type":"shops","id":""},"links":{"related":"http://localhost:8080/shops/"}},',
  '"service":{"data":{"type":"services","id":""},"links":{"related":"http://127.0.0.1:8080/services/"}},',
  '"contract":{"data":{"type":"contracts","id":""},"links":{"related":"/contracts/"}},"service_options":{"data":[{"type":"service-options","id":""}]},',
  '"liability_coverage":{"data":null},"collection":{"data":null},"shipment_status":{"data":{"type":"shipment-statuses","id":""},"links":{"related":"/shipments//statuses/"}},',
  '"files":{"data":[],"links":{"related":"/shipments//files"}},"hook_logs":{"data":[]}},"links":{"self":"/shipments/","files":"/shipments//files"}}}',
].join('');

const DICTIONARIES: Record<number, Buffer> = { 1: Buffer.from(DICTIONARY_1) };
const CURRENT = 1;

/** The body as a record stores it. */
export function packBody(text: string): StoredBody {
  // A 4 KiB window holds the whole dictionary and is cheaper to set up than the default 32 KiB.
  const packed = deflateRawSync(text, { dictionary: DICTIONARIES[CURRENT], windowBits: 12, memLevel: 5 });
  return { body_deflated: packed.toString('base64'), body_dictionary: CURRENT };
}

/** The body text a record holds, whichever way it holds it. */
export function unpackBody(stored: StoredBody): string {
  if ('body' in stored) return stored.body;
  const dictionary = DICTIONARIES[stored.body_dictionary];
  if (!dictionary) throw new Error(`unknown replay body dictionary ${stored.body_dictionary}`);
  return inflateRawSync(Buffer.from(stored.body_deflated, 'base64'), { dictionary, windowBits: 15 }).toString('utf8');
}
