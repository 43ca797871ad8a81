import type { OrderItem } from '../../model/returns/common.js';
import type { DemoOrderRecord } from '../../model/returns/order.js';
import type { ReturnRecord, ReturnStatusCode } from '../../model/returns/return.js';
import type { ReadView, Tx } from '../../store/store.js';
import { DomainError, type Field } from '../errors.js';
import type { Acting } from '../rules.js';
import { organizationOf, ownShop, unknownRelated } from './access.js';

/** Demo order ids are whole numbers, like production's; they are the order references too. The seeded ones count up from here. */
export const FIRST_DEMO_ORDER = 100001;

/** Orders made later draw a ten-digit number from here on: above every seeded one, within a 32-bit integer. */
const DRAWN_FROM = 1_000_000_000;
const DRAWN_SPAN = 1_000_000_000;

/**
 * The id of a new demo order. With a postal code (or e-mail address) it is all the consumer's
 * look-up asks for, so it is drawn as a public id is (random; for an example row, keyed with the
 * data file's secret), never counted up: a count would tell a tenant how many orders the others
 * made, and lead from one order to the next. `publicId` draws it (the store's `IdSource.publicId`,
 * beside the counter of row ids, so the ids of the rows made after it stay those they were);
 * `taken` holds ids handed out but not stored yet.
 */
export function newDemoOrderId(store: ReadView, publicId: () => string, taken: ReadonlySet<string> = new Set()): string {
  for (;;) {
    // The first twelve hex digits of the UUID: its version digit comes after them.
    const drawn = parseInt(publicId().replaceAll('-', '').slice(0, 12), 16);
    const id = String(DRAWN_FROM + (drawn % DRAWN_SPAN));
    if (!store.get('demoOrders', id) && !taken.has(id)) return id;
  }
}

export interface DemoOrderInput {
  shopId: string;
  recipient_address: DemoOrderRecord['recipient_address'];
  items: (Omit<OrderItem, 'id' | 'non_returnable'> & { non_returnable?: boolean })[];
  outbound_shipment_identifier?: string | null;
  is_third_party?: boolean;
}

/** Adds a demo order to one of the caller's shops (422 at the shop for one that is not theirs). */
export function createDemoOrder(tx: Tx, acting: Acting, input: DemoOrderInput): DemoOrderRecord {
  const shop = ownShop(tx, organizationOf(acting), input.shopId);
  if (!shop) throw unknownRelated('shop', 'shops', input.shopId);
  const id = newDemoOrderId(tx, () => acting.rules.store.ids.publicId());
  return tx.insert('demoOrders', {
    id,
    shop_id: shop.id,
    organization_id: shop.organization_id,
    recipient_address: input.recipient_address,
    items: input.items.map((item, index) => ({ ...item, id: `${id}-${index + 1}`, non_returnable: item.non_returnable ?? false })),
    outbound_shipment_identifier: input.outbound_shipment_identifier ?? undefined,
    is_third_party: input.is_third_party,
    created_at: acting.rules.clock.now(),
  });
}

/** A shop's order by reference. */
export function orderOf(store: ReadView, shopId: string, reference: string): DemoOrderRecord | undefined {
  const order = store.get('demoOrders', reference);
  return order && order.shop_id === shopId ? order : undefined;
}

const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, '').toUpperCase();

/** Whether the consumer knows the order: its e-mail address, or its postal code. */
export function consumerKnows(order: DemoOrderRecord, proof: { email?: string; postal_code?: string }): boolean {
  if (proof.email !== undefined) return order.recipient_address.email.toLowerCase() === proof.email.trim().toLowerCase();
  if (proof.postal_code !== undefined) return squash(order.recipient_address.postal_code) === squash(proof.postal_code) && squash(proof.postal_code) !== '';
  return false;
}

/** Returns that no longer claim their items: rejected, too late, or replaced by a reissue. */
const RELEASED: ReadonlySet<ReturnStatusCode> = new Set(['return-rejected', 'return-deadline-passed', 'return-reissued']);
export const claimsItems = (row: ReturnRecord): boolean => !RELEASED.has(row.status_code);

/** The returns of an order, oldest first. */
export const returnsOf = (store: ReadView, order: DemoOrderRecord): readonly ReturnRecord[] => store.find('returns', 'order_id', order.id);

/** How many of each item the order's returns claim already. */
export function returnedQuantities(store: ReadView, order: DemoOrderRecord): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of returnsOf(store, order).filter(claimsItems)) {
    for (const item of row.items) counts.set(item.id, (counts.get(item.id) ?? 0) + item.quantity);
  }
  return counts;
}

/** Whether anything of the order can still be returned. */
function hasReturnableLeft(store: ReadView, order: DemoOrderRecord): boolean {
  const returned = returnedQuantities(store, order);
  return order.items.some((item) => !item.non_returnable && item.quantity > (returned.get(item.id) ?? 0));
}

const notFound = (reference: string) => DomainError.notFound(`No order '${reference}' with these details exists for the shop.`);

/**
 * The order a return portal looks up: the shop must be the caller's and the consumer must prove
 * the order with its e-mail address or postal code; anything else is the same 404. 409 when
 * everything in it was returned already (unless a reissue is allowed).
 */
export function lookUpOrder(acting: Acting, query: { shopId: string; reference: string; email?: string; postal_code?: string }): DemoOrderRecord {
  if (query.email === undefined && query.postal_code === undefined) {
    throw DomainError.invalid('Send the e-mail address or the postal code of the order.', { parameter: 'email' });
  }
  const shop = ownShop(acting.rules.store, organizationOf(acting), query.shopId);
  const order = shop && orderOf(acting.rules.store, shop.id, query.reference);
  if (!order || !consumerKnows(order, query)) throw notFound(query.reference);
  if (!order.reissue_allowed && returnsOf(acting.rules.store, order).length > 0 && !hasReturnableLeft(acting.rules.store, order)) {
    throw DomainError.conflict(`Everything in order '${query.reference}' has been returned already.`);
  }
  return order;
}

/** An order named in a body (resolve, create), with the problem at `field` when it is unknown. */
export function orderFor(acting: Acting, shopId: string, reference: string, proof: { email?: string; postal_code?: string }, field: Field): DemoOrderRecord {
  const order = orderOf(acting.rules.store, shopId, reference);
  if (!order || !consumerKnows(order, proof)) {
    throw DomainError.unprocessable(
      `No order '${reference}' with this ${proof.email !== undefined ? 'e-mail address' : 'postal code'} exists for the shop.`,
      field,
    );
  }
  return order;
}

/** An order of one of the caller's shops by reference, or 404. */
export function shopOrderOr404(acting: Acting, shopId: string, reference: string): DemoOrderRecord {
  const shop = ownShop(acting.rules.store, organizationOf(acting), shopId);
  const order = shop && orderOf(acting.rules.store, shop.id, reference);
  if (!order) throw DomainError.notFound(`No order '${reference}' exists for the shop.`);
  return order;
}

/** `POST /returns/v1/allow-reissue`: the next return of `order` may return everything again. */
export function allowReissue(tx: Tx, order: DemoOrderRecord): void {
  // Production's statuses: an order with nothing to reissue is 422, a reissue asked twice 409.
  if (!returnsOf(tx, order).some(claimsItems)) {
    throw DomainError.unprocessable(`Order '${order.id}' has no open return to reissue: a new return can be made as it is.`);
  }
  if (order.reissue_allowed) throw DomainError.conflict(`Order '${order.id}' may be returned again already; its next return uses that up.`);
  tx.update('demoOrders', order.id, { reissue_allowed: true });
}

/** A reissue is used up by the return it allowed; the returns it replaces are marked reissued. */
export function consumeReissue(tx: Tx, order: DemoOrderRecord, markReissued: (row: ReturnRecord) => void): boolean {
  if (!order.reissue_allowed) return false;
  for (const row of returnsOf(tx, order).filter(claimsItems)) markReissued(row);
  tx.update('demoOrders', order.id, { reissue_allowed: undefined });
  return true;
}
