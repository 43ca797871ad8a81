import type { CarrierRecord } from '../model/carrier.js';
import type { ContractRecord, ContractStatus } from '../model/contract.js';
import type { Tx } from '../store/store.js';
import { openCredentials } from './credentials.js';
import { schemaProblems } from '../model/json-schema.js';
import type { Rules } from './rules.js';
import type { JobHandler } from './scheduler.js';

export const VERIFY_CONTRACT = 'verify-contract';

/** The sandbox trigger: any credentials value `invalid` makes verification fail. */
export const INVALID_TRIGGER = 'invalid';

function containsTrigger(value: unknown): boolean {
  if (typeof value === 'string') return value.trim().toLowerCase() === INVALID_TRIGGER;
  if (value && typeof value === 'object') return Object.values(value).some(containsTrigger);
  return false;
}

/**
 * Checks credentials against the carrier's `credentials_format` with a JSON Schema validator.
 * Returns the reasons they fail, or an empty list when the carrier would accept them.
 */
function credentialProblems(carrier: CarrierRecord, credentials: Record<string, unknown>): string[] {
  if (containsTrigger(credentials)) return [`A credentials value is '${INVALID_TRIGGER}' (the sandbox trigger for a failed verification).`];
  return schemaProblems(carrier.credentials_format, credentials, 'credentials');
}

/** Puts the contract back to pending and verifies it after the configured delay on the sandbox clock. */
export function scheduleVerification(tx: Tx, rules: Rules, contractId: string): void {
  const dueMs = rules.clock.nowMs() + rules.settings.contractVerificationDelay * 1000;
  rules.jobs.schedule(tx, { kind: VERIFY_CONTRACT, subject: contractId, dueMs });
}

/**
 * Why a contract fails verification now, or an empty list when the carrier would accept it. A
 * contract without stored credentials has nothing a carrier could accept.
 */
function verificationProblems(contract: ContractRecord, carrier: CarrierRecord | undefined, key: Buffer): string[] {
  if (!contract.credentials) return ['No credentials are stored for this contract; send them with PATCH /contracts/{contract_id}.'];
  if (!carrier) return ['The carrier of this contract no longer exists.'];
  return credentialProblems(carrier, openCredentials(key, contract.credentials));
}

/**
 * The status a verification leaves: `invalid` when it failed; when it passed `active`, except that
 * a contract the user switched to `inactive` stays so (verification checks credentials, it does not
 * switch contracts on), also when new credentials made it pending meanwhile.
 */
function verifiedStatus(contract: Pick<ContractRecord, 'status' | 'keep_inactive'>, passed: boolean): ContractStatus {
  if (!passed) return 'invalid';
  return contract.status === 'inactive' || contract.keep_inactive ? 'inactive' : 'active';
}

/**
 * Verifies a contract at once (POST /contracts/{id}/validate), whatever its status, and sets the
 * status as the delayed verification would; a verification still scheduled is dropped. Returns the
 * problems found (none: the credentials are valid).
 */
export function verifyNow(tx: Tx, rules: Rules, contractId: string): string[] {
  const contract = tx.get('contracts', contractId);
  if (!contract) throw new Error(`no contract ${contractId}`);
  const problems = verificationProblems(contract, tx.get('carriers', contract.carrier_id), rules.credentialsKey);
  rules.jobs.cancel(tx, VERIFY_CONTRACT, contractId);
  const status = verifiedStatus(contract, problems.length === 0);
  const errors = problems.length === 0 ? undefined : problems;
  // A verification that changes nothing leaves the row (and its updated_at) alone.
  if (status !== contract.status || JSON.stringify(errors) !== JSON.stringify(contract.verification_errors)) {
    tx.update('contracts', contractId, { status, verification_errors: errors, keep_inactive: undefined, updated_at: rules.clock.now() });
  }
  return problems;
}

/** Verifies a pending contract: `active` when the carrier would accept its credentials, else `invalid`. */
export const verifyContractJob: JobHandler = {
  apply(tx, job, rules) {
    const contract = tx.get('contracts', job.subject);
    if (!contract || contract.status !== 'pending' || !contract.credentials) return;
    const problems = verificationProblems(contract, tx.get('carriers', contract.carrier_id), rules.credentialsKey);
    tx.update('contracts', contract.id, {
      status: verifiedStatus(contract, problems.length === 0),
      verification_errors: problems.length === 0 ? undefined : problems,
      keep_inactive: undefined,
      updated_at: Math.floor(job.due_ms / 1000),
    });
  },
};
