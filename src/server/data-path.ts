import { access, constants, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfigError } from '../config.js';
import { DataWriteError } from '../store/persistence.js';

/*
 * The data file's path is checked before the store opens it, so that a path that cannot be used
 * ends the start with one line that says why (exit 2) instead of a stack trace, or a hang:
 * Node's `mkdir(..., { recursive: true })` loops for ever on a directory under /proc, and reading
 * a device or a FIFO as the data file would never end either.
 */

/** The start-up error for a data file at `file` that cannot be used, for `reason`. */
export function unusableDataFile(file: string, reason: string): ConfigError {
  return new ConfigError(`cannot use the data file ${file}: ${reason}`);
}

/** The system error's own message (code, what failed and on which path), or the error's message. */
export function systemReason(error: unknown): string {
  const cause = error instanceof DataWriteError ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/** What is at `path`; a path through a file (ENOTDIR) has nothing at it, as a missing one. */
async function kindOf(path: string): Promise<'file' | 'directory' | 'other' | 'missing'> {
  try {
    const found = await stat(path);
    return found.isFile() ? 'file' : found.isDirectory() ? 'directory' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw error;
  }
}

/**
 * Makes sure `file` can be opened as the data file: it is a regular file or does not exist yet,
 * and its directory exists, made here one level at a time when it does not (at most as many
 * steps as the path has parts). Throws the start-up error otherwise.
 */
export async function prepareDataPath(file: string): Promise<void> {
  try {
    await prepare(file);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw unusableDataFile(file, systemReason(error));
  }
}

async function prepare(file: string): Promise<void> {
  const kind = await kindOf(file);
  if (kind === 'directory' || kind === 'other') throw unusableDataFile(file, 'it is not a regular file');
  if (kind === 'file') {
    // An existing file is written in place (the journal) and replaced by a rename in its
    // directory: both must take writes, or the first write would fail long after the start.
    await access(file, constants.W_OK);
    await access(dirname(file), constants.W_OK);
  }
  const missing: string[] = [];
  let dir = dirname(file);
  for (let found = await kindOf(dir); found !== 'directory'; found = await kindOf(dir)) {
    if (found !== 'missing') throw unusableDataFile(file, `${dir} is not a directory`);
    missing.unshift(dir);
    if (dirname(dir) === dir) break;
    dir = dirname(dir);
  }
  for (const each of missing) {
    try {
      await mkdir(each);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw unusableDataFile(file, `cannot create the directory ${each} (${systemReason(error)})`);
    }
  }
}
