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
  // A volumetric weight the client sent is read-only: it is computed or left out.
  const { volumetric_weight: _sent, ...given } = physical;
  const { length, width, height } = given;
  if (length === undefined || width === undefined || height === undefined) return given;
  const divisor = service && contract ? effectiveDivisor(service, contract) : DEFAULT_VOLUMETRIC_DIVISOR;
  return { ...given, volumetric_weight: volumetricWeight({ length, width, height }, divisor) };
}
