import { open, readdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { DataFileError, type WriteOp } from './persistence-api.js';
import { isStateData } from './snapshot.js';
import { tableNames, type StateData, type TableName } from './tables.js';

/*
 * The journal: JSON lines beside the snapshot, in numbered segments
 * (`sandbox.json.journal-000001.jsonl`, ...). A write appends one line per row change,
 * `{"t": table, "id": id, "v": row or null}`, and then a commit line `{"c": n}` counting them,
 * so a crash mid-append (a torn or missing tail) drops the whole unacknowledged write instead
 * of half a transaction. A sandbox reset is one line `{"reset": data}`.
 *
 * Every line sets a row to its full value, so replaying a segment over a snapshot that already
 * holds some of its changes gives the same result: a snapshot may be newer than the segments
 * left beside it (a crash between writing the snapshot and deleting them) without harm.
 */

type RowEntry = { kind: 'row'; table: TableName; id: string; row: { id: string } | null };
type ResetEntry = { kind: 'reset'; data: StateData };
export type Entry = RowEntry | ResetEntry;

export function segmentPath(file: string, n: number): string {
  return `${file}.journal-${String(n).padStart(6, '0')}.jsonl`;
}

/** The numbers of the journal segments beside `file`, ascending. */
export async function listSegments(file: string): Promise<number[]> {
  const prefix = `${basename(file)}.journal-`;
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => name.startsWith(prefix) && /^\d+\.jsonl$/.test(name.slice(prefix.length)))
    .map((name) => Number.parseInt(name.slice(prefix.length), 10))
    .sort((a, b) => a - b);
}

/**
 * The segments to replay: the run of consecutive numbers that ends with the newest. Compaction
 * deletes segments oldest first, and only once a snapshot covering them is on disk, so anything
 * before a gap is already in the snapshot.
 */
export function segmentsToReplay(numbers: number[]): number[] {
  let first = numbers.length - 1;
  while (first > 0 && numbers[first - 1] === numbers[first]! - 1) first--;
  return numbers.slice(Math.max(first, 0));
}

/** The lines for one `write`: its row changes and the commit line that makes them count. */
export function encodeBatch(ops: WriteOp[]): { text: string; lines: number } {
  let text = '';
  let count = 0;
  for (const op of ops) {
    text += JSON.stringify({ t: op.table, id: op.id, v: op.after ?? null }) + '\n';
    count++;
  }
  return { text: `${text}{"c":${count}}\n`, lines: count + 1 };
}

export function encodeReset(data: StateData): { text: string; lines: number } {
  return { text: `${JSON.stringify({ reset: data })}\n{"c":1}\n`, lines: 2 };
}

export interface ParsedSegment {
  entries: Entry[];
  /** Lines and bytes up to the end of the last commit: what later appends follow. */
  lines: number;
  committedBytes: number;
}

/**
 * Decodes a segment. Lines after the last commit are an unacknowledged write cut short by a crash
 * and are left out; a damaged line that a commit follows is real damage and a `DataFileError`.
 */
export function parseSegment(buffer: Buffer, path: string): ParsedSegment {
  const entries: Entry[] = [];
  let pending: Entry[] = [];
  let damaged: number | undefined;
  let committed = { lines: 0, bytes: 0 };
  let lineNo = 0;
  for (let start = 0; start < buffer.length;) {
    const newline = buffer.indexOf(10, start);
    lineNo++;
    // A line without its newline was cut off mid-append, whatever it holds.
    const line = newline === -1 ? undefined : decodeLine(buffer.toString('utf8', start, newline));
    start = newline === -1 ? buffer.length : newline + 1;
    if (line === undefined) damaged ??= lineNo;
    else if (line.kind !== 'commit') pending.push(line);
    else {
      if (damaged !== undefined) throw new DataFileError(path, `journal line ${damaged} is damaged, and committed writes follow it`);
      if (line.count !== pending.length) throw new DataFileError(path, `journal line ${lineNo} commits ${line.count} changes but follows ${pending.length}`);
      for (const entry of pending) entries.push(entry);
      pending = [];
      committed = { lines: lineNo, bytes: start };
    }
  }
  return { entries, lines: committed.lines, committedBytes: committed.bytes };
}

function decodeLine(text: string): Entry | { kind: 'commit'; count: number } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (Number.isInteger(value.c)) return { kind: 'commit', count: value.c as number };
  if ('reset' in value) return isStateData(value.reset) ? { kind: 'reset', data: value.reset } : undefined;
  const { t, id, v } = value;
  if (!tableNames.includes(t as TableName) || typeof id !== 'string') return undefined;
  if (v !== null && !(isRecord(v) && v.id === id)) return undefined;
  return { kind: 'row', table: t as TableName, id, row: v as { id: string } | null };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Cuts a torn tail off a segment, so the next append starts on a line of its own. */
export async function truncateSegment(path: string, bytes: number): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** The snapshot with the segments' entries applied in order. Rows keep the store's order. */
export function replay(base: StateData, segments: Entry[][]): StateData {
  if (segments.every((entries) => entries.length === 0)) return base;
  let state = base;
  let tables = tableMaps(base);
  for (const entries of segments) {
    for (const entry of entries) {
      if (entry.kind === 'reset') {
        state = entry.data;
        tables = tableMaps(entry.data);
        continue;
      }
      let rows = tables.get(entry.table);
      if (!rows) tables.set(entry.table, (rows = new Map()));
      if (entry.row) rows.set(entry.id, entry.row);
      else rows.delete(entry.id);
    }
  }
  const out: Record<string, unknown[]> = {};
  for (const [name, rows] of tables) out[name] = [...rows.values()];
  return { ...state, tables: out as StateData['tables'] };
}

function tableMaps(data: StateData): Map<string, Map<string, { id: string }>> {
  const tables = new Map<string, Map<string, { id: string }>>();
  for (const [name, rows] of Object.entries(data.tables)) {
    tables.set(name, new Map((rows ?? []).map((row) => [(row as { id: string }).id, row as { id: string }])));
  }
  return tables;
}
