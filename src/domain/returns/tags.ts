import type { ReturnTagRecord } from '../../model/returns/config.js';
import { DomainError, missingRelated, type Field } from '../errors.js';
import { Problems } from '../shipments/problems.js';
import type { Acting } from '../rules.js';
import { isOpen } from './statuses.js';
import { organizationOf, ownOr404, ownRow, ownShop } from './access.js';

/** Tags a shop sorts its returns with; a return's tags also go onto its return shipment. */

function checkName(acting: Acting, shopId: string, name: string, id?: string): void {
  const taken = acting.rules.store.find('returnTags', 'shop_id', shopId).some((tag) => tag.name === name && tag.id !== id);
  if (taken) throw DomainError.unprocessable(`The shop has a return tag named '${name}' already.`, { attribute: 'name' });
}

export async function createTag(acting: Acting, input: { shopId: string; name: string; color: string }): Promise<ReturnTagRecord> {
  const shop = ownShop(acting.rules.store, organizationOf(acting), input.shopId);
  if (!shop) throw missingRelated('shop', 'shops', input.shopId);
  checkName(acting, shop.id, input.name);
  const { store, clock } = acting.rules;
  return store.transact((tx) =>
    tx.insert('returnTags', {
      id: tx.newId(),
      shop_id: shop.id,
      organization_id: shop.organization_id,
      name: input.name,
      color: input.color,
      created_at: clock.now(),
    }),
  );
}

export async function updateTag(acting: Acting, id: string, changes: { name?: string; color?: string }): Promise<ReturnTagRecord> {
  const current = ownOr404(acting, 'returnTags', 'return-tags', id);
  if (changes.name !== undefined) checkName(acting, current.shop_id, changes.name, id);
  return acting.rules.store.transact((tx) => tx.update('returnTags', id, changes));
}

/** Returns lose the tag; their shipments keep what they were registered with. */
export async function deleteTag(acting: Acting, id: string): Promise<void> {
  const tag = ownOr404(acting, 'returnTags', 'return-tags', id);
  await acting.rules.store.transact((tx) => {
    for (const row of tx.find('returns', 'organization_id', tag.organization_id)) {
      if (row.tag_ids.includes(id)) tx.update('returns', row.id, { tag_ids: row.tag_ids.filter((tagId) => tagId !== id) });
    }
    tx.remove('returnTags', id);
  });
}

/** The tags named for a return of `shopId`: each must be a tag of that shop. */
function checkTagIds(acting: Acting, shopId: string, ids: readonly string[], field: (index: number) => Field): string[] {
  const problems = new Problems();
  ids.forEach((id, index) => {
    const tag = ownRow(acting, 'returnTags', id);
    if (!tag || tag.shop_id !== shopId) problems.add(`No return tag with id '${id}' exists for the return's shop.`, field(index));
  });
  problems.throwIfAny();
  return [...new Set(ids)];
}

/** Replaces the tags of a return (`POST .../tag`). */
export async function tagReturn(acting: Acting, returnId: string, tagIds: readonly string[]): Promise<void> {
  const row = ownOr404(acting, 'returns', 'returns', returnId);
  // Production refuses to tag a decided return (422). A return shipment whose registration failed
  // is retried with the tags of then, so its return may still be tagged (a trigger tag taken off).
  const shipment = row.shipment_id ? acting.rules.store.get('shipments', row.shipment_id) : undefined;
  if (!isOpen(row) && shipment?.status_code !== 'shipment-registration-failed') {
    throw DomainError.unprocessable(
      `The return is ${row.status_code}: its tags change while it is open, or while its return shipment's registration has failed (before retry-shipment).`,
    );
  }
  const ids = checkTagIds(acting, row.shop_id, tagIds, (index) => ({ input: `return_tag_ids[${index}]` }));
  const { store, clock } = acting.rules;
  await store.transact((tx) => tx.update('returns', row.id, { tag_ids: ids, updated_at: clock.now() }));
}
