#!/usr/bin/env node
import { parseCli } from './cli.js';
import { ConfigError } from './config.js';
import { DataFileError } from './store/persistence.js';
import { FixtureError } from './fixtures/problems.js';
import { cacheCompiledCode } from './server/compile-cache.js';
import { tuneHeap } from './server/heap.js';

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
  tuneHeap(process.execArgv);
  cacheCompiledCode();
  const { runServer } = await import('./server/run-server.js');
  await runServer(cli.config, cli.given);
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
