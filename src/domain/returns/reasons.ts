import type { ReturnQuestionRecord, ReturnReasonRecord } from '../../model/returns/config.js';
import { DomainError, type Field } from '../errors.js';
import type { Acting } from '../rules.js';
import { organizationOf, ownOr404 } from './access.js';

/*
 * Return reasons and questions: each organization has its own catalogue (seeded with sensible
 * defaults), from which its shops pick the reasons they offer (shop-reasons.ts).
 */

export type ReasonInput = Omit<ReturnReasonRecord, 'id' | 'organization_id' | 'created_at'>;
export type QuestionInput = Omit<ReturnQuestionRecord, 'id' | 'organization_id' | 'created_at'>;

const codeField: Field = { attribute: 'code' };

function checkReason(acting: Acting, reason: ReasonInput, id?: string): void {
  const taken = acting.rules.store.find('returnReasons', 'organization_id', organizationOf(acting)).some((row) => row.code === reason.code && row.id !== id);
  if (taken) throw DomainError.unprocessable(`A return reason with code '${reason.code}' exists already.`, codeField);
  if (reason.requires_attachments && !reason.accepts_attachments) {
    throw DomainError.unprocessable('A reason that requires attachments must accept them.', { attribute: 'accepts_attachments' });
  }
  if (reason.requires_comment && !reason.accepts_comment) {
    throw DomainError.unprocessable('A reason that requires a comment must accept one.', { attribute: 'accepts_comment' });
  }
}

export async function createReason(acting: Acting, input: ReasonInput): Promise<ReturnReasonRecord> {
  checkReason(acting, input);
  const { store, clock } = acting.rules;
  return store.transact((tx) => tx.insert('returnReasons', { ...input, id: tx.newId(), organization_id: organizationOf(acting), created_at: clock.now() }));
}

export async function updateReason(acting: Acting, id: string, changes: Partial<ReasonInput>): Promise<ReturnReasonRecord> {
  const current = ownOr404(acting, 'returnReasons', 'return-reasons', id);
  const merged = { ...current, ...changes };
  checkReason(acting, merged, id);
  return acting.rules.store.transact((tx) => tx.update('returnReasons', id, changes));
}

/** Shops stop offering the reason; returns keep the reason as the consumer gave it. */
export async function deleteReason(acting: Acting, id: string): Promise<void> {
  ownOr404(acting, 'returnReasons', 'return-reasons', id);
  await acting.rules.store.transact((tx) => {
    for (const link of tx.find('shopReasons', 'reason_id', id)) tx.remove('shopReasons', link.id);
    tx.remove('returnReasons', id);
  });
}

function checkQuestion(acting: Acting, code: string, id?: string): void {
  const taken = acting.rules.store.find('returnQuestions', 'organization_id', organizationOf(acting)).some((row) => row.code === code && row.id !== id);
  if (taken) throw DomainError.unprocessable(`A return question with code '${code}' exists already.`, codeField);
}

export async function createQuestion(acting: Acting, input: QuestionInput): Promise<ReturnQuestionRecord> {
  checkQuestion(acting, input.code);
  const { store, clock } = acting.rules;
  return store.transact((tx) => tx.insert('returnQuestions', { ...input, id: tx.newId(), organization_id: organizationOf(acting), created_at: clock.now() }));
}

/** A new code is carried into the shop reasons that ask the question, so they keep asking it. */
export async function updateQuestion(acting: Acting, id: string, changes: Partial<QuestionInput>): Promise<ReturnQuestionRecord> {
  const current = ownOr404(acting, 'returnQuestions', 'return-questions', id);
  if (changes.code !== undefined) checkQuestion(acting, changes.code, id);
  return acting.rules.store.transact((tx) => {
    if (changes.code !== undefined && changes.code !== current.code) {
      for (const link of tx.all('shopReasons')) {
        if (link.organization_id !== current.organization_id || !link.questions?.some((q) => q.code === current.code)) continue;
        tx.update('shopReasons', link.id, { questions: link.questions.map((q) => (q.code === current.code ? { ...q, code: changes.code! } : q)) });
      }
    }
    return tx.update('returnQuestions', id, changes);
  });
}

/** Shop reasons stop asking it. */
export async function deleteQuestion(acting: Acting, id: string): Promise<void> {
  const current = ownOr404(acting, 'returnQuestions', 'return-questions', id);
  await acting.rules.store.transact((tx) => {
    for (const link of tx.all('shopReasons')) {
      if (link.organization_id !== current.organization_id || !link.questions?.some((q) => q.code === current.code)) continue;
      tx.update('shopReasons', link.id, { questions: link.questions.filter((q) => q.code !== current.code) });
    }
    tx.remove('returnQuestions', id);
  });
}

/** Whether a stored text has a given tag list entry (`filter[tags]`: any of them). */
export const hasAnyTag = (reason: ReturnReasonRecord, tags: readonly string[]): boolean => tags.some((tag) => reason.tags?.includes(tag));
