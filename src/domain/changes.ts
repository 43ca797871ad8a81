import { canonicalJson } from './canonical-json.js';

/**
 * Whether `changes` would change `current`: a member set to what the row holds already (a client
 * sending a resource back as it read it) is no change, nor is removing one it does not hold.
 */
export function changesAny<T extends object>(current: T, changes: Partial<T>): boolean {
  return Object.entries(changes).some(([key, value]) => canonicalJson(value) !== canonicalJson((current as Record<string, unknown>)[key]));
}
