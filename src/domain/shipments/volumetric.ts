import type { ContractRecord } from '../../model/contract.js';
import type { ServiceRecord } from '../../model/service.js';
import type { PhysicalProperties } from '../../model/shipment.js';
import { DEFAULT_VOLUMETRIC_DIVISOR, effectiveDivisor, volumetricWeight } from '../rates.js';

/**
 * The physical properties with the computed `volumetric_weight` (read-only for clients): from
 * length, width and height when all three are known, with the service divisor times the
 * contract factor, or the common 5000 before a service and contract are chosen.
 */
export function withVolumetricWeight(physical: PhysicalProperties, service?: ServiceRecord, contract?: ContractRecord): PhysicalProperties {
  const { volumetric_weight: _ignored, ...rest } = physical;
  const { length, width, height } = rest;
  if (length === undefined || width === undefined || height === undefined) return rest;
  const divisor = service && contract ? effectiveDivisor(service, contract) : DEFAULT_VOLUMETRIC_DIVISOR;
  return { ...rest, volumetric_weight: volumetricWeight({ length, width, height }, divisor) };
}
