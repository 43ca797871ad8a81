import type { Endpoint } from '../../src/http/endpoint.js';
import type { Json } from './app.js';
import { fillPath, ownParams, validBody, type Populated } from './matrix.js';
import { preferredReturnParams } from './matrix-returns.js';

/**
 * What organization A sends to `endpoint` when it means well: its own resources in the path (a
 * concept shipment where one is named, a return in the state the action needs) and a body the
 * endpoint takes. The sweeps that send requests wrong (fuzz, error wording) start from it and
 * change one thing at a time.
 */
export function wellMeantRequest(p: Populated, endpoint: Endpoint): { params: Record<string, string>; path: string; body: Json } {
  const prefer: Record<string, string> = {
    ...(endpoint.method === 'get' ? {} : { shipment_id: p.a.conceptShipmentId }),
    ...preferredReturnParams(endpoint, p.a.returns),
  };
  const params = ownParams(p.sandbox.store, endpoint, p.a.organizationId, prefer)!;
  const body: Json = endpoint.body ? (validBody(p.sandbox.store, endpoint, p.a, params) ?? {}) : undefined;
  return { params, path: fillPath(endpoint.path, params), body };
}
