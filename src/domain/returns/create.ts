import type { ReturnRecord } from '../../model/returns/return.js';
import type { ShopRecord } from '../../model/shop.js';
import type { Tx } from '../../store/store.js';
import { Problems } from '../shipments/problems.js';
import type { Field } from '../errors.js';
import type { Acting } from '../rules.js';
import { organizationOf, ownRow, ownShop, unknownRelated } from './access.js';
import { returnAddressOf } from './addresses.js';
import { setStatus } from './decide.js';
import { returnItems, type ItemInput } from './items.js';
import { offers } from './methods.js';
import { consumeReissue, consumerKnows, orderOf } from './orders.js';
import { statusRow } from './statuses.js';

export interface ReturnInput {
  shopId: string;
  methodId: string;
  tagId?: string;
  order_reference: string;
  consumer_address: ReturnRecord['consumer_address'];
  items: ItemInput[];
  locale?: ShopRecord['locale'];
}

const rel = (name: string): Field => ({ relationship: `${name}.id` });

/**
 * A consumer's return of items of an order. Every rule is checked before anything is stored and
 * all violations are answered together: the order must be the shop's and its e-mail address the
 * consumer's, the method must be the shop's and offered where the consumer lives, the items must
 * be returnable (items.ts). Then the return is `return-pending` and the shop's hooks run on it.
 */
export function createReturn(tx: Tx, acting: Acting, input: ReturnInput): ReturnRecord {
  const shop = ownShop(tx, organizationOf(acting), input.shopId);
  if (!shop) throw unknownRelated('shop', 'shops', input.shopId);
  const problems = new Problems();
  const method = ownRow(acting, 'returnMethods', input.methodId);
  const usable = method && method.shop_id === shop.id && method.deleted_at === undefined ? method : undefined;
  if (!usable) problems.add(`The shop has no return method '${input.methodId}'.`, rel('return_method'));
  else if (!offers(acting, usable, shop, input.consumer_address)) {
    problems.add(`Return method '${usable.title ?? usable.id}' is not offered to consumers in ${input.consumer_address.country_code}.`, rel('return_method'));
  }
  const tag = input.tagId === undefined ? undefined : ownRow(acting, 'returnTags', input.tagId);
  if (input.tagId !== undefined && (!tag || tag.shop_id !== shop.id)) problems.add(`The shop has no return tag '${input.tagId}'.`, rel('tags'));
  const order = orderOf(tx, shop.id, input.order_reference);
  const known = order && consumerKnows(order, { email: input.consumer_address.email });
  if (!known) problems.add(`No order '${input.order_reference}' with this e-mail address exists for the shop.`, { attribute: 'order_reference' });
  const items = order && known ? returnItems(tx, shop, order, input.items, problems) : [];
  problems.throwIfAny();

  const now = acting.rules.clock.now();
  consumeReissue(tx, order!, (earlier) => setStatus(tx, earlier, 'return-reissued', now));
  const created = tx.insert('returns', {
    id: tx.newId(),
    organization_id: shop.organization_id,
    shop_id: shop.id,
    order_id: order!.id,
    order_reference: order!.id,
    return_method_id: usable!.id,
    tag_ids: tag ? [tag.id] : [],
    consumer_address: input.consumer_address,
    return_address: returnAddressOf(shop, usable!.address),
    locale: input.locale ?? shop.locale,
    items,
    status_code: 'return-pending',
    status_id: statusRow(tx, 'return-pending').id,
    registrations: [],
    created_at: now,
    updated_at: now,
  });
  return acting.rules.events?.returnCreated?.(tx, created) ?? created;
}
