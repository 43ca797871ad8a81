import type { CarrierRecord } from '../model/carrier.js';
import type { Services } from '../services.js';
import type { Tx } from '../store/store.js';
import { openCredentials } from './credentials.js';
import { schemaProblems } from './json-schema.js';
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
export function credentialProblems(carrier: CarrierRecord, credentials: Record<string, unknown>): string[] {
  if (containsTrigger(credentials)) return [`A credentials value is '${INVALID_TRIGGER}' (the sandbox trigger for a failed verification).`];
  return schemaProblems(carrier.credentials_format, credentials, 'credentials');
}

/** Puts the contract back to pending and verifies it after the configured delay on the sandbox clock. */
export function scheduleVerification(tx: Tx, services: Services, contractId: string): void {
  const dueMs = services.clock.nowMs() + services.config.contractVerificationDelay * 1000;
  services.jobs.schedule(tx, { kind: VERIFY_CONTRACT, subject: contractId, dueMs });
}

/** Verifies a pending contract: `active` when the carrier would accept its credentials, else `invalid`. */
export const verifyContractJob: JobHandler = {
  apply(tx, job, services) {
    const contract = tx.get('contracts', job.subject);
    if (!contract || contract.status !== 'pending' || !contract.credentials) return;
    const carrier = tx.get('carriers', contract.carrier_id);
    const credentials = openCredentials(services.keys.credentialsKey, contract.credentials);
    const problems = carrier ? credentialProblems(carrier, credentials) : ['The carrier of this contract no longer exists.'];
    tx.update('contracts', contract.id, {
      status: problems.length === 0 ? 'active' : 'invalid',
      verification_errors: problems.length === 0 ? undefined : problems,
      updated_at: Math.floor(job.due_ms / 1000),
    });
  },
};
