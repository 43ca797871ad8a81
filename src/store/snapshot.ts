import { open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TextFile } from 'lowdb/node';
import { DataFileError } from './persistence-api.js';
import { DATA_VERSION, tableNames, type StateData, type TableName } from './tables.js';

/**
 * Roughly how much text is serialised before it goes to the file and the event loop gets a turn:
 * small enough that a request arriving meanwhile waits a millisecond or so, not tens of them.
 */
const CHUNK_CHARS = 64 * 1024;

/**
 * The most UTF-8 bytes read as one string: V8's longest string is 2^29 - 24 characters (~512 MB).
 * The sandbox writes bigger snapshots when its data grows that far, so those are read a row at a time.
 */
const MAX_TEXT_BYTES = 0x1fffffe8;

/**
 * Reads the snapshot (the lowdb JSON document users know). `null` when there is no file; a file
 * that is not JSON or not a parcel-sandbox document is a `DataFileError` and is never touched.
 * `maxTextBytes` is for tests: above it the file is read a row at a time.
 */
export async function readSnapshot(file: string, maxTextBytes = MAX_TEXT_BYTES): Promise<StateData | null> {
  let data: unknown;
  try {
    const size = await stat(file).then(
      (found) => found.size,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      },
    );
    if (size === null) return null;
    if (size > maxTextBytes) data = parseRowLines(await readFile(file), file);
    else {
      const text = await new TextFile(file).read();
      if (text === null) return null;
      data = JSON.parse(text);
    }
  } catch (error) {
    if (error instanceof DataFileError) throw error;
    if (!(error instanceof SyntaxError)) throw new DataFileError(file, (error as Error).message);
    throw new DataFileError(file, `it is not valid JSON (${error.message}); ${leftAsIs(file)}`);
  }
  if (!isStateData(data)) throw new DataFileError(file, `it is not a parcel-sandbox data file; ${leftAsIs(file)}`);
  // A newer sandbox's file may hold what this one would misread and then overwrite.
  const version = (data as { version?: unknown }).version;
  if (typeof version === 'number' && version > DATA_VERSION) {
    throw new DataFileError(
      file,
      `it is data file version ${version}, written by a newer parcel-sandbox; this one reads up to version ${DATA_VERSION}: start that newer one on it, or use another data file`,
    );
  }
  const problem = rowsProblem(data);
  if (problem) throw new DataFileError(file, `${problem}; ${leftAsIs(file)}`);
  return data;
}

/**
 * What a user can do about a data file the sandbox will not read. `--reset` does not help: it
 * replaces a sandbox's data, never a file it cannot tell is one (a `--data` that named the wrong
 * file must not cost its owner the file), so the start says so instead of leaving them to try it.
 */
function leftAsIs(file: string): string {
  return `the sandbox leaves it as it is, also with --reset: repair it, or move it away (with any ${basename(file)}.journal-* beside it) to start from a new one, or use another data file`;
}

/**
 * What in the tables the store could not load as it is, or `undefined`. Each would be lost without
 * a word once the snapshot is written again: a table this sandbox does not know (a newer one's:
 * tables are only ever added), a row that is not an object with an id (rows are kept by id), an
 * id twice in a table (the second row would replace the first).
 */
function rowsProblem(data: StateData): string | undefined {
  for (const [name, rows] of Object.entries(data.tables)) {
    if (!tableNames.includes(name as TableName)) return `it has a table ${JSON.stringify(name)} this parcel-sandbox does not know (written by a newer one?)`;
    const ids = new Set<string>();
    for (const [index, row] of (rows ?? []).entries()) {
      const id = isObject(row) ? row.id : undefined;
      if (typeof id !== 'string') return `row ${index + 1} of table ${JSON.stringify(name)} is not an object with a string id`;
      if (ids.has(id)) return `table ${JSON.stringify(name)} has two rows with the id ${JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}...` : id)}`;
      ids.add(id);
    }
  }
  return undefined;
}

export function isStateData(data: unknown): data is StateData {
  if (!isObject(data) || data.format !== 'parcel-sandbox' || !isObject(data.tables)) return false;
  return Object.values(data.tables).every((rows) => rows === undefined || Array.isArray(rows));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Replaces `file` with `data` atomically: the text goes to a temporary file beside it, which is
 * fsync'ed before the rename (otherwise a power cut can leave the new name pointing at an empty
 * file), and the directory is fsync'ed after it (otherwise the rename itself may not survive).
 */
export async function writeSnapshot(file: string, data: StateData): Promise<number> {
  // The same temporary name lowdb uses, so a leftover from either is simply overwritten.
  const temp = join(dirname(file), `.${basename(file)}.tmp`);
  const handle = await open(temp, 'w');
  let bytes: number;
  try {
    bytes = await writeChunks(handle, stateJson(data));
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    // A half-written copy on a full disk would keep the space the next attempt (or the journal) needs.
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temp, file);
  await syncDirectory(dirname(file));
  return bytes;
}

/**
 * Makes creations, renames and deletions of files in `dir` durable. Directory fsync is how POSIX
 * persists a directory entry; platforms that cannot open a directory (Windows) skip it.
 */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    if (['EISDIR', 'EPERM', 'EACCES'].includes((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes the pieces in chunks, so a big snapshot never blocks for long; returns the bytes written. */
async function writeChunks(handle: FileHandle, pieces: Iterable<string>): Promise<number> {
  let chunk = '';
  let bytes = 0;
  const flush = async () => {
    const buffer = Buffer.from(chunk);
    await handle.writeFile(buffer);
    bytes += buffer.length;
    chunk = '';
  };
  for (const piece of pieces) {
    chunk += piece;
    if (chunk.length >= CHUNK_CHARS) await flush();
  }
  if (chunk) await flush();
  return bytes;
}

/**
 * The snapshot text, produced row by row: indented like lowdb's `JSON.stringify(data, null, 2)`
 * down to the tables, with each row on a line of its own. A row per line stays easy to read and
 * to grep, is a third of the size of a fully indented file, and costs a fraction of its time to
 * write, which matters because the snapshot is rewritten while requests are being answered.
 * JSON text never holds a raw newline inside a string, so indenting a nested value is a plain
 * replace.
 */
export function* stateJson(data: StateData): Generator<string> {
  const entries = Object.entries(data).filter(([, value]) => value !== undefined);
  yield '{';
  for (const [i, [key, value]] of entries.entries()) {
    yield `${i ? ',' : ''}\n  ${JSON.stringify(key)}: `;
    if (key === 'tables') yield* tablesJson(value as StateData['tables']);
    else yield indent(JSON.stringify(value, null, 2), 2);
  }
  yield entries.length ? '\n}' : '}';
}

function* tablesJson(tables: StateData['tables']): Generator<string> {
  const entries = Object.entries(tables).filter(([, rows]) => rows !== undefined) as [string, unknown[]][];
  yield '{';
  for (const [i, [name, rows]] of entries.entries()) {
    yield `${i ? ',' : ''}\n    ${JSON.stringify(name)}: `;
    if (rows.length === 0) {
      yield '[]';
      continue;
    }
    yield '[';
    for (const [j, row] of rows.entries()) yield `${j ? ',' : ''}\n      ${JSON.stringify(row) ?? 'null'}`;
    yield '\n    ]';
  }
  yield entries.length ? '\n  }' : '}';
}

/**
 * Reads a snapshot laid out as `stateJson` writes it, a line per row, without making one string
 * of it: what is outside the tables is parsed as one small document, each row on its own.
 */
function parseRowLines(buffer: Buffer, file: string): unknown {
  const outside: string[] = [];
  // Without a prototype, a table named `__proto__` is a table (refused as unknown), not a prototype.
  const tables: Record<string, unknown[]> = Object.create(null) as Record<string, unknown[]>;
  let inTables = false;
  let rows: unknown[] | undefined;
  let lineNo = 0;
  let outsideChars = 0;
  try {
    for (let start = 0; start < buffer.length;) {
      const newline = buffer.indexOf(10, start);
      const end = newline === -1 ? buffer.length : newline;
      const line = buffer.toString('utf8', start, end);
      start = end + 1;
      lineNo++;
      if (rows) {
        if (/^ {4}\],?$/.test(line)) rows = undefined;
        else rows.push(JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line));
      } else if (inTables) {
        const table = /^ {4}("(?:[^"\\]|\\.)*"): \[(\])?,?$/.exec(line);
        if (table) {
          const list: unknown[] = (tables[JSON.parse(table[1]!) as string] = []);
          if (!table[2]) rows = list;
        } else if (/^ {2}\},?$/.test(line)) {
          inTables = false;
          if (line.endsWith(',')) outside.push(',');
        } else throw new SyntaxError('not a table of the snapshot');
      } else if (/^ {2}"tables": \{$/.test(line)) {
        inTables = true;
        outside.push('"tables": {}');
      } else {
        outside.push(line);
        // Outside the tables the sandbox writes a few short members: a file that is mostly that is laid out otherwise.
        if ((outsideChars += line.length) > 64 * 1024) throw new SyntaxError('not the layout of a snapshot');
      }
    }
    const data = JSON.parse(outside.join('\n')) as { tables?: unknown };
    return { ...data, tables };
  } catch {
    const megabytes = Math.round(buffer.length / 1024 / 1024);
    throw new DataFileError(
      file,
      `it is ${megabytes} MB, too big to read as one text, and line ${lineNo} is not laid out as parcel-sandbox writes its data files (a row per line)`,
    );
  }
}

function indent(text: string, spaces: number): string {
  return text.replaceAll('\n', `\n${' '.repeat(spaces)}`);
}
