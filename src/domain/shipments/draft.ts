import type { Address } from '../../model/common.js';
import type { ChosenOption, Customs, Item, LabelChoice, PhysicalProperties } from '../../model/shipment.js';
import type { TaxIdentificationNumber, Price } from '../../model/common.js';
import type { Field } from '../errors.js';

/** The writable attributes of a shipment, as the client left them after a create or update. */
export interface DraftAttributes {
  recipient_address: Address & { first_name: string; last_name: string };
  return_address: Address;
  sender_address: Address;
  physical_properties: PhysicalProperties;
  pickup_location?: { code: string; address?: Address } | null;
  drop_off_location?: { code: string; address?: Address };
  description?: string;
  items?: Item[];
  customs?: Customs;
  sender_tax_identification_numbers?: TaxIdentificationNumber[];
  recipient_tax_identification_numbers?: TaxIdentificationNumber[];
  sender_tax_number?: string;
  recipient_tax_number?: string;
  is_consolidation?: boolean;
  customer_reference?: string;
  channel?: string;
  total_value?: Price;
  register_at?: number | null;
  tags?: (string | number)[];
}

/** A shipment as requested: attributes, the ids its relationships name, and the request meta. */
export interface ShipmentDraft {
  attributes: DraftAttributes;
  shopId: string;
  serviceId?: string;
  contractId?: string;
  options: ChosenOption[];
  coverageId?: string;
  collectionId?: string;
  /** The collection the shipment is in already (on an update): it stays there even once that collection's window has begun. */
  currentCollectionId?: string;
  /** `meta.collection.collection_time` of POST /registered-shipments: the shop's collection with exactly this window. */
  collectionTime?: { from: number; to: number };
  consolidationShipmentId?: string;
  label?: LabelChoice;
  /** The request member `label` came from, when it was not `meta.label`. */
  labelField?: Field;
  /**
   * The label format is the shipment's own, kept from an earlier request (an update that sent no
   * `meta.label`): `labelField` then names what this request changed that it must fit.
   */
  labelKept?: boolean;
  serviceCode?: string;
  /**
   * On an update, the relationships the request named; the others are the shipment's own, kept.
   * A rule broken between a kept relationship and a named one is blamed on the named one, a
   * member the request holds (as `labelField` does for a kept label format). Absent on a create.
   */
  named?: ReadonlySet<string>;
  /** On an update, the attributes the request sent (the others are kept), for the same purpose. */
  namedAttributes?: ReadonlySet<string>;
  addToNextCollection?: boolean;
  /**
   * The parcels of a multi-colli shipment (`meta.colli`), in order. The carrier handles each on
   * its own, so each is held against the size limits of the rate as a single parcel is, and each
   * collo above `length_max` is charged the rate's oversize surcharge.
   */
  colli?: readonly PhysicalProperties[];
}

/** The field of the request each part of a draft came from, for errors. */
export const fields = {
  attribute: (path: string): Field => ({ attribute: path }),
  /** The id a relationship names. */
  relationship: (name: string): Field => ({ relationship: `${name}.id` }),
  option: (index: number, path = ''): Field => ({ relationship: `service_options[${index}]${path ? `.${path}` : ''}` }),
  meta: (path: string): Field => ({ meta: path }),
};

/** Whether an update kept `relationship` from the shipment rather than naming it (never on a create). */
export function keptRelationship(draft: Pick<ShipmentDraft, 'named'>, relationship: string): boolean {
  return draft.named !== undefined && !draft.named.has(relationship);
}

/** Whether an update kept `attribute` from the shipment rather than sending it (never on a create). */
export function keptAttribute(draft: Pick<ShipmentDraft, 'namedAttributes'>, attribute: string): boolean {
  return draft.namedAttributes !== undefined && !draft.namedAttributes.has(attribute);
}

/** Sender and recipient in different countries: customs data is required. */
export function isInternational(draft: Pick<ShipmentDraft, 'attributes'>): boolean {
  return draft.attributes.sender_address.country_code !== draft.attributes.recipient_address.country_code;
}
