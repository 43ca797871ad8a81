import type { ShopRecord } from '../../model/shop.js';
import type { DemoOrderRecord } from '../../model/returns/order.js';
import type { ReturnItemRecord } from '../../model/returns/return.js';
import type { ReadView } from '../../store/store.js';
import type { Problems } from '../shipments/problems.js';
import type { Field } from '../errors.js';
import { returnedQuantities } from './orders.js';
import { offeredReasons, type OfferedReason } from './shop-reasons.js';

/** An item as a consumer sends it (production's PostReturnItem). */
export interface ItemInput {
  id: string;
  quantity: number;
  preferred_outcome?: 'refund' | 'exchange';
  reason?: {
    code: string;
    comment?: string | null;
    attachments?: { data: string; extension: 'jpg' | 'jpeg' | 'png' }[];
    questions?: { code: string; answer: string | boolean }[];
  };
}

const MIME = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' } as const;
const MAX_ATTACHMENT_BYTES = 2 * 1024 * 1024;

/** Whether base64 text is an image of the type its extension says (by its first bytes). */
function isImage(data: string, extension: keyof typeof MIME): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return false;
  const bytes = Buffer.from(data.slice(0, 16), 'base64');
  return MIME[extension] === 'image/png' ? bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) : bytes[0] === 0xff && bytes[1] === 0xd8;
}

function checkReason(offered: OfferedReason, reason: NonNullable<ItemInput['reason']>, at: string, problems: Problems): void {
  const field = (path: string): Field => ({ attribute: `${at}.${path}` });
  const comment = reason.comment?.trim() ? reason.comment : undefined;
  if (offered.comment === 'required' && !comment) problems.add(`Reason '${reason.code}' needs a comment.`, field('comment'));
  if (offered.comment === 'disabled' && comment) problems.add(`Reason '${reason.code}' takes no comment.`, field('comment'));
  const attachments = reason.attachments ?? [];
  if (offered.attachments === 'required' && attachments.length === 0) problems.add(`Reason '${reason.code}' needs at least one photo.`, field('attachments'));
  if (offered.attachments === 'disabled' && attachments.length > 0) problems.add(`Reason '${reason.code}' takes no photos.`, field('attachments'));
  attachments.forEach((file, index) => {
    if (!isImage(file.data, file.extension))
      problems.add(`Attachment ${index} is not base64 ${file.extension} image data.`, field(`attachments[${index}].data`));
    else if (Math.floor((file.data.length * 3) / 4) > MAX_ATTACHMENT_BYTES)
      problems.add(`Attachment ${index} is larger than 2 MB.`, field(`attachments[${index}].data`));
  });
  const answers = reason.questions ?? [];
  answers.forEach((answer, index) => {
    const asked = offered.questions.find((q) => q.question.code === answer.code);
    if (!asked) problems.add(`Reason '${reason.code}' asks no question '${answer.code}' in this shop.`, field(`questions[${index}].code`));
    else if (typeof answer.answer !== asked.question.answer_type)
      problems.add(`Question '${answer.code}' takes a ${asked.question.answer_type} answer.`, field(`questions[${index}].answer`));
  });
  for (const asked of offered.questions) {
    if (asked.is_required && !answers.some((answer) => answer.code === asked.question.code))
      problems.add(`Question '${asked.question.code}' must be answered.`, field('questions'));
  }
}

/**
 * The items of a new return, checked against the order and the shop: items of the order, not
 * marked non-returnable, no more than ordered minus what its other returns claim (all of it
 * after a reissue), an outcome the shop offers, a reason the shop offers with its rules.
 */
export function returnItems(store: ReadView, shop: ShopRecord, order: DemoOrderRecord, items: readonly ItemInput[], problems: Problems): ReturnItemRecord[] {
  const claimed = order.reissue_allowed ? new Map<string, number>() : returnedQuantities(store, order);
  const reasons = offeredReasons(store, shop.id);
  const asked = new Map<string, number>();
  return items.flatMap((item, index) => {
    const field = (path: string): Field => ({ attribute: `items[${index}].${path}` });
    const ordered = order.items.find((candidate) => candidate.id === item.id);
    if (!ordered) {
      problems.add(`Order '${order.id}' has no item '${item.id}'.`, field('id'));
      return [];
    }
    if (ordered.non_returnable) problems.add(`Item '${item.id}' (${ordered.name}) cannot be returned.`, field('id'));
    const total = (asked.get(item.id) ?? 0) + item.quantity;
    asked.set(item.id, total);
    const left = ordered.quantity - (claimed.get(item.id) ?? 0);
    if (total > left)
      problems.add(
        `${ordered.quantity} of item '${item.id}' were ordered and ${ordered.quantity - left} returned already: at most ${left} can be returned.`,
        field('quantity'),
      );
    const outcome = item.preferred_outcome ?? 'refund';
    if (outcome === 'exchange' && shop.return_outcomes?.exchange !== true)
      problems.add('The shop offers no exchanges, only refunds.', field('preferred_outcome'));
    const offered = item.reason && reasons.find((candidate) => candidate.reason.code === item.reason!.code);
    if (item.reason && !offered) problems.add(`The shop offers no return reason '${item.reason.code}'.`, field('reason.code'));
    if (item.reason && offered) checkReason(offered, item.reason, `items[${index}].reason`, problems);
    const { non_returnable: _n, quantity: _q, ...facts } = ordered;
    return [
      {
        ...facts,
        quantity: item.quantity,
        preferred_outcome: outcome,
        ...(item.reason && offered
          ? {
              reason: {
                code: offered.reason.code,
                description: offered.reason.description,
                ...(item.reason.comment?.trim() ? { comment: item.reason.comment } : {}),
                ...(item.reason.attachments?.length
                  ? { attachments: item.reason.attachments.map((file) => ({ mime_type: MIME[file.extension], data: file.data })) }
                  : {}),
                ...(item.reason.questions?.length
                  ? {
                      questions: item.reason.questions.map((answer) => ({
                        ...answer,
                        description: offered.questions.find((q) => q.question.code === answer.code)?.question.description ?? answer.code,
                      })),
                    }
                  : {}),
              },
            }
          : {}),
      },
    ];
  });
}
