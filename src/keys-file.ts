import { readFile, rename, writeFile } from 'node:fs/promises';
import { generateKeyMaterial, importKeys, type KeyMaterial, type Keys } from './auth/keys.js';
import { DataFileError } from './store/persistence.js';

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
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(material, null, 2), { mode: 0o600 });
  await rename(temporary, file);
  return importKeys(material);
}
