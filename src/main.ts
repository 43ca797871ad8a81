#!/usr/bin/env node
import { parseCli } from './cli.js';
import { ConfigError } from './config.js';
import { DataFileError } from './store/persistence.js';
import { FixtureError } from './fixtures/problems.js';
import { resolve } from 'node:path';
import { cacheCompiledCode } from './server/compile-cache.js';
import { prepareDataPath } from './server/data-path.js';
import { tuneHeap } from './server/heap.js';
import { catchStopSignals } from './server/stop-signals.js';

/** Parses the command line; the server modules load only when there is something to serve (`report` is a client of a running one). */
async function main(): Promise<void> {
  if (process.argv[2] === 'report') {
    // A client of a running sandbox: loads nothing of the server.
    const { runReport } = await import('./report/command.js');
    const io = { stdout: (text: string) => process.stdout.write(text), stderr: (text: string) => process.stderr.write(text), fetch, now: () => new Date() };
    process.exitCode = await runReport(process.argv.slice(3), process.env, io);
    return;
  }
  const cli = parseCli(process.argv.slice(2), process.env);
  if (cli.action === 'print') {
    process.stdout.write(cli.text);
    return;
  }
  // Before anything slow: a stop asked for while the server's modules load is not lost.
  const signals = catchStopSignals();
  // A data file that cannot be used is refused before the server's modules load: loading them
  // first spent ~0.6 s of CPU on a start that then ended with one line (cli.e2e's refusals).
  if (cli.config.dataFile !== null) await prepareDataPath(resolve(cli.config.dataFile));
  tuneHeap(process.execArgv);
  cacheCompiledCode();
  const { runServer } = await import('./server/run-server.js');
  await runServer(cli.config, cli.given, signals);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`parcel-sandbox: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof FixtureError) {
    for (const line of error.message.split('\n')) process.stderr.write(`parcel-sandbox: fixtures: ${line}\n`);
    process.exit(2);
  }
  if (error instanceof DataFileError) {
    process.stderr.write(`parcel-sandbox: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`parcel-sandbox: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
