import type { Libraries } from './libraries.js';
import type { ClockView } from '../clock.js';
import type { ReturnRecord } from '../model/returns/return.js';
import type { ShipmentRecord, ShipmentStatusRecord } from '../model/shipment.js';
import type { Principal } from '../model/tenancy.js';
import type { Store, Tx } from '../store/store.js';
import type { JobRecord } from '../store/tables.js';
import type { Capabilities } from './capabilities.js';
import type { Field } from './errors.js';
import type { OrganizationRemoval, RemovalCause } from './removals.js';

/**
 * What the rules are handed, named and small: the store, the sandbox clock, the job scheduler,
 * the few settings they read, and the hooks the edge provides (automation events, the renderer
 * of webhook payloads, the pointers of fields). The app builds one `Rules` from its configuration; nothing in the
 * domain reads the configuration or the app's other services.
 *
 * Every tenant (organization) has its own clock, so there is one `Rules` per tenant (made once,
 * kept): `forTenant` gives it. Its `clock` is the tenant's and its `jobs` records the tenant on
 * every job it schedules, so a job is due on the clock of the tenant whose data it touches. Work
 * on a tenant's data uses that tenant's rules; the rules of no tenant (`organizationId`
 * undefined) read the global clock.
 */
export interface Rules {
  readonly store: Store;
  /** The clock of `organizationId`, or the global clock. */
  readonly clock: ClockView;
  /** Schedules jobs due on `clock`, for `organizationId`. */
  readonly jobs: Scheduler;
  /** The tenant whose clock these rules read; `undefined` for the global clock. */
  readonly organizationId?: string;
  /** The same rules on the clock of an organization (the global clock for `undefined`): a Map lookup. */
  forTenant(organizationId: string | undefined): Rules;
  /** Drops the rules and the clock object kept for an organization that was removed. */
  forgetTenant(organizationId: string): void;
  readonly settings: RuleSettings;
  /** The AES key contract credentials are stored under. */
  readonly credentialsKey: Buffer;
  /** Loads the libraries not loaded at start (renderers, image sniffers). */
  readonly libraries: Libraries;
  /** Makes and checks the tokens of public pages (payment page, return portal, tracking page). */
  readonly capabilities: Capabilities;
  /** Automation (hooks) reacting to changes, inside the transaction that made them. */
  readonly events?: ResourceEvents;
  /** Renders a resource as the API answers it, for webhook payloads. */
  readonly render: RenderResource;
  /** The JSON pointer the API's answers give for a field of a request (undefined for a parameter or header), for hook logs. */
  readonly pointerOf: (field: Field) => string | undefined;
  readonly logger?: { error(object: object, message?: string): void };
  /**
   * Told when a tenant was removed (it expired, or a handler deleted it): the app drops what it
   * keeps in memory about its clients (verified tokens, logged requests, rendered documents).
   */
  readonly tenantRemoved?: (removal: OrganizationRemoval, why: RemovalCause) => void;
}

/** The settings the rules read. */
interface RuleSettings {
  /** Seconds between `register_at` and a registration. */
  readonly registrationDelay: number;
  /** Seconds between saving a contract and its verification. */
  readonly contractVerificationDelay: number;
  /** Hosts webhooks may be sent to (HOOK_ALLOWED_HOSTS), and whether loopback is refused too. */
  readonly hookAllowedHosts: string | undefined;
  readonly shared: boolean;
  /** The quotas of every organization the control gives no other (domain/quotas.ts). */
  readonly quotas: Readonly<Record<'shipments' | 'hooks' | 'files' | 'requests_per_minute', number>>;
}

/** Changes automation reacts to, inside the transaction that caused them. */
export interface ResourceEvents {
  /** A shipment was created; returns it as hooks left it. */
  shipmentCreated(tx: Tx, shipment: ShipmentRecord): ShipmentRecord;
  /** A shipment got a new status. */
  statusCreated(tx: Tx, shipment: ShipmentRecord, status: ShipmentStatusRecord): void;
  /** Carrier statuses joined a shipment's current status: production fires `update` hooks on shipment-statuses then. */
  statusUpdated?(tx: Tx, shipment: ShipmentRecord, status: ShipmentStatusRecord): void;
  /** A return was created; returns it as hooks left it (approved, rejected, ...). */
  returnCreated?(tx: Tx, created: ReturnRecord): ReturnRecord;
}

/**
 * The JSON:API document of a resource as the organization's clients would read it (with the
 * include paths given), or `undefined` when it does not exist for them.
 */
type RenderResource = (resource: { type: string; id: string }, includes: readonly string[], caller: Principal) => string | undefined;

/** The rules and the caller they act for: what a rule that depends on the tenant takes. */
export interface Acting {
  readonly rules: Rules;
  readonly principal: Principal | undefined;
}

/**
 * What runs a kind of job. `apply` changes data inside the transaction that also removes the
 * job, so the effect and the job's completion land together; `run` is for work that must wait
 * on the outside world (HTTP calls) and makes its own transactions. Run jobs go on beside the
 * other jobs, so a slow receiver holds back no one else; jobs of one `lane` (what must stay in
 * order, such as the deliveries of one hook) still run one at a time, in due order.
 */
export type JobHandler =
  | { apply(tx: Tx, job: JobRecord, rules: Rules): void }
  | {
      /** `signal` aborts when the sandbox is abandoned (`Scheduler.abandon`): the work ends at once, writing nothing. */
      run(rules: Rules, job: JobRecord, signal: AbortSignal): Promise<void>;
      lane(job: JobRecord): string;
    };

export interface Scheduler {
  /**
   * Schedules a job, replacing a pending job of the same kind and subject. `dueMs` is on the
   * clock of the job's tenant: `organizationId`, or the tenant of the rules whose `jobs` this is.
   */
  schedule(tx: Tx, job: { kind: string; subject: string; dueMs: number; payload?: Record<string, unknown>; organizationId?: string }): void;
  /** Drops the pending job of a kind and subject, if any. */
  cancel(tx: Tx, kind: string, subject: string): void;
  /**
   * Runs every job that is due on the clock of its tenant, including jobs those schedule that are
   * due too, and resolves once those of `organizationId` (every tenant's without it) have ended:
   * other tenants' run jobs (their webhook deliveries) are started but not waited for.
   */
  runDue(organizationId?: string): Promise<number>;
  /**
   * Runs the pending jobs of these subjects now, as if they were due now (dated now on their
   * tenant's clock): how the API reference's example rows get a job's work done (a report's
   * file, a return label's registration) before their first Execute.
   */
  runEarly(subjects: readonly string[]): Promise<number>;
  /** Runs due jobs as real time passes (the CLI server); tests move the clock instead. */
  start(intervalMs?: number): void;
  stop(): void;
  /**
   * Stops for good, as the process goes down (before its data closes): the timer stops and no job
   * starts from then on (`runDue` returns once its pass ends, without waiting for what is out);
   * what is queued stays in the data for the next start.
   */
  shutdown(): void;
  /**
   * Shuts down and ends the run jobs that are out at once (a webhook delivery's connection is
   * closed, its deadline cleared), resolving once they have: nothing of them is written, so they
   * stay queued. An in-process sandbox's `close()`: afterwards nothing of it keeps the process up.
   */
  abandon(): Promise<void>;
}
