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
  const { weight, length, width, height, volume } = physical;
  // Built field by field rather than as `{ ...rest, volumetric_weight }`: V8 gives each such object its own hidden class (see `freezeRow` in store/store.ts).
  const out: PhysicalProperties = { weight };
  if (length !== undefined) out.length = length;
  if (width !== undefined) out.width = width;
  if (height !== undefined) out.height = height;
  if (volume !== undefined) out.volume = volume;
  if (length === undefined || width === undefined || height === undefined) return out;
  const divisor = service && contract ? effectiveDivisor(service, contract) : DEFAULT_VOLUMETRIC_DIVISOR;
  out.volumetric_weight = volumetricWeight({ length, width, height }, divisor);
  return out;
}
