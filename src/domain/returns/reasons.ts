import type { ReturnQuestionRecord, ReturnReasonRecord } from '../../model/returns/config.js';
import type { ReadView, Tx } from '../../store/store.js';
import { DomainError, type Field } from '../errors.js';
import type { Acting } from '../rules.js';
import { Problems } from '../shipments/problems.js';
import { organizationOf } from './access.js';

/*
 * Return reasons and questions: each organization has its own catalogue (seeded with sensible
 * defaults), from which its shops pick the reasons they offer (shop-reasons.ts).
 */

export type ReasonInput = Omit<ReturnReasonRecord, 'id' | 'organization_id' | 'created_at'>;
export type QuestionInput = Omit<ReturnQuestionRecord, 'id' | 'organization_id' | 'created_at'>;

const codeField: Field = { attribute: 'code' };

/**
 * Every rule a reason breaks, at once. `sent`: on an update, the attributes it sent; a requirement
 * it turned on beside an acceptance it kept off is blamed on the requirement, asking for both.
 */
function checkReason(view: ReadView, organizationId: string, reason: ReasonInput, id?: string, sent?: ReadonlySet<string>): void {
  const problems = new Problems();
  const taken = view.find('returnReasons', 'organization_id', organizationId).some((row) => row.code === reason.code && row.id !== id);
  if (taken) problems.add(`A return reason with code '${reason.code}' exists already.`, codeField);
  const pair = (detail: string, requires: string, accepts: string) => {
    if (sent && !sent.has(accepts) && sent.has(requires)) problems.add(`${detail} Send ${accepts}: true too.`, { attribute: requires });
    else problems.add(detail, { attribute: accepts });
  };
  if (reason.requires_attachments && !reason.accepts_attachments) {
    pair('A reason that requires attachments must accept them.', 'requires_attachments', 'accepts_attachments');
  }
  if (reason.requires_comment && !reason.accepts_comment) pair('A reason that requires a comment must accept one.', 'requires_comment', 'accepts_comment');
  problems.throwIfAny();
}

/** Adds a reason to the caller's catalogue (422 for a code in use or a requirement it does not accept). */
export function createReason(tx: Tx, acting: Acting, input: ReasonInput): ReturnReasonRecord {
  const organizationId = organizationOf(acting);
  checkReason(tx, organizationId, input);
  return tx.insert('returnReasons', { ...input, id: tx.newId(), organization_id: organizationId, created_at: acting.rules.clock.now() });
}

/** Changes `current`, a reason the handler found to be the caller's. */
export function updateReason(tx: Tx, current: ReturnReasonRecord, changes: Partial<ReasonInput>): ReturnReasonRecord {
  checkReason(tx, current.organization_id, { ...current, ...changes }, current.id, new Set(Object.keys(changes)));
  return tx.update('returnReasons', current.id, changes);
}

/** Shops stop offering the reason; returns keep the reason as the consumer gave it. */
export function deleteReason(tx: Tx, reason: ReturnReasonRecord): void {
  for (const link of tx.find('shopReasons', 'reason_id', reason.id)) tx.remove('shopReasons', link.id);
  tx.remove('returnReasons', reason.id);
}

function checkQuestion(view: ReadView, organizationId: string, code: string, id?: string): void {
  const taken = view.find('returnQuestions', 'organization_id', organizationId).some((row) => row.code === code && row.id !== id);
  if (taken) throw DomainError.unprocessable(`A return question with code '${code}' exists already.`, codeField);
}

/** Adds a question to the caller's catalogue (422 for a code in use). */
export function createQuestion(tx: Tx, acting: Acting, input: QuestionInput): ReturnQuestionRecord {
  const organizationId = organizationOf(acting);
  checkQuestion(tx, organizationId, input.code);
  return tx.insert('returnQuestions', { ...input, id: tx.newId(), organization_id: organizationId, created_at: acting.rules.clock.now() });
}

/** A new code is carried into the shop reasons that ask the question, so they keep asking it. */
export function updateQuestion(tx: Tx, current: ReturnQuestionRecord, changes: Partial<QuestionInput>): ReturnQuestionRecord {
  if (changes.code !== undefined) checkQuestion(tx, current.organization_id, changes.code, current.id);
  if (changes.code !== undefined && changes.code !== current.code) {
    for (const link of tx.all('shopReasons')) {
      if (link.organization_id !== current.organization_id || !link.questions?.some((q) => q.code === current.code)) continue;
      tx.update('shopReasons', link.id, { questions: link.questions.map((q) => (q.code === current.code ? { ...q, code: changes.code! } : q)) });
    }
  }
  return tx.update('returnQuestions', current.id, changes);
}

/** Shop reasons stop asking it. */
export function deleteQuestion(tx: Tx, current: ReturnQuestionRecord): void {
  for (const link of tx.all('shopReasons')) {
    if (link.organization_id !== current.organization_id || !link.questions?.some((q) => q.code === current.code)) continue;
    tx.update('shopReasons', link.id, { questions: link.questions.filter((q) => q.code !== current.code) });
  }
  tx.remove('returnQuestions', current.id);
}

/** Whether a stored text has a given tag list entry (`filter[tags]`: any of them). */
export const hasAnyTag = (reason: ReturnReasonRecord, tags: readonly string[]): boolean => tags.some((tag) => reason.tags?.includes(tag));
