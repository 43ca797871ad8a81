// Examples of shipments, their files and statuses, collections, manifests and the shipping helpers.
import { anna, collectionBody, londoner, manualSurcharge, shipmentBody, warehouse } from './bodies.js';
import type { ExampleIds } from './ids.js';
import { ref, type ExampleSet } from './types.js';

/** The draws of the example steps that made more than one row (see setup.ts). */
const draws = { concept: { status: 1, surcharge: 2, hookLog: 4 }, registered: { label: 6, status: 7 } } as const;

const day = (ids: ExampleIds, days: number) => new Date((Math.floor(ids.now / 86400) + days) * 86400 * 1000).toISOString().slice(0, 10);

/**
 * The nearest PostNL point to Anna de Vries (the first of `pickupLocations('postnl', 'NL', '1012PH')`:
 * the sandbox's locations follow from carrier and postal code). Written out rather than generated
 * here: the generator loads faker, which every start would then compile (see the test that checks it).
 */
export const EXAMPLE_PICKUP_POINT = 'NL-1012PH-813924';
const pickupPoint = () => EXAMPLE_PICKUP_POINT;

export const shippingExamples: ExampleSet = {
  listShipments: (ids) => ({ query: { 'filter[shop]': ids.shop } }),
  createShipment: (ids) => ({ headers: { 'Idempotency-Key': 'order-1001' }, body: shipmentBody(ids, { tags: ['sandbox:auto-deliver'] }) }),
  getShipment: (ids) => ({ path: { shipment_id: ids.made('shipment') }, query: { include: 'shipment_status' } }),
  updateShipment: (ids) => ({
    path: { shipment_id: ids.made('shipment-to-change') },
    body: {
      data: {
        type: 'shipments',
        id: ids.made('shipment-to-change'),
        attributes: { physical_properties: { weight: 2100, length: 300, width: 200, height: 150 }, customer_reference: 'ORDER-1002-B' },
      },
    },
  }),
  deleteShipment: (ids) => ({ path: { shipment_id: ids.made('shipment-to-delete') } }),
  listShipmentFiles: (ids) => ({ path: { shipment_id: ids.made('registered') } }),
  listShipmentStatuses: (ids) => ({ path: { shipment_id: ids.made('registered') } }),
  getShipmentStatus: (ids) => ({
    path: { shipment_id: ids.made('registered'), shipment_status_id: ids.made('registered', draws.registered.status) },
  }),
  listSurchargesOfShipment: (ids) => ({ path: { shipment_id: ids.made('shipment') } }),
  getSurchargeOfShipment: (ids) => ({
    path: { shipment_id: ids.made('shipment'), shipment_surcharge_id: ids.made('shipment', draws.concept.surcharge) },
  }),
  createShipmentSurcharge: (ids) => ({ query: { include: 'shipment' }, body: manualSurcharge(ids.made('shipment'), 'Remote area', 750) }),
  updateShipmentSurcharge: (ids) => ({
    path: { shipment_surcharge_id: ids.made('manual-surcharge') },
    body: {
      data: {
        type: 'shipment-surcharges',
        id: ids.made('manual-surcharge'),
        attributes: { fee: { amount: 1000, currency: 'EUR' } },
        relationships: { shipment: { data: { type: 'shipments', id: ids.made('shipment') } } },
      },
    },
  }),
  deleteShipmentSurcharge: (ids) => ({ path: { shipment_surcharge_id: ids.made('manual-surcharge-to-delete') } }),
  getShipmentSurcharge: (ids) => ({ path: { shipment_surcharge_id: ids.made('shipment', draws.concept.surcharge) } }),
  getFile: (ids) => ({ path: { file_id: ids.made('registered', draws.registered.label) } }),
  combineFiles: (ids) => ({ body: { data: { file_ids: [ids.made('registered', draws.registered.label)], page_size: 'A4', starting_position: 'top-left' } } }),
  createRegisteredShipment: (ids) => ({ headers: { 'Idempotency-Key': 'order-2101' }, body: shipmentBody(ids, { reference: 'ORDER-2101' }) }),
  createMultiColliShipment: (ids) => {
    const body = shipmentBody(ids, { reference: 'ORDER-3001', weight: 9000, serviceCode: 'postnl-multi-colli' });
    return {
      headers: { 'Idempotency-Key': 'order-3001' },
      body: {
        ...body,
        meta: {
          ...body.meta,
          colli: [
            { physical_properties: { weight: 5000, length: 400, width: 300, height: 300 }, description: 'Chair, box 1 of 2' },
            { physical_properties: { weight: 4000, length: 400, width: 300, height: 200 }, description: 'Chair, box 2 of 2' },
          ],
        },
      },
    };
  },
  consolidateShipments: (ids) => ({
    body: { data: { consolidation_shipment_id: ids.made('consolidation'), shipment_ids: [ids.made('consolidated')] } },
  }),
  voidShipment: (ids) => ({ body: { data: { shipment_id: ids.made('registered-to-void') } } }),
  updateShipmentStatus: (ids) => ({
    body: {
      data: {
        shipment_id: ids.made('registered'),
        status_id: ids.status('shipment-at-sorting'),
        carrier_statuses: [{ code: 'J01', description: 'Parcel sorted at the Amsterdam hub', assigned_at: ids.now, category: 'default' }],
      },
    },
  }),
  trackExternalShipment: (ids) => {
    const { meta: _meta, ...body } = shipmentBody(ids, { reference: 'ORDER-4001' });
    return {
      body: {
        data: {
          ...body.data,
          attributes: { ...body.data.attributes, tracking_code: '3SEXT0001234567' },
          relationships: { ...body.data.relationships, contract: ref('contracts', ids.brokerContract('postnl')) },
        },
      },
    };
  },
  getTrackingPage: (ids) => ({ path: { tracking_token: ids.page('tracking-page', ids.made('registered')) } }),
  calculateLandedCosts: () => ({
    body: {
      data: {
        sender_country_code: 'NL',
        sender_postal_code: '1012 LG',
        recipient_country_code: 'GB',
        recipient_postal_code: 'SW1A 1AA',
        weight: 1500,
        shipping_value: { amount: 1295, currency: 'EUR' },
        items: [{ description: 'Cotton T-shirt', item_value: { amount: 2495, currency: 'EUR' }, hs_code: '6109.10', sku: 'TSH-BLU-M' }],
      },
    },
  }),
  suggestHsCode: () => ({ body: { data: { sku: 'TSH-BLU-M', description: 'Organic cotton T-shirt', origin_country_code: 'PT' } } }),
  getDynamicServiceRates: (ids) => {
    const { meta: _meta, ...body } = shipmentBody(ids);
    // The seeded dynamic rates are DHL Express Worldwide's, which ships abroad: to Anna in
    // Amsterdam the answer is an empty list, which shows nothing of a priced rate.
    const attributes = { ...body.data.attributes, recipient_address: londoner };
    return { body: { data: { type: 'shipments', attributes, relationships: body.data.relationships } } };
  },
  getAvailableDeliveryDates: (ids) => ({
    body: {
      data: {
        carrier_code: 'postnl',
        service_code: 'postnl-parcel-standard',
        address: { country_code: 'NL', postal_code: '1012 PH', street_number: 92 },
        start_date: `${day(ids, 1)}T00:00:00+00:00`,
        end_date: `${day(ids, 7)}T00:00:00+00:00`,
      },
    },
  }),
  listPickupDropoffLocations: (ids) => ({
    path: { carrier_id: ids.carrier('postnl'), country_code: 'NL', postal_code: '1012 PH' },
    query: { street: anna.street_1, street_number: anna.street_number },
  }),
  getPickupDropoffLocation: (ids) => ({ path: { carrier_id: ids.carrier('postnl'), pudo_id: pickupPoint() } }),
  listCollectionTimeSlots: (ids) => ({
    path: { carrier_id: ids.carrier('dpd') },
    query: { country_code: 'NL', postal_code: warehouse.postal_code, date_from: day(ids, 1), date_to: day(ids, 7) },
  }),
  listCollections: (ids) => ({ query: { 'filter[shop]': ids.shop } }),
  createCollection: (ids) => ({ body: collectionBody(ids, 'postnl', 5, 'Next week pick-up') }),
  getCollection: (ids) => ({ path: { collection_id: ids.made('collection') } }),
  updateCollection: (ids) => ({
    path: { collection_id: ids.made('collection') },
    body: { data: { type: 'collections', id: ids.made('collection'), attributes: { description: 'Ring at the loading dock' } } },
  }),
  deleteCollection: (ids) => ({ path: { collection_id: ids.made('collection-to-delete') } }),
  addShipmentsToCollection: (ids) => ({ body: { data: { collection_id: ids.made('collection'), shipment_ids: [ids.made('collection-parcel')] } } }),
  createManifestForCollection: (ids) => ({ body: { data: { collection_id: ids.made('collection') } } }),
  listCollectionSchedules: (ids) => ({ query: { 'filter[shop]': ids.shop } }),
  createCollectionSchedule: (ids) => ({
    body: {
      data: {
        type: 'collection-schedules',
        attributes: { days: ['tuesday', 'friday'], collection: { description: 'Twice a week', time: { from: '15:00', to: '17:00' }, address: warehouse } },
        relationships: { shop: ref('shops', ids.shop), contract: ref('contracts', ids.brokerContract('postnl')) },
      },
    },
  }),
  getCollectionSchedule: (ids) => ({ path: { collection_schedule_id: ids.made('collection-schedule') } }),
  deleteCollectionSchedule: (ids) => ({ path: { collection_schedule_id: ids.made('collection-schedule') } }),
  createManifest: (ids) => ({
    body: {
      data: {
        type: 'manifests',
        attributes: { name: 'Afternoon manifest', address: warehouse },
        relationships: { shipments: { data: [{ type: 'shipments', id: ids.made('registered') }] } },
      },
    },
  }),
  getManifest: (ids) => ({ path: { manifest_id: ids.made('manifest') } }),
  getManifestFile: (ids) => ({ path: { manifest_id: ids.made('manifest'), file_id: ids.made('manifest', 1) } }),
  getHookLog: (ids) => ({ path: { hook_log_id: ids.made('shipment', draws.concept.hookLog) } }),
  getCollectionFile: (ids) => ({ path: { collection_id: ids.made('collection'), file_id: ids.made('collection-manifest', 1) } }),
};
