import type { CarrierStatusCategory } from '../../model/shipment.js';

/**
 * What each category of a carrier status means (production's CarrierStatusCategory). `default` is
 * the normal course of a shipment; every other category may need someone to act. The sandbox's own
 * carrier statuses (registration, the auto-deliver walk, voiding, tracking of an outside shipment)
 * are `default`; POST /update-shipment-status may give any of them.
 */
export const CARRIER_STATUS_CATEGORIES: Readonly<Record<CarrierStatusCategory, string>> = {
  'change-in-flight': 'The delivery was changed while the shipment was on its way (another address, date or pick-up point).',
  damaged: 'The shipment was damaged in transit but is still on its way.',
  default: 'The normal course of a shipment: nothing needs to be done.',
  delay: 'The shipment is delayed and will arrive later than planned.',
  'dropped-at-pudo-by-sender': 'The sender handed the shipment in at a pick-up/drop-off point.',
  'failed-cash-on-delivery': 'The cash on delivery amount could not be collected.',
  'failed-collection': 'The carrier could not collect the shipment.',
  'failed-collection-attempt': 'The carrier tried to collect the shipment but could not.',
  'failed-collection-attempt-force-majeure': "A collection attempt failed for reasons beyond anyone's control (weather, strikes).",
  'failed-collection-attempt-invalid-data': 'A collection attempt failed because the collection data was wrong.',
  'failed-collection-attempt-invalid-data-address': 'A collection attempt failed because the collection address was wrong.',
  'failed-collection-attempt-invalid-data-time': 'A collection attempt failed because the collection time was wrong.',
  'failed-collection-attempt-package-issue': 'A collection attempt failed because of the parcel (packaging, size, contents).',
  'failed-collection-attempt-user': 'A collection attempt failed because the sender was not there or not ready.',
  'failed-customs-clearance': 'The shipment did not clear customs.',
  'failed-delivery-attempt': 'The carrier tried to deliver the shipment but could not.',
  'failed-delivery-attempt-force-majeure': "A delivery attempt failed for reasons beyond anyone's control (weather, strikes).",
  'failed-delivery-attempt-user': 'A driver tried to deliver the shipment but the recipient was not at home.',
  'failed-miscellaneous': 'The shipment failed for a reason the carrier did not specify.',
  'failed-oversized': 'The shipment is larger or heavier than the service allows.',
  'failed-pre-advice': 'The carrier did not accept the shipment data sent ahead of the parcel.',
  'failed-refused-delivery': 'The recipient refused the shipment.',
  'failed-shipment-damaged': 'The shipment was damaged and will not be delivered.',
  'failed-shipment-lost': 'The carrier lost the shipment.',
  'failed-shipment-missing': 'The shipment was announced but never handed to the carrier.',
  'partial-collection': 'Only some of the parcels were collected.',
  'partial-delivery': 'Only some of the parcels were delivered.',
  relabelling: 'The carrier had to put a new label on the shipment.',
  'require-delivery-instructions': 'The carrier needs instructions from the sender or the recipient to deliver.',
  'security-alert': 'The shipment was held for a security check.',
  'successful-collection': 'The carrier collected the shipment.',
};
