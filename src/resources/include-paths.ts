/**
 * The include paths production documents, per operation. An endpoint offers exactly these (any
 * other path is a 400), so code written against the sandbox asks only for what production serves.
 */

export const shipmentIncludes = [
  'colli',
  'consolidation_shipment',
  'contract',
  'contract.carrier',
  'files',
  'hook_logs',
  'liability_coverage',
  'service',
  'service.carrier',
  'service_options',
  'shipment_status',
  'shipment_status.status',
  'shop',
  'shop.organization',
  'shipment_surcharges',
  'manifest',
] as const;

export const shipmentStatusIncludes = ['shipment', 'status'] as const;
export const shipmentSurchargeIncludes = ['shipment'] as const;
export const carrierSurchargeIncludes = ['carrier'] as const;
export const shopIncludes = ['organization'] as const;
export const hookIncludes = ['owner'] as const;
export const collectionIncludes = ['contract', 'contract.carrier', 'manifest', 'shop', 'status'] as const;
export const manifestIncludes = ['files', 'contract', 'contract.carrier', 'owner'] as const;
export const contractIncludes = ['carrier', 'owner', 'liability_coverages'] as const;
/** `GET /contracts` also offers the contract template. */
export const contractListIncludes = [...contractIncludes, 'contract_template'] as const;
export const contractTemplateIncludes = ['broker', 'carrier', 'services'] as const;
export const systemMessageIncludes = ['broker'] as const;
export const serviceIncludes = ['carrier', 'service_options', 'zone_from', 'zone_to'] as const;
export const serviceRateIncludes = ['contract', 'contract.carrier', 'service', 'service.carrier', 'service_options'] as const;

/** The returns product (`/returns/v1/...`). */
export const returnTagIncludes = ['shop'] as const;
export const returnMethodIncludes = ['shop', 'service', 'service_options', 'contract'] as const;
export const demoOrderIncludes = ['shop'] as const;
export const returnListIncludes = ['return_method', 'shop', 'status', 'tags'] as const;
export const returnIncludes = ['return_method', 'shipment', 'shop', 'status', 'tags'] as const;
export const returnReportIncludes = ['file', 'status'] as const;

/** What a webhook (`send-resource`) may embed for each trigger resource type: what a GET of it offers. */
export const webhookIncludes: Record<string, readonly string[]> = {
  shipments: shipmentIncludes,
  'shipment-statuses': shipmentStatusIncludes,
  returns: returnIncludes,
};
