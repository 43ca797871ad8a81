import { beforeAll, describe, expect, it } from 'vitest';
import { tableDeclarations, tableNames, type Belonging as BelongingOf, type StateData, type TableName } from '../src/store/tables.js';
import { seededState, testSandbox, type TestSandbox } from './support/app.js';

/*
 * A tenant's removal and reset, table by table: one row is made for the tenant in every table a
 * tenant's rows live in (and one for another tenant), and what goes is compared with what belongs
 * to the tenant, read naively (every row, no index) from how each table declares its rows belong
 * to one (store/tables.ts), so a table added to the declarations is in every test here.
 */

type Belonging = Pick<BelongingOf<unknown, TableName>, 'of' | 'as' | 'reset'> & { key: string };

/** How each table's rows belong to a tenant, as the table declares it; nothing for a shared table. */
const BELONGING: Partial<Record<TableName, Belonging>> = Object.fromEntries(
  tableNames.flatMap((table) => {
    const { tenant } = tableDeclarations[table];
    return 'key' in tenant ? [[table, tenant]] : [];
  }),
);

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

/**
 * Whether a row names a tenant at all: it is everyone's when its (optional) key is left out, when
 * an owner is not an organization (a broker's contract), or when the row it goes through is everyone's.
 */
function namesTenant(state: StateData, table: TableName, row: Row): boolean {
  const belonging = BELONGING[table]!;
  const value = row[belonging.key];
  if (belonging.as === 'owner') return (value as { type?: string } | undefined)?.type === 'organizations';
  if (!belonging.of) return value !== undefined;
  const parent = rowsOf(state, belonging.of).find((candidate) => candidate.id === value);
  return parent === undefined || namesTenant(state, belonging.of, parent);
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

  it("the declarations describe the seeded world: each row that names a tenant is a seeded organization's", () => {
    const state = seededState();
    const organizations = rowsOf(state, 'organizations').map((row) => row.id);
    const strays: string[] = [];
    for (const table of tableNames) {
      const belonging = BELONGING[table];
      // A setting's or a job's name is free; the tests below show they go with their tenant.
      if (!belonging || belonging.as === 'about' || belonging.as === 'part') continue;
      for (const row of rowsOf(state, table)) {
        if (namesTenant(state, table, row) && !organizations.some((organizationId) => belongs(state, table, row, organizationId)))
          strays.push(`${table} ${row.id}`);
      }
    }
    expect(strays).toEqual([]);
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
