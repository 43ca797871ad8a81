import type { ReturnQuestionRecord, ReturnReasonRecord, ShopReasonRecord, Usage } from '../../model/returns/config.js';
import type { ShopRecord } from '../../model/shop.js';
import type { ReadView, Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import { Problems } from '../shipments/problems.js';
import type { Acting } from '../rules.js';
import { ownRow, shopOr404 } from './access.js';

/** A reason a shop offers, with the rules that apply to it there. */
export interface OfferedReason {
  link: ShopReasonRecord;
  reason: ReturnReasonRecord;
  attachments: Usage;
  comment: Usage;
  questions: { question: ReturnQuestionRecord; is_required: boolean; yes_note?: string; no_note?: string }[];
}

const usageOf = (accepts: boolean, requires: boolean): Usage => (requires ? 'required' : accepts ? 'optional' : 'disabled');

/** The reasons a shop offers, in the order they were added. */
export function offeredReasons(store: ReadView, shopId: string): OfferedReason[] {
  return store.find('shopReasons', 'shop_id', shopId).flatMap((link) => {
    const reason = store.get('returnReasons', link.reason_id);
    if (!reason) return [];
    const questions = store.find('returnQuestions', 'organization_id', link.organization_id);
    return [
      {
        link,
        reason,
        attachments: link.attachments ?? usageOf(reason.accepts_attachments, reason.requires_attachments),
        comment: link.comment ?? usageOf(reason.accepts_comment, reason.requires_comment),
        questions: (link.questions ?? []).flatMap(({ yes_note, no_note, ...asked }) => {
          const question = questions.find((q) => q.code === asked.code);
          if (!question) return [];
          // Notes belong to yes/no questions (a change of the shop reason refuses them on others). Kept
          // when the question was made a text one since, they show again should it become yes/no again.
          return [question.answer_type === 'boolean' ? { ...asked, yes_note, no_note, question } : { ...asked, question }];
        }),
      },
    ];
  });
}

/** Offers more of the organization's reasons in `shop` (the caller's); ones offered already stay as they are. */
export function addShopReasons(tx: Tx, acting: Acting, shop: ShopRecord, reasonIds: readonly string[]): void {
  const problems = new Problems();
  reasonIds.forEach((id, index) => {
    if (!ownRow(acting, 'returnReasons', id)) problems.add(`No return reason with id '${id}' is available to you.`, { input: `return_reason_ids[${index}]` });
  });
  problems.throwIfAny();
  const offered = new Set(tx.find('shopReasons', 'shop_id', shop.id).map((link) => link.reason_id));
  for (const id of new Set(reasonIds)) {
    if (!offered.has(id)) tx.insert('shopReasons', { id: tx.newId(), shop_id: shop.id, organization_id: shop.organization_id, reason_id: id });
  }
}

/** How one of the caller's shops offers a reason: 404 for a shop that is not theirs or a reason it does not offer. */
export function shopReasonOr404(acting: Acting, shopId: string, reasonId: string): ShopReasonRecord {
  const shop = shopOr404(acting, shopId);
  const link = acting.rules.store.find('shopReasons', 'shop_id', shop.id).find((row) => row.reason_id === reasonId);
  if (!link) throw DomainError.notFound(`The shop offers no return reason with id '${reasonId}'.`);
  return link;
}

/** The shop stops offering the reason of `link`. */
export function removeShopReason(tx: Tx, link: ShopReasonRecord): void {
  tx.remove('shopReasons', link.id);
}

export interface ShopReasonChanges {
  attachments?: Usage | null;
  comment?: Usage | null;
  questions?: { code: string; is_required: boolean; yes_note?: string; no_note?: string }[] | null;
}

/** How the shop offers one reason (`link`); `null` goes back to the reason's own rules (or no questions). */
export function updateShopReason(tx: Tx, link: ShopReasonRecord, changes: ShopReasonChanges): void {
  const known = new Map(tx.find('returnQuestions', 'organization_id', link.organization_id).map((q) => [q.code, q]));
  const problems = new Problems();
  (changes.questions ?? []).forEach((asked, index) => {
    if (!known.has(asked.code)) problems.add(`No return question with code '${asked.code}' is available to you.`, { input: `questions[${index}].code` });
    else if ((asked.yes_note !== undefined || asked.no_note !== undefined) && known.get(asked.code)!.answer_type !== 'boolean') {
      problems.add('yes_note and no_note belong to yes/no (boolean) questions.', { input: `questions[${index}]` });
    }
  });
  if (new Set((changes.questions ?? []).map((q) => q.code)).size !== (changes.questions ?? []).length)
    problems.add('Each question can be asked once.', { input: 'questions' });
  problems.throwIfAny();
  const update: Partial<ShopReasonRecord> = {};
  if ('attachments' in changes) update.attachments = changes.attachments ?? undefined;
  if ('comment' in changes) update.comment = changes.comment ?? undefined;
  if ('questions' in changes)
    update.questions = changes.questions?.map(({ code, is_required, yes_note, no_note }) => ({ code, is_required, yes_note, no_note }));
  tx.update('shopReasons', link.id, update);
}
