import type { StatusRecord } from '../status.js';

type StatusDef = Omit<StatusRecord, 'id'>;

const returns = (code: string, level: StatusDef['level'], name: string, description: string): StatusDef => ({
  code,
  resource_type: 'returns',
  level,
  name,
  description,
});
const reports = (code: string, level: StatusDef['level'], name: string, description: string): StatusDef => ({
  code,
  resource_type: 'reports',
  level,
  name,
  description,
});

/**
 * Production's return and report status codes. Their levels are not documented; these follow the
 * meaning of each code. Seeded after every other fixture (and added to older data files on first
 * use), so no earlier id changed.
 */
export const returnStatusDefs: readonly StatusDef[] = [
  returns('return-pending', 'pending', 'Pending', 'The consumer requested the return; the shop has not approved or rejected it yet.'),
  returns('return-payment-pending', 'pending', 'Payment pending', 'The shop asked the consumer to pay for the return; it waits for the payment.'),
  returns(
    'return-payment-failed',
    'failed',
    'Payment failed',
    'The consumer did not pay (the payment failed, was cancelled or expired); the shop may ask again.',
  ),
  returns('return-approved', 'success', 'Approved', 'The shop approved the return; for a shipment method the return shipment and its label follow.'),
  returns('return-rejected', 'cancelled', 'Rejected', 'The shop rejected the return; the rejection message says why.'),
  returns('return-deadline-passed', 'cancelled', 'Deadline passed', "The return was requested after the shop's return period had ended."),
  returns('return-reissued', 'cancelled', 'Reissued', 'The shop allowed the order to be returned again, and a newer return replaces this one.'),
  reports('report-queued', 'pending', 'Queued', 'The report waits to be generated.'),
  reports('report-in-progress', 'in-progress', 'In progress', 'The report is being generated.'),
  reports('report-finished', 'success', 'Finished', 'The report is ready; its CSV file can be downloaded.'),
  reports('report-failed', 'failed', 'Failed', 'The report could not be generated.'),
];
