/*
 * The record of requests behind `GET /_sandbox/report`: per tenant, counters of the operations
 * called and their statuses, the causes of refusals, the deprecated things used and what only the
 * sandbox answers. Unlike the request log (a ring of the last 500 requests) they never rotate:
 * every request since the process started is counted, at the cost of a few Map updates. They are
 * bounded instead: the keys come from finite sets (the endpoints, the statuses the sandbox
 * answers, production's deprecations, the sandbox's triggers), except the causes of refusals,
 * which are kept up to MAX_CAUSES per tenant (the rest only counted). In memory, like the log.
 */

/** Refusal causes kept per tenant; further causes are counted in `causesNotKept`. */
export const MAX_CAUSES = 100;
/** Statuses kept per operation (the sandbox answers about 20 different ones); others count as `other`. */
export const MAX_STATUSES = 32;
/** A pointer, parameter or header name longer than this is kept cut (a pointer names members the client chose). */
export const MAX_SOURCE = 200;

/** Where an error of a refusal points: a JSON pointer, a query parameter or a header. */
export type CauseSource = { pointer: string } | { parameter: string } | { header: string };

/** One error of a refused request, as the record groups it. */
export interface Cause {
  status: number;
  code: string | undefined;
  title: string | undefined;
  source: CauseSource | undefined;
}

/** What the record is told of one request. */
export interface CountedRequest {
  /** The organization the request acted for; `undefined` without a valid token (or a token request that got none). */
  tenant: string | undefined;
  /** The operation (production's name, or the sandbox's `METHOD path`); NO_ENDPOINT when no endpoint served the path. */
  operation: string;
  status: number;
  /** The request log's id of the request. */
  requestId: number;
  /** The errors of a 4xx answer. */
  causes?: readonly Cause[] | undefined;
  /** Ids of the deprecated things used. */
  deprecated?: readonly string[] | undefined;
  /** What the request asked of the sandbox that production would not do (a trigger tag, a sandbox-only parameter). */
  sandboxOnly?: readonly string[] | undefined;
}

/** The operation requests count under when no endpoint serves their path (404, 405). */
export const NO_ENDPOINT = '(no endpoint)';

export interface OperationCount {
  count: number;
  statuses: Map<number | 'other', number>;
}

export interface CauseCount extends Cause {
  operation: string;
  count: number;
  lastRequestId: number;
}

export interface UseCount {
  count: number;
  operations: Map<string, number>;
  lastRequestId: number;
}

/** One tenant's counters (or those of requests no tenant made). */
export class TenantUsage {
  requests = 0;
  firstRequestId = 0;
  lastRequestId = 0;
  readonly operations = new Map<string, OperationCount>();
  readonly causes = new Map<string, CauseCount>();
  causesNotKept = 0;
  readonly deprecated = new Map<string, UseCount>();
  readonly sandboxOnly = new Map<string, UseCount>();

  count(request: CountedRequest): void {
    this.requests += 1;
    if (this.firstRequestId === 0) this.firstRequestId = request.requestId;
    this.lastRequestId = request.requestId;
    let operation = this.operations.get(request.operation);
    if (!operation) this.operations.set(request.operation, (operation = { count: 0, statuses: new Map() }));
    operation.count += 1;
    const status = operation.statuses.has(request.status) || operation.statuses.size < MAX_STATUSES ? request.status : 'other';
    operation.statuses.set(status, (operation.statuses.get(status) ?? 0) + 1);
    if (request.causes) this.countCauses(request);
    if (request.deprecated) for (const id of request.deprecated) countUse(this.deprecated, id, request);
    if (request.sandboxOnly) for (const what of request.sandboxOnly) countUse(this.sandboxOnly, what, request);
  }

  private countCauses(request: CountedRequest): void {
    // A request counts once per cause, however many of its errors share it.
    const seen = new Set<string>();
    for (const cause of request.causes!) {
      const source = cause.source && keptSource(cause.source);
      const key = [request.operation, cause.status, cause.code ?? '', source ? Object.entries(source)[0]!.join('=') : ''].join('\u0000');
      if (seen.has(key)) continue;
      seen.add(key);
      const found = this.causes.get(key);
      if (found) {
        found.count += 1;
        found.lastRequestId = request.requestId;
      } else if (this.causes.size < MAX_CAUSES) {
        this.causes.set(key, { ...cause, source, operation: request.operation, count: 1, lastRequestId: request.requestId });
      } else {
        this.causesNotKept += 1;
      }
    }
  }

  /** Adds another tenant's counters to these (the report over every tenant). */
  add(other: TenantUsage): void {
    this.requests += other.requests;
    if (other.firstRequestId !== 0 && (this.firstRequestId === 0 || other.firstRequestId < this.firstRequestId)) this.firstRequestId = other.firstRequestId;
    this.lastRequestId = Math.max(this.lastRequestId, other.lastRequestId);
    for (const [key, theirs] of other.operations) {
      const mine = this.operations.get(key) ?? { count: 0, statuses: new Map() };
      mine.count += theirs.count;
      for (const [status, count] of theirs.statuses) mine.statuses.set(status, (mine.statuses.get(status) ?? 0) + count);
      this.operations.set(key, mine);
    }
    for (const [key, theirs] of other.causes) {
      const mine = this.causes.get(key);
      if (mine) {
        mine.count += theirs.count;
        mine.lastRequestId = Math.max(mine.lastRequestId, theirs.lastRequestId);
      } else this.causes.set(key, { ...theirs });
    }
    this.causesNotKept += other.causesNotKept;
    addUses(this.deprecated, other.deprecated);
    addUses(this.sandboxOnly, other.sandboxOnly);
  }
}

const cut = (text: string) => (text.length > MAX_SOURCE ? `${text.slice(0, MAX_SOURCE)}…` : text);

/**
 * A source as kept: array indices in a pointer made `*` (thirty items missing the same member are
 * one cause), and cut to MAX_SOURCE characters.
 */
function keptSource(source: CauseSource): CauseSource {
  if ('pointer' in source) return { pointer: cut(source.pointer.replace(/\/\d+(?=\/|$)/g, '/*')) };
  if ('parameter' in source) return { parameter: cut(source.parameter) };
  return { header: cut(source.header) };
}

function countUse(map: Map<string, UseCount>, key: string, request: CountedRequest): void {
  let use = map.get(key);
  if (!use) map.set(key, (use = { count: 0, operations: new Map(), lastRequestId: 0 }));
  use.count += 1;
  use.lastRequestId = request.requestId;
  use.operations.set(request.operation, (use.operations.get(request.operation) ?? 0) + 1);
}

function addUses(into: Map<string, UseCount>, from: Map<string, UseCount>): void {
  for (const [key, theirs] of from) {
    const mine = into.get(key) ?? { count: 0, operations: new Map(), lastRequestId: 0 };
    mine.count += theirs.count;
    mine.lastRequestId = Math.max(mine.lastRequestId, theirs.lastRequestId);
    for (const [operation, count] of theirs.operations) mine.operations.set(operation, (mine.operations.get(operation) ?? 0) + count);
    into.set(key, mine);
  }
}

/** Every tenant's counters, and those of requests made without a tenant. */
export class UsageRecord {
  private readonly tenants = new Map<string, TenantUsage>();
  /** Requests no tenant made: without a valid token, with the admin token, or refused before one was read. */
  readonly untenanted = new TenantUsage();

  count(request: CountedRequest): void {
    let usage = this.untenanted;
    if (request.tenant !== undefined) {
      usage = this.tenants.get(request.tenant) ?? new TenantUsage();
      if (usage.requests === 0) this.tenants.set(request.tenant, usage);
    }
    usage.count(request);
  }

  /** A tenant's counters; `undefined` when it made no request yet. */
  of(tenant: string): TenantUsage | undefined {
    return this.tenants.get(tenant);
  }

  /** The tenants that made requests, in the order of their first. */
  tenantIds(): string[] {
    return [...this.tenants.keys()];
  }

  /** Every request counted: each tenant's and those without one, added up. */
  all(): TenantUsage {
    const total = new TenantUsage();
    for (const usage of this.tenants.values()) total.add(usage);
    total.add(this.untenanted);
    return total;
  }

  /** Drops a removed tenant's counters (its requests leave the request log with it). */
  forget(tenant: string): void {
    this.tenants.delete(tenant);
  }
}
