import { createHash } from 'node:crypto';
import type { HookRecord } from '../../model/hook.js';
import type { ReadView } from '../../store/store.js';

/** Where a resource lives: its shop and organization decide which hooks apply. */
export type HookScope = { shopId: string; organizationId: string };

/**
 * The active hooks for a resource action (`create` unless named), in the order they run: the shop's hooks first, then
 * its organization's (an organization's hooks apply to all its shops); within one owner lower
 * `order` first; hooks with the same owner and order in a shuffled order that is fixed for the
 * seed and the resource, so a test run can be repeated exactly.
 */
export function hooksInOrder(
  store: ReadView,
  seed: number,
  scope: HookScope,
  resourceType: string,
  resourceId: string,
  action: HookRecord['trigger']['resource_action'] = 'create',
): HookRecord[] {
  const candidates = store
    .find('hooks', 'organization_id', scope.organizationId)
    .filter((hook) => hook.active && hook.trigger.resource_type === resourceType && hook.trigger.resource_action === action);
  const tie = (hook: HookRecord) => createHash('sha256').update(`${seed}:${resourceId}:${hook.id}`).digest('hex');
  const rank = (hook: HookRecord) => (hook.owner.type === 'shops' ? 0 : 1);
  return candidates
    .filter((hook) => hook.owner.type === 'organizations' || hook.owner.id === scope.shopId)
    .sort((a, b) => rank(a) - rank(b) || a.order - b.order || tie(a).localeCompare(tie(b)));
}
