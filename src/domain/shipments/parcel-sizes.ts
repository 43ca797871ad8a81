import type { ServiceRateRecord } from '../../model/service-rate.js';
import type { PhysicalProperties } from '../../model/shipment.js';
import type { Problem } from '../errors.js';
import { parcelSizeExcesses } from '../rate-size.js';
import { fields, type ShipmentDraft } from './draft.js';

/**
 * Why the rate cannot carry the shipment's parcels for their size: the shipment's own
 * `physical_properties`, and each collo of a multi-colli shipment (`meta.colli`), which the
 * carrier measures one by one as it measures a single parcel. Each problem names the member at
 * fault: `physical_properties.width`, or `meta.colli[1].physical_properties.width`.
 */
export function sizeProblems(rate: ServiceRateRecord, physical: PhysicalProperties, colli: ShipmentDraft['colli'], serviceCode: string): Problem[] {
  const refusal = ` Service '${serviceCode}' on this contract cannot carry it.`;
  const own = parcelSizeExcesses(rate, physical).map((excess) => ({
    detail: excess.detail + refusal,
    field: fields.attribute(excess.member ? `physical_properties.${excess.member}` : 'physical_properties'),
  }));
  const ofColli = (colli ?? []).flatMap((collo, index) =>
    parcelSizeExcesses(rate, collo).map((excess) => ({
      detail: `Collo ${index + 1}: ${excess.detail}${refusal}`,
      field: fields.meta(`colli[${index}].physical_properties${excess.member ? `.${excess.member}` : ''}`),
    })),
  );
  return [...own, ...ofColli];
}
