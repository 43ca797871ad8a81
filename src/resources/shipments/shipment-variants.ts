import { z } from 'zod';
import { shipmentSchemas } from './shipment-kinds.js';

/*
 * The shipment documents of the creates that register in the request. Production requires there
 * what a registered shipment always has (its service, contract and files; a multi-colli master
 * its colli, each with its tracking and documents in the identifier's meta), and
 * `POST /registered-shipments` hands the documents back in the top-level meta.
 */

// Shipments always have relationships, so the schema has them.
const relationships = shipmentSchemas.resource.shape.relationships as z.ZodObject;
const toOne = (name: 'service' | 'contract') => (relationships.shape[name] as z.ZodOptional<z.ZodObject>).unwrap();

/** A document handed back with the answer, base64 (production's FileFormat with document_type and contents). */
const embeddedFile = z
  .object({
    document_type: z.enum(['label', 'customs-declaration-form']),
    extension: z.string(),
    mime_type: z.string(),
    contents: z.string().describe('The document, base64.'),
  })
  .meta({ id: 'EmbeddedFile' });

const registered = shipmentSchemas.resource
  .extend({ relationships: relationships.extend({ service: toOne('service'), contract: toOne('contract') }) })
  .meta({ id: 'RegisteredShipment' });

export const registeredShipmentDocument = z
  .object({ data: registered, included: z.array(z.record(z.string(), z.unknown())).optional(), meta: z.object({ files: z.array(embeddedFile) }) })
  .meta({ id: 'RegisteredShipmentDocument' });

/** A hint of a create that was not followed, with why (the shipment was made all the same). */
const warning = z
  .object({
    code: z.enum(['not-added-to-collection', 'service-code-not-resolved']),
    detail: z.string(),
    source: z.object({ pointer: z.string() }),
  })
  .meta({ id: 'ShipmentWarning' });

/** The answer of POST /shipments: the shipment, and the hints of the request it was made without. */
export const createdShipmentDocument = shipmentSchemas.document
  .extend({ meta: z.object({ warnings: z.array(warning) }).optional() })
  .meta({ id: 'CreatedShipmentDocument' });

const collo = z
  .object({
    type: z.literal('shipments'),
    id: z.string(),
    meta: z.object({
      collo_number: z.number().int(),
      barcode: z.string(),
      tracking_code: z.string(),
      tracking_url: z.url(),
      files: z.array(embeddedFile),
    }),
  })
  .meta({ id: 'ColloIdentifier' });

const master = shipmentSchemas.resource
  .extend({ relationships: relationships.extend({ service: toOne('service'), contract: toOne('contract'), colli: z.strictObject({ data: z.array(collo) }) }) })
  .meta({ id: 'MultiColliShipment' });

export const multiColliShipmentDocument = z
  .object({ data: master, included: z.array(z.record(z.string(), z.unknown())).optional() })
  .meta({ id: 'MultiColliShipmentDocument' });
