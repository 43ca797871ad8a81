import type { ReturnItemRecord, ReturnRecord } from '../../model/returns/return.js';
import type { ReadView } from '../../store/store.js';
import { textIn } from './localize.js';

/**
 * How a return reads to its shop, shared by its JSON:API answer and by the hook predicates that
 * run on it: a predicate must find what `GET /returns/v1/returns/{id}` answers at its pointer.
 */

/** An item as answered: texts in `locale`, photos as `data:` URLs. */
export function answeredItem(row: ReturnItemRecord, locale: string | undefined) {
  const { reason, ...facts } = row;
  if (!reason) return facts;
  return {
    ...facts,
    reason: {
      code: reason.code,
      description: textIn(reason.description, locale),
      ...(reason.comment !== undefined ? { comment: reason.comment } : {}),
      ...(reason.attachments ? { attachments: reason.attachments.map((file) => ({ url: `data:${file.mime_type};base64,${file.data}` })) } : {}),
      ...(reason.questions ? { questions: reason.questions.map((q) => ({ code: q.code, answer: q.answer, description: textIn(q.description, locale) })) } : {}),
    },
  };
}

/** The attributes of a return in a list too; the outcome flags are worked out from its items. */
export const simpleAttributes = (row: ReturnRecord) => ({
  created_at: row.created_at,
  order_reference: row.order_reference,
  return_address: row.return_address,
  consumer_address: row.consumer_address,
  locale: row.locale,
  rejection_message: row.rejection_message,
  has_preferred_outcome_refund: row.items.some((i) => i.preferred_outcome === 'refund'),
  has_preferred_outcome_exchange: row.items.some((i) => i.preferred_outcome === 'exchange'),
});

/** The order's facts in a return's `meta` (the sandbox's returns are all parcels). */
export function orderMeta(store: ReadView, row: ReturnRecord) {
  const order = store.get('demoOrders', row.order_id);
  return { order_created_at: order?.created_at, package_type: 'parcel' as const, allows_reissue: order?.reissue_allowed === true };
}
