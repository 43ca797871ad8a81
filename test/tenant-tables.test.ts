import { beforeAll, describe, expect, it } from 'vitest';
import { tableNames, type StateData, type TableName } from '../src/store/tables.js';
import { testSandbox, type TestSandbox } from './support/app.js';

/*
 * A tenant's removal and reset, table by table: one row is made for the tenant in every table a
 * tenant's rows live in (and one for another tenant), and what goes is compared with what belongs
 * to the tenant, read naively (every row, no index) from how each table's rows belong to one.
 */

/** How a table's rows belong to a tenant; `reset` says whether a tenant reset clears them or keeps them. */
type Belonging = { key: string; of?: TableName; as?: 'part' | 'owner' | 'about'; reset: 'clears' | 'keeps' };

const org = { key: 'organization_id', reset: 'clears' } as const;
const BELONGING: Partial<Record<TableName, Belonging>> = {
  settings: { key: 'id', as: 'part', reset: 'keeps' },
  tenantClocks: { key: 'id', reset: 'keeps' },
  jobs: { key: 'subject', as: 'about', reset: 'clears' },
  organizations: { key: 'id', reset: 'keeps' },
  users: { key: 'organization_id', reset: 'keeps' },
  clients: { key: 'user_id', of: 'users', reset: 'keeps' },
  shops: { key: 'organization_id', reset: 'keeps' },
  logos: { key: 'shop_id', of: 'shops', reset: 'clears' },
  carriers: { key: 'organization_id', reset: 'keeps' },
  services: { key: 'organization_id', reset: 'keeps' },
  contracts: { key: 'owner', as: 'owner', reset: 'clears' },
  contractShares: { key: 'organization_id', reset: 'keeps' },
  liabilityCoverages: { key: 'contract_id', of: 'contracts', reset: 'clears' },
  serviceRates: { key: 'contract_id', of: 'contracts', reset: 'clears' },
  shipments: org,
  shipmentStatuses: { key: 'shipment_id', of: 'shipments', reset: 'clears' },
  shipmentSurcharges: { key: 'shipment_id', of: 'shipments', reset: 'clears' },
  carrierSurcharges: org,
  files: { key: 'shipment_id', of: 'shipments', reset: 'clears' },
  collections: org,
  collectionSchedules: org,
  manifests: org,
  manifestFiles: org,
  hooks: org,
  hookLogs: org,
  idempotencyKeys: { key: 'client_id', of: 'clients', reset: 'clears' },
  addresses: org,
  zones: org,
  returnReasons: org,
  returnQuestions: org,
  shopReasons: org,
  returnTags: org,
  returnMethods: org,
  demoOrders: org,
  returns: org,
  returnPayments: org,
  returnReports: org,
  returnReportFiles: org,
};

type Row = { id: string } & Record<string, unknown>;
const rowsOf = (state: StateData, table: TableName) => (state.tables[table] ?? []) as Row[];

/** Whether a row is the organization's, by its table's belonging; a job is judged by `removedJobs` instead. */
function belongs(state: StateData, table: TableName, row: Row, organizationId: string): boolean {
  const belonging = BELONGING[table];
  if (!belonging || belonging.as === 'about') return false;
  const value = row[belonging.key];
  if (belonging.as === 'part') return typeof value === 'string' && value.split(':').includes(organizationId);
  if (belonging.as === 'owner')
    return (value as { type?: string; id?: string } | undefined)?.type === 'organizations' && (value as { id: string }).id === organizationId;
  if (belonging.of) {
    const parent = rowsOf(state, belonging.of).find((candidate) => candidate.id === value);
    return parent !== undefined && belongs(state, belonging.of, parent, organizationId);
  }
  return value === organizationId;
}

/** The ids of the organization's rows by table (before a removal), with the jobs about any of them. */
function tenantRows(state: StateData, organizationId: string, which: (belonging: Belonging) => boolean): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const gone = new Set<string>();
  for (const table of tableNames) {
    const belonging = BELONGING[table];
    if (!belonging || !which(belonging)) continue;
    const ids = rowsOf(state, table)
      .filter((row) => belongs(state, table, row, organizationId))
      .map((row) => row.id);
    for (const id of ids) gone.add(id);
    if (ids.length > 0) out[table] = ids.sort();
  }
  const jobs = rowsOf(state, 'jobs')
    .filter((job) =>
      String(job.subject)
        .split(':')
        .some((part) => gone.has(part)),
    )
    .map((job) => job.id);
  if (jobs.length > 0) out.jobs = jobs.sort();
  return out;
}

/** The ids that were in `before` and are not in `after`, by table. */
function removedIds(before: StateData, after: StateData): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const table of tableNames) {
    const now = new Set(rowsOf(after, table).map((row) => row.id));
    const gone = rowsOf(before, table)
      .map((row) => row.id)
      .filter((id) => !now.has(id));
    if (gone.length > 0) out[table] = gone.sort();
  }
  return out;
}

/**
 * Inserts one row for the organization in every table its rows live in (where `which` holds), as
 * little as a removal reads: the key that makes it the tenant's, pointing at a row made for it in
 * the table it goes through (or a row the tenant has there). Each made row gets a job about it.
 * Returns the made ids by table.
 */
async function makeRows(sandbox: TestSandbox, organizationId: string, tag: string, which: (belonging: Belonging) => boolean): Promise<Record<string, string>> {
  const made: Record<string, string> = {};
  const state = sandbox.store.snapshot();
  await sandbox.store.transact((tx) => {
    const make = (table: TableName): string => {
      if (made[table]) return made[table];
      const belonging = BELONGING[table]!;
      // A table it goes through that gets no row of its own here: one the tenant has already.
      if (!which(belonging)) return rowsOf(state, table).find((row) => belongs(state, table, row, organizationId))!.id;
      const id = `${tag}-${table}`;
      let row: Row;
      if (belonging.as === 'part') row = { id: `${tag}:${organizationId}`, value: true };
      else if (belonging.as === 'owner') row = { id, [belonging.key]: { type: 'organizations', id: organizationId } };
      else if (belonging.key === 'id') row = { id: organizationId };
      else row = { id, [belonging.key]: belonging.of ? make(belonging.of) : organizationId };
      if (!tx.get(table, row.id)) tx.insert(table, row as never);
      made[table] = row.id;
      return row.id;
    };
    for (const table of tableNames) {
      const belonging = BELONGING[table];
      if (belonging && belonging.as !== 'about' && which(belonging)) make(table);
    }
    for (const [table, id] of Object.entries(made)) {
      tx.insert('jobs', {
        id: `${tag}-job-${table}`,
        kind: 'made-by-a-test',
        subject: `${id}:about`,
        due_ms: Number.MAX_SAFE_INTEGER,
        organization_id: organizationId,
      });
    }
  });
  return made;
}

async function newTenant(sandbox: TestSandbox): Promise<{ client_id: string; organization_id: string }> {
  const answer = await sandbox.request('POST', '/_sandbox/tenants', { body: {} });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const every = () => true;

describe('what a tenant owns, table by table', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });

  it('every table says how its rows belong to a tenant, or is nobody’s', () => {
    const shared: TableName[] = ['revokedTokens', 'brokers', 'serviceOptions', 'regions', 'statuses', 'contractTemplates'];
    expect(tableNames.filter((table) => !BELONGING[table]).sort()).toEqual(shared.sort());
  });

  it("a tenant's removal takes its rows from every table, one made in each, and nothing of another tenant", async () => {
    const tenant = await newTenant(sandbox);
    const other = await newTenant(sandbox);
    const made = await makeRows(sandbox, tenant.organization_id, 'gone', every);
    await makeRows(sandbox, other.organization_id, 'kept', every);
    const before = sandbox.store.snapshot();
    const expected = tenantRows(before, tenant.organization_id, every);
    for (const [table, id] of Object.entries(made)) expect(expected[table], table).toContain(id);

    const deleted = await sandbox.request('DELETE', `/_sandbox/tenants/${tenant.organization_id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(removedIds(before, sandbox.store.snapshot())).toEqual(expected);
  });

  it('a tenant reset clears what the tenant made in every table, one made in each, and keeps its own set-up', async () => {
    const tenant = await newTenant(sandbox);
    const other = await newTenant(sandbox);
    const clears = (belonging: Belonging) => belonging.reset === 'clears';
    const made = await makeRows(sandbox, tenant.organization_id, 'reset', clears);
    await makeRows(sandbox, other.organization_id, 'stays', clears);
    const before = sandbox.store.snapshot();
    const expected = tenantRows(before, tenant.organization_id, clears);
    for (const [table, id] of Object.entries(made)) expect(expected[table], table).toContain(id);
    const kept = tenantRows(before, tenant.organization_id, (belonging) => belonging.reset === 'keeps');

    const reset = await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: tenant.client_id } });
    expect(reset.status, reset.text).toBe(200);
    const after = sandbox.store.snapshot();
    expect(removedIds(before, after)).toEqual(expected);
    expect(tenantRows(after, tenant.organization_id, (belonging) => belonging.reset === 'keeps')).toEqual(kept);
  });
});
