/**
 * `npm run bench`: throughput, latency, start-up, memory and write-cost growth of the sandbox as
 * users run it, next to a bare Hono server on the same machine. A report, not a test: it prints a
 * table and a PASS/MISSED line per target, writes bench/results.json and exits 0 even when a
 * target is missed (non-zero only when the bench itself cannot run). `--help` lists the options;
 * bench/README.md says how it measures. The scenarios are in bench/scenarios/, in the order below.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from './lib/build.js';
import { copyData, seedWithSummary } from './lib/data.js';
import { args, BASE_SHIPMENTS, GROWTH_SIZES } from './lib/options.js';
import { killChildren, log } from './lib/processes.js';
import { writeResults } from './report/results.js';
import { checkTargets, docsTarget, getTarget, growthTarget, hostileTargets, slowNote, startupTarget } from './report/targets.js';
import { growthLines, hostileLines, report } from './report/text.js';
import { meanBaseline, measureBaseline, measureTinyBaseline, sameDocument } from './scenarios/baseline.js';
import { docsPage, docsPageLine } from './scenarios/docs-page.js';
import { growthPoints } from './scenarios/growth.js';
import { hostileBodies } from './scenarios/hostile.js';
import { joseSign } from './scenarios/jose-sign.js';
import { measureLogCost } from './scenarios/log-cost.js';
import { profileRuns } from './scenarios/profiles.js';
import { runSandbox } from './scenarios/sandbox.js';
import { endpoints, prepare } from './scenarios/endpoints.js';
import { pairedGet } from './scenarios/paired-get.js';
import { measure } from './lib/measure.js';
import { startSandbox } from './lib/server.js';
import { startupTimes } from './scenarios/startup.js';
import { tenantSoak } from './scenarios/tenant-soak.js';

/** `--only-hostile`: the hostile-bodies scenario alone on the seeded data, its figures and targets. */
async function onlyHostile(dir: string, notes: string[]): Promise<void> {
  const seeded = await seedWithSummary(dir, 'main', BASE_SHIPMENTS);
  const hostile = await hostileBodies(dir, await copyData(seeded.file, dir, 'pristine'), false);
  const targets = hostileTargets(hostile);
  const lines = [...hostileLines(hostile), ...notes.map((note) => `note: ${note}`), ...targets.map((t) => `${t.ok ? 'PASS  ' : 'MISSED'}  ${t.text}`)];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `--only-docs`: the API reference page's time to interactive alone, its figures and target. */
async function onlyDocs(dir: string, notes: string[]): Promise<void> {
  const seeded = await seedWithSummary(dir, 'main', BASE_SHIPMENTS);
  const docs = await docsPage(dir, await copyData(seeded.file, dir, 'pristine'));
  if (!docs) return void process.stdout.write('API reference page: skipped (no Chromium)\n');
  const target = docsTarget(docs);
  const lines = [docsPageLine(docs), ...notes.map((note) => `note: ${note}`), `${target.ok ? 'PASS  ' : 'MISSED'}  ${target.text}`];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `--only-startup`: the start-up times alone, on a seeded data file and on first starts, and their target. */
async function onlyStartup(dir: string, notes: string[]): Promise<void> {
  const seeded = await seedWithSummary(dir, 'main', BASE_SHIPMENTS);
  const startup = await startupTimes(dir, await copyData(seeded.file, dir, 'pristine'));
  const target = startupTarget(startup);
  const figures = `start-up: ${startup.existing_file_ms.join(', ')} ms on the seeded data file; ${startup.first_start_ms.join(', ')} ms on first starts; ${startup.bare_hono_ms.join(', ')} ms for a bare hono server`;
  const lines = [figures, ...notes.map((note) => `note: ${note}`), `${target.ok ? 'PASS  ' : 'MISSED'}  ${target.text}`];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * `--only-get`: GET /shipments/{id} in turns with the baseline serving its document, the figure
 * its target is checked on, in 5 rounds instead of 3 (the quick loop while working on the read path).
 */
async function onlyGet(dir: string, notes: string[]): Promise<void> {
  const seeded = await seedWithSummary(dir, 'main', BASE_SHIPMENTS);
  const sandbox = await startSandbox('sandbox', seeded.file);
  try {
    const get = endpoints(await prepare(sandbox)).get;
    await measure(sandbox, get);
    const paired = await pairedGet(seeded.summary.document, sameDocument(seeded.summary), sandbox, get, 5);
    const target = getTarget(paired);
    const rounds = paired.rounds.map((round) => `${round.sandbox_rps}/${round.baseline_rps}`).join(', ');
    const lines = [
      `GET /shipments/{id} in turns (sandbox/baseline req/s): ${rounds}`,
      ...notes.map((note) => `note: ${note}`),
      `${target.ok ? 'PASS  ' : 'MISSED'}  ${target.text}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await sandbox.stop(true);
  }
}

/** `--only-growth`: POST /shipments (and the first list page) with each size of `--shipments` stored, in turns, and its target. */
async function onlyGrowth(notes: string[], dir: string): Promise<void> {
  const growth = await growthPoints(dir, GROWTH_SIZES);
  const target = growthTarget({ growth });
  const lines = [
    ...growthLines({ growth }),
    ...notes.map((note) => `note: ${note}`),
    ...(target ? [`${target.ok ? 'PASS  ' : 'MISSED'}  ${target.text}`] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  const began = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'parcel-sandbox-bench-'));
  const notes: string[] = [];
  try {
    const buildWarning = await build();
    if (buildWarning) notes.push(buildWarning);
    if (args['only-hostile']) return await onlyHostile(dir, notes);
    if (args['only-docs']) return await onlyDocs(dir, notes);
    if (args['only-startup']) return await onlyStartup(dir, notes);
    if (args['only-growth']) return await onlyGrowth(notes, dir);
    if (args['only-get']) return await onlyGet(dir, notes);

    // 1. The baseline, measured again at the end; the tiny document is for reference.
    const seeded = await seedWithSummary(dir, 'main', BASE_SHIPMENTS);
    const baselineScenario = sameDocument(seeded.summary);
    const baselineFirst = await measureBaseline(seeded.summary.document, baselineScenario);
    const tiny = await measureTinyBaseline();

    // 2. The sandbox on that seeded data file: the five scenarios, then its memory. Every later
    // sandbox starts from a copy of the data as it was before this run added shipments to it.
    const pristine = await copyData(seeded.file, dir, 'pristine');
    const { stopCode, ...sandbox } = await runSandbox(seeded.file, seeded.summary.document, baselineScenario);
    if (stopCode !== 0) notes.push(`the sandbox exited with ${stopCode} on SIGTERM`);

    // 2b. The floor of POST /access-token: bare jose signing on the sandbox's CPU.
    const jose = await joseSign();

    // 3. Start-up time.
    const startup = await startupTimes(dir, pristine);

    // 4. The cost of LOG_LEVEL=info (the default) on the read path.
    const logCost = args['skip-log-cost'] ? undefined : await measureLogCost(dir, pristine, sandbox.measured[1]!);

    // 5. /health while hostile bodies arrive.
    const hostile = args['skip-hostile'] ? undefined : await hostileBodies(dir, pristine);

    // 5b. Memory while 1,000 ephemeral tenants with 20 shipments each come and go.
    const soak = args['skip-soak'] ? undefined : await tenantSoak(dir, pristine);

    // 5c. The API reference page in headless Chromium.
    const docs = args['skip-docs'] ? undefined : await docsPage(dir, pristine);

    // 6. Profiles.
    const profiles = args.profile ? await profileRuns(dir, pristine) : [];

    // 7. Growth: POST /shipments (and the first list page) with N shipments stored.
    const growth = args['skip-growth'] ? [] : await growthPoints(dir, GROWTH_SIZES);

    const baselineLast = await measureBaseline(seeded.summary.document, baselineScenario);
    const baseline = meanBaseline(baselineFirst, baselineLast);

    const outcome = { ...sandbox, jose, baselineFirst, baselineLast, baseline, tiny, startup, logCost, hostile, soak, docs, profiles, growth };
    const targets = checkTargets(outcome);
    const slow = slowNote(outcome);
    if (slow) notes.push(slow);
    process.stdout.write(report(outcome, targets, notes));
    await writeResults(outcome, targets, began);
  } finally {
    killChildren();
    if (args.keep) log(`data kept in ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  killChildren();
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
