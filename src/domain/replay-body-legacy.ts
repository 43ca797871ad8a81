/*
 * The preset dictionary idempotency records were deflated against before they were gzipped
 * (data files written by earlier versions). Only read: records keep naming it by number, so it
 * must never change.
 */

const ADDRESS =
  '{"street_1":"","street_2":"","street_number":,"street_number_suffix":"","postal_code":"","city":"","state_code":"","country_code":"NL","first_name":"","last_name":"","company":"","email":"@example.com","phone_number":"+31"}';

/** Dictionary 1: the keys, types and shapes of shipment documents and error documents. */
const DICTIONARY_1 = [
  '{"errors":[{"status":"422","code":"10008","title":"Unprocessable entity","detail":"","source":{"pointer":"/data/attributes/"}}]}',
  '{"errors":[{"status":"400","code":"10002","title":"Invalid request","detail":"","source":{"pointer":"/data/relationships/"}}]}',
  '"included":[{"type":"services","type":"contracts","type":"carriers","type":"shops","attributes":{"name":"","code":""}}],',
  '"items":[{"sku":"","description":"","quantity":1,"hs_code":"","origin_country_code":"","item_value":{"amount":,"currency":"EUR"},"nett_weight":}],',
  '"customs":{"content_type":"merchandise","invoice_number":"","non_delivery":"return","incoterm":"DAP","license_number":""},',
  '"pickup_location":{"code":"","address":',
  ADDRESS,
  '},"register_at":,"barcode":"","tracking_code":"3S","tracking_url":"https://","synced_at":,',
  '{"data":{"type":"shipments","id":"","attributes":{"recipient_address":',
  ADDRESS,
  ',"return_address":',
  ADDRESS,
  ',"sender_address":',
  ADDRESS,
  ',"description":"Order ","customer_reference":"order-","channel":"","total_value":{"amount":,"currency":"EUR"},',
  '"price":{"amount":,"currency":"EUR"},"physical_properties":{"weight":,"length":,"width":,"height":,"volume":,"volumetric_weight":},',
  '"tags":[""],"created_at":17,"updated_at":17},"relationships":{"shop":{"data":{"type":"shops","id":""},"links":{"related":"http://localhost:8080/shops/"}},',
  '"service":{"data":{"type":"services","id":""},"links":{"related":"http://127.0.0.1:8080/services/"}},',
  '"contract":{"data":{"type":"contracts","id":""},"links":{"related":"/contracts/"}},"service_options":{"data":[{"type":"service-options","id":""}]},',
  '"liability_coverage":{"data":null},"collection":{"data":null},"shipment_status":{"data":{"type":"shipment-statuses","id":""},"links":{"related":"/shipments//statuses/"}},',
  '"files":{"data":[],"links":{"related":"/shipments//files"}},"hook_logs":{"data":[]}},"links":{"self":"/shipments/","files":"/shipments//files"}}}',
].join('');

export const LEGACY_DICTIONARIES: Record<number, Buffer> = { 1: Buffer.from(DICTIONARY_1) };
