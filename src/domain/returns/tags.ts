import type { ReturnTagRecord } from '../../model/returns/config.js';
import type { ReturnRecord } from '../../model/returns/return.js';
import type { ReadView, Tx } from '../../store/store.js';
import { DomainError, missingRelated, type Field } from '../errors.js';
import { Problems } from '../shipments/problems.js';
import type { Acting } from '../rules.js';
import { isOpen } from './statuses.js';
import { organizationOf, ownRow, ownShop } from './access.js';

/** Tags a shop sorts its returns with; a return's tags also go onto its return shipment. */

function checkName(view: ReadView, shopId: string, name: string, id?: string): void {
  const taken = view.find('returnTags', 'shop_id', shopId).some((tag) => tag.name === name && tag.id !== id);
  if (taken) throw DomainError.unprocessable(`The shop has a return tag named '${name}' already.`, { attribute: 'name' });
}

/** Adds a tag to one of the caller's shops (422 for a shop that is not theirs or a name it uses). */
export function createTag(tx: Tx, acting: Acting, input: { shopId: string; name: string; color: string }): ReturnTagRecord {
  const shop = ownShop(tx, organizationOf(acting), input.shopId);
  if (!shop) throw missingRelated('shop', 'shops', input.shopId);
  checkName(tx, shop.id, input.name);
  return tx.insert('returnTags', {
    id: tx.newId(),
    shop_id: shop.id,
    organization_id: shop.organization_id,
    name: input.name,
    color: input.color,
    created_at: acting.rules.clock.now(),
  });
}

/** Renames or recolours `current`, a tag the handler found to be the caller's. */
export function updateTag(tx: Tx, current: ReturnTagRecord, changes: { name?: string; color?: string }): ReturnTagRecord {
  if (changes.name !== undefined) checkName(tx, current.shop_id, changes.name, current.id);
  return tx.update('returnTags', current.id, changes);
}

/** Returns lose the tag; their shipments keep what they were registered with. */
export function deleteTag(tx: Tx, tag: ReturnTagRecord): void {
  for (const row of tx.find('returns', 'organization_id', tag.organization_id)) {
    if (row.tag_ids.includes(tag.id)) tx.update('returns', row.id, { tag_ids: row.tag_ids.filter((tagId) => tagId !== tag.id) });
  }
  tx.remove('returnTags', tag.id);
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

/** Replaces the tags of `row`, a return the handler found to be the caller's (`POST .../tag`). */
export function tagReturn(tx: Tx, acting: Acting, row: ReturnRecord, tagIds: readonly string[]): void {
  // Production refuses to tag a decided return (422). A return shipment whose registration failed
  // is retried with the tags of then, so its return may still be tagged (a trigger tag taken off).
  const shipment = row.shipment_id ? tx.get('shipments', row.shipment_id) : undefined;
  const retriable = row.status_code === 'return-approved' && shipment?.status_code === 'shipment-registration-failed';
  if (!isOpen(row) && !retriable) {
    throw DomainError.unprocessable(
      `The return is ${row.status_code}: its tags change while it is open, or while its return shipment's registration has failed (before retry-shipment).`,
    );
  }
  const ids = checkTagIds(acting, row.shop_id, tagIds, (index) => ({ input: `return_tag_ids[${index}]` }));
  tx.update('returns', row.id, { tag_ids: ids, updated_at: acting.rules.clock.now() });
}
