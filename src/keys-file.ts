import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { generateKeyMaterial, importKeys, type KeyMaterial, type Keys } from './auth/keys.js';
import { DataFileError } from './store/persistence.js';
import { syncDirectory } from './store/snapshot.js';

/** The key file that belongs to a data file: `data/sandbox.json` -> `data/sandbox.keys.json`. */
export function keyFileFor(dataFile: string): string {
  return dataFile.replace(/(\.json)?$/i, '.keys.json');
}

/**
 * Loads the keys kept beside the data file, generating and saving them on first start so that
 * tokens and sealed credentials survive a restart. An unreadable key file stops the start.
 */
export async function loadOrCreateKeys(file: string): Promise<Keys> {
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new DataFileError(file, (error as Error).message);
  }
  if (text !== undefined) {
    try {
      return await importKeys(JSON.parse(text) as KeyMaterial);
    } catch (error) {
      throw new DataFileError(file, `it is not a usable key file (${(error as Error).message})`);
    }
  }
  const material = await generateKeyMaterial();
  await writeDurably(file, JSON.stringify(material, null, 2));
  return importKeys(material);
}

/**
 * Writes the key file as the data file's snapshot is written: the text is fsync'ed before the
 * rename and the directory after it. Tokens, sealed credentials and the data file's rows all
 * depend on these keys; without the syncs a power cut soon after the first start could leave an
 * empty key file (the start is then refused) or none (new keys: every token issued and every
 * sealed credential of the kept data unreadable).
 */
async function writeDurably(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
  await syncDirectory(dirname(file));
}
