import type { ReturnPaymentRecord, ReturnRecord } from '../../model/returns/return.js';
import type { Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import { automationFor } from '../hooks/automation.js';
import type { Acting, Rules } from '../rules.js';
import type { JobHandler } from '../scheduler.js';
import { approveReturn, setStatus } from './decide.js';
import { isOpen } from './statuses.js';
import { checkSignature, sign } from './signing.js';

export const EXPIRE_RETURN_PAYMENT = 'expire-return-payment';
/** A checkout stays open this long on the sandbox clock, then the payment expires. */
const PAYMENT_TTL = 24 * 3600;

/** The one answer to a payment-page token that opens nothing, whatever the reason. */
const NO_PAGE = 'No payment page is at this address: the link is incomplete, was changed, or is not from this sandbox.';

export const checkoutMessage = (returnId: string, paymentId: string) => `payment-checkout:${returnId}:${paymentId}`;
/** The signed URL a consumer pays at (production's `payment.checkout_url`). */
export const checkoutPath = (returnId: string, paymentId: string) =>
  `/returns/v1/returns/${returnId}/payment-checkout-url/${paymentId}?hmac=${sign(checkoutMessage(returnId, paymentId))}`;
/**
 * The path of the sandbox's own payment page, where the checkout URL sends the consumer: the
 * payment's capability, signed with this sandbox's secret (not the public key of the checkout URL).
 */
const paymentPagePath = (rules: Rules, paymentId: string) => `/return-portal/checkout/${rules.capabilities.token('payment-page', paymentId)}`;

/** Puts a price on an open return: the consumer pays it before the return goes on. */
export function requestPayment(tx: Tx, acting: Acting, row: ReturnRecord, price: { amount: number; currency: string }): ReturnRecord {
  const { rules } = acting;
  if (!isOpen(row)) throw DomainError.unprocessable(`The return is ${row.status_code}: only open returns can be charged.`);
  if (price.amount <= 0) throw DomainError.unprocessable('A payment must be more than zero.', { input: 'return_payment.amount' });
  const now = rules.clock.now();
  // Random: the id is half of the payment page's token, and the seed must not give it away.
  const payment = tx.insert('returnPayments', {
    id: tx.newPublicId(),
    return_id: row.id,
    organization_id: row.organization_id,
    amount: price.amount,
    currency: price.currency,
    created_at: now,
    failures: [],
  });
  rules.jobs.schedule(tx, { kind: EXPIRE_RETURN_PAYMENT, subject: payment.id, dueMs: (now + PAYMENT_TTL) * 1000 });
  return setStatus(tx, row, 'return-payment-pending', now, { payment_id: payment.id });
}

/** The current, unpaid payment of a return, or why there is none to pay. */
function payable(row: ReturnRecord | undefined, payment: ReturnPaymentRecord | undefined): ReturnPaymentRecord {
  if (!row || !payment || payment.return_id !== row.id) throw DomainError.notFound('No such payment of this return exists.');
  if (payment.paid_at !== undefined) throw DomainError.unprocessable('This payment has been paid already.');
  if (row.payment_id !== payment.id || row.status_code !== 'return-payment-pending')
    throw DomainError.unprocessable('This payment is no longer open: the shop asked for a newer one, or the return moved on.');
  return payment;
}

/** Where the signed checkout URL of `row` (a return the handler found to be the caller's) sends the consumer: the sandbox's payment page. */
export function openCheckout(acting: Acting, row: ReturnRecord, paymentId: string, hmac: string): string {
  const payment = acting.rules.store.get('returnPayments', paymentId);
  if (!payment || payment.return_id !== row.id) throw DomainError.notFound(`No return-payments resource with id '${paymentId}' exists.`);
  checkSignature(checkoutMessage(row.id, payment.id), hmac);
  payable(row, payment);
  return paymentPagePath(acting.rules, payment.id);
}

/**
 * The payment a payment-page token names. A token this sandbox did not sign is 404 like a payment
 * that does not exist (not 403), so a guess learns nothing.
 */
export function paymentOfToken(rules: Rules, token: string): { payment: ReturnPaymentRecord; row: ReturnRecord } {
  const paymentId = rules.capabilities.open('payment-page', token);
  const payment = paymentId === undefined ? undefined : rules.store.get('returnPayments', paymentId);
  const row = payment && rules.store.get('returns', payment.return_id);
  if (!payment || !row) throw DomainError.notFound(NO_PAGE);
  return { payment, row };
}

export type Outcome = 'paid' | 'failed' | 'cancelled' | 'expired';

function settle(tx: Tx, rules: Rules, row: ReturnRecord, payment: ReturnPaymentRecord, outcome: Outcome): void {
  const now = rules.clock.now();
  rules.jobs.cancel(tx, EXPIRE_RETURN_PAYMENT, payment.id);
  if (outcome !== 'paid') {
    tx.update('returnPayments', payment.id, {
      failures: [
        ...payment.failures,
        { code: outcome, description: `The consumer's payment ${outcome === 'failed' ? 'failed' : `was ${outcome}`}.`, created_at: now },
      ],
    });
    setStatus(tx, row, 'return-payment-failed', now);
    return;
  }
  tx.update('returnPayments', payment.id, { paid_at: now, external_payment_id: tx.newId() });
  // Paid: the return goes on as the shop would approve it, acting for the shop's organization.
  const organization = tx.get('organizations', row.organization_id);
  approveReturn(tx, { rules, principal: automationFor(row.organization_id, organization?.broker_id ?? '') }, tx.get('returns', row.id)!);
}

/**
 * The consumer pays (or not) on the payment page (`paymentOfToken` found the payment); `tenant`
 * is the rules of the return's organization, so it settles on that organization's clock.
 */
export function settlePayment(tx: Tx, tenant: Rules, row: ReturnRecord, payment: ReturnPaymentRecord, outcome: Exclude<Outcome, 'expired'>): void {
  payable(row, payment);
  settle(tx, tenant, row, payment, outcome);
}

/** An unpaid checkout expires PAYMENT_TTL seconds after it was asked for. */
export const expirePaymentJob: JobHandler = {
  apply(tx, job, rules) {
    const payment = tx.get('returnPayments', job.subject);
    const row = payment && tx.get('returns', payment.return_id);
    if (!payment || !row || payment.paid_at !== undefined || row.payment_id !== payment.id || row.status_code !== 'return-payment-pending') return;
    settle(tx, rules, row, payment, 'expired');
  },
};
