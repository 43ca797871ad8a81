// Data files for the sandbox: seeded by bench/seed.ts without HTTP (100,000 creates over HTTP would take minutes), copied per run so each starts from the same state.
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MB, ROOT, TSX_LOADER } from './options.js';
import { log, run } from './processes.js';

/** What seed.ts reports besides the file: the path of its answer to GET /shipments/{id}, and the token that answer was asked with. */
export type SeedSummary = { document?: string; token?: string };

export async function seedWithSummary(dir: string, name: string, shipments: number): Promise<{ file: string; summary: SeedSummary }> {
  const file = join(dir, name, 'sandbox.json');
  const started = performance.now();
  const { code, stdout, stderr } = await run(process.execPath, [
    '--import',
    TSX_LOADER,
    join(ROOT, 'bench', 'seed.ts'),
    '--file',
    file,
    '--shipments',
    String(shipments),
  ]);
  if (code !== 0) throw new Error(`seeding ${shipments} shipments failed:\n${stderr}`);
  const summary = JSON.parse(stdout.trim().split('\n').at(-1)!);
  const size = (await stat(file)).size;
  log(`seeded ${summary.shipments} shipments into ${file} (${Math.round(size / MB)} MB) in ${Math.round(performance.now() - started)} ms`);
  return { file, summary };
}

export async function seedFile(dir: string, name: string, shipments: number): Promise<string> {
  return (await seedWithSummary(dir, name, shipments)).file;
}

export async function copyData(file: string, dir: string, name: string): Promise<string> {
  const target = join(dir, name, 'sandbox.json');
  await mkdir(join(dir, name), { recursive: true });
  await copyFile(file, target);
  await copyFile(file.replace(/\.json$/, '.keys.json'), target.replace(/\.json$/, '.keys.json'));
  return target;
}
