import type { ReadView, Tx } from '../store/store.js';
import { putSetting } from '../store/settings.js';
import type { SettingRecord } from '../store/tables.js';
import { DomainError } from './errors.js';
import type { Rules } from './rules.js';

/*
 * Per-tenant quotas: how many shipments, hooks and files an organization may keep, and how many
 * requests it may make per minute. The server options give the defaults; the sandbox control
 * (`/_sandbox/quotas`) may override them for every tenant or for one, and those overrides are
 * kept with the data (the `quotas` setting). The request limit is applied at the HTTP edge
 * (`http/rate-limit.ts`); the stored-row quotas here, by the rules that create rows.
 */

export const quotaNames = ['shipments', 'hooks', 'files', 'requests_per_minute'] as const;
type QuotaName = (typeof quotaNames)[number];
/** The quotas on rows a tenant keeps (the other one is the request rate). */
export type StoredQuota = Exclude<QuotaName, 'requests_per_minute'>;
export const storedQuotas: readonly StoredQuota[] = ['shipments', 'hooks', 'files'];

export type Limits = Record<QuotaName, number>;
type Overrides = Partial<Limits>;

/** What the control set: overrides of the defaults and of single organizations. */
export interface QuotaSettings {
  defaults: Overrides;
  organizations: Record<string, Overrides>;
}

/** The id of the setting row that keeps the overrides. */
const QUOTAS = 'quotas';

const NONE: QuotaSettings = Object.freeze({ defaults: Object.freeze({}), organizations: Object.freeze({}) });

/** The overrides set through the control (none until one is set). */
export function quotaSettings(store: ReadView): QuotaSettings {
  return (store.get('settings', QUOTAS)?.value as QuotaSettings | undefined) ?? NONE;
}

/** The setting rows a sandbox reset keeps: quotas are the operator's, not seeded data. */
export function quotaRows(store: ReadView): SettingRecord[] {
  const row = store.get('settings', QUOTAS);
  return row ? [row] : [];
}

/** The defaults every organization without an override of its own gets. */
export function defaultLimits(rules: Rules): Limits {
  return { ...rules.settings.quotas, ...quotaSettings(rules.store).defaults };
}

/** The limits of one organization: its overrides, else the defaults. */
export function limitsOf(rules: Rules, organizationId: string): Limits {
  const settings = quotaSettings(rules.store);
  return { ...rules.settings.quotas, ...settings.defaults, ...settings.organizations[organizationId] };
}

/**
 * The requests per minute of one organization. Runs on every request, so it reads the one
 * override it needs instead of building the whole set of limits.
 */
export function requestsPerMinute(rules: Rules, organizationId: string): number {
  const settings = rules.store.get('settings', QUOTAS)?.value as QuotaSettings | undefined;
  if (settings === undefined) return rules.settings.quotas.requests_per_minute;
  return settings.organizations[organizationId]?.requests_per_minute ?? settings.defaults.requests_per_minute ?? rules.settings.quotas.requests_per_minute;
}

/**
 * How many rows of a stored quota an organization keeps, counted on the indexes (no scan):
 * files are its shipments' labels and customs documents, its manifests' files and its return
 * reports.
 */
export function usageOf(store: ReadView, organizationId: string, quota: StoredQuota): number {
  switch (quota) {
    case 'shipments':
      return store.countBy('shipments', 'organization_id', organizationId);
    case 'hooks':
      return store.countBy('hooks', 'organization_id', organizationId);
    case 'files':
      return (
        store.countBy('files', 'organization_id', organizationId) +
        store.countBy('manifestFiles', 'organization_id', organizationId) +
        store.countBy('returnReportFiles', 'organization_id', organizationId)
      );
  }
}

const DELETE_HINT: Record<StoredQuota, string> = {
  shipments: 'delete shipments (DELETE /shipments/{shipment_id}) to make room',
  hooks: 'delete hooks (DELETE /hooks/{hook_id}) to make room',
  files: "delete shipments, manifests or return reports to free their files' room",
};

/**
 * Why `adding` more rows would not fit in the organization's quota, or `undefined` when they fit.
 * Waiting does not help (rows stay until deleted), so the problem says what to delete.
 */
export function quotaProblem(rules: Rules, store: ReadView, organizationId: string, quota: StoredQuota, adding = 1): DomainError | undefined {
  const limit = limitsOf(rules, organizationId)[quota];
  const usage = usageOf(store, organizationId, quota);
  if (usage + adding <= limit) return undefined;
  const wanted = adding === 1 ? `another one` : `${adding} more`;
  return DomainError.quotaExceeded(
    `The ${quota} quota of this organization is ${limit} and ${usage} are stored, so ${wanted} cannot be created; ${DELETE_HINT[quota]}. Waiting does not free it.`,
    { quota, limit, usage, requested: adding },
  );
}

/** Throws `quota-exceeded` (429, 10011) unless `adding` more rows fit in the organization's quota. */
export function assertRoom(rules: Rules, tx: Tx, organizationId: string, quota: StoredQuota, adding = 1): void {
  const problem = quotaProblem(rules, tx, organizationId, quota, adding);
  if (problem) throw problem;
}

/** Overrides as the control stores them: `null` removes one, a number sets it. */
export type OverrideChange = Partial<Record<QuotaName, number | null>>;

function applied(current: Overrides, change: OverrideChange): Overrides {
  const next: Overrides = { ...current };
  for (const name of quotaNames) {
    const value = change[name];
    if (value === null) delete next[name];
    else if (value !== undefined) next[name] = value;
  }
  return next;
}

/**
 * Changes the overrides of the defaults (`organizationId` undefined) or of one organization. The
 * values are checked by the caller (whole numbers of at least 1).
 */
export function changeOverrides(tx: Tx, change: OverrideChange, organizationId?: string): void {
  const current = quotaSettings(tx);
  let next: QuotaSettings;
  if (organizationId === undefined) {
    next = { ...current, defaults: applied(current.defaults, change) };
  } else {
    const organizations = { ...current.organizations, [organizationId]: applied(current.organizations[organizationId] ?? {}, change) };
    if (Object.keys(organizations[organizationId]!).length === 0) delete organizations[organizationId];
    next = { ...current, organizations };
  }
  putSetting(tx, QUOTAS, next);
}

/** Drops the overrides of a removed organization, so the setting does not keep tenants that are gone. */
export function forgetOverrides(tx: Tx, organizationId: string): void {
  const current = quotaSettings(tx);
  if (!(organizationId in current.organizations)) return;
  const organizations = { ...current.organizations };
  delete organizations[organizationId];
  putSetting(tx, QUOTAS, { ...current, organizations });
}
