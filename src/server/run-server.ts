import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { allEndpoints, authOnly, createApp, createServices } from '../app.js';
import { bodyLimits, type BodyLimits } from '../http/body-limits.js';
import { LingeringResponse, answerExpectContinue } from './unread-bodies.js';
import { answerClientErrors, answerConnect, answerExpectations, requestErrorResponse, requiringHost } from './client-errors.js';
import { generateKeys } from '../auth/keys.js';
import { createClock } from '../clock.js';
import type { Config } from '../config.js';
import { keyFileFor, loadOrCreateKeys } from '../keys-file.js';
import { createLogger, logFormatOf } from '../logger.js';
import { DataFileError, DataWriteError, filePersistence, memoryPersistence } from '../store/persistence.js';
import { lockDataFile } from './data-lock.js';
import { systemReason, unusableDataFile } from './data-path.js';
import { openStore } from '../store/store.js';
import type { StartPack } from '../fixtures/world.js';
import { describeJsonSyntax } from '../controls/pack-source.js';
import { banner, unappliedLine, type Started } from './banner.js';
import { listenProblem } from './listen-problem.js';
import { ownUrl } from '../http/own-url.js';
import type { StopSignals } from './stop-signals.js';

/*
 * The sandbox as a process: opens the data file, listens, prints the banner and shuts down on
 * SIGTERM/SIGINT (caught by stop-signals.ts). Only `main.ts` runs it, after parsing the command line.
 */

/** How long requests already being handled get to finish after SIGTERM/SIGINT. */
const DRAIN_MS = 2000;

/** The pack of `--fixtures`, read and checked: a broken one ends the start (exit 2, a line per problem). */
async function startPack(config: Config): Promise<StartPack | undefined> {
  if (config.fixtures === undefined) return undefined;
  const { loadStartPack } = await import('../fixtures/start-pack.js');
  return loadStartPack(config.fixtures, config.fixturesOnly, describeJsonSyntax);
}

/** Opens the data (file or memory) and the keys that belong to it; `seeded` when this start made the data rather than read it. */
async function openData(config: Config, fixtures: StartPack | undefined) {
  let seeded = false;
  // The fixture generator (and faker) is only needed for a new or reset data file.
  const initial = async () => {
    seeded = true;
    return (await import('../fixtures/generate.js')).generateState(config.seed, Math.floor(Date.now() / 1000), fixtures);
  };
  if (config.dataFile === null) {
    const store = await openStore({ persistence: memoryPersistence(), seed: config.seed, initial });
    return { store, keys: await generateKeys(), seeded };
  }
  // main.ts has checked the path (prepareDataPath) before loading this module.
  const file = resolve(config.dataFile);
  try {
    await lockDataFile(file);
  } catch (error) {
    if (error instanceof DataFileError) throw error;
    throw unusableDataFile(file, systemReason(error));
  }
  try {
    const store = await openStore({ persistence: filePersistence(file), seed: config.seed, initial, fresh: config.reset });
    return { store, keys: await loadOrCreateKeys(keyFileFor(file)), seeded };
  } catch (error) {
    // A file that exists but is damaged is refused as such (exit 1); a place where no data file
    // can be written (a read-only or system directory, a full disk) is a path to change (exit 2).
    if (error instanceof DataFileError) throw error;
    if (error instanceof DataWriteError || (error as NodeJS.ErrnoException).code !== undefined) throw unusableDataFile(file, systemReason(error));
    throw error;
  }
}

/** Listens on the port of `which`, resolving with the bound port; a port in use (or a host not of this machine) ends the process with a clear message. */
function listen(fetch: (request: Request) => Response | Promise<Response>, config: Config, which: 'port' | 'authPort', limits: BodyLimits) {
  const port = config[which]!;
  return new Promise<{ server: Server; port: number }>((resolvePort) => {
    // The rest of a body the app did not read is thrown away by LingeringResponse, with longer
    // bounds than the adapter's own drain, which is turned off.
    // The adapter's listener made here rather than by its `serve`, which takes no `errorHandler`:
    // a request it cannot make a URL of gets an errors document instead of a bare 400 (client-errors.ts).
    const listener = getRequestListener(fetch, { hostname: config.host, autoCleanupIncoming: false, errorHandler: requestErrorResponse });
    const server = createServer({ ServerResponse: LingeringResponse, requireHostHeader: false }, requiringHost(listener));
    server.listen(port, config.host, () => resolvePort({ server, port: (server.address() as AddressInfo).port }));
    answerExpectContinue(server, limits);
    answerClientErrors(server);
    answerConnect(server);
    answerExpectations(server);
    server.on('error', (error: NodeJS.ErrnoException) => {
      process.stderr.write(`parcel-sandbox: cannot listen: ${listenProblem(error, config, port, which)}\n`);
      process.exit(1);
    });
  });
}

/**
 * Stops accepting connections and resolves once the requests being handled have been answered,
 * or after `DRAIN_MS`, when the remaining connections are cut.
 */
function drain(servers: Server[]): Promise<void> {
  return new Promise((done) => {
    let open = servers.length;
    // Keep-alive connections stay open after their answer; close each as soon as it is idle.
    const idle = setInterval(() => servers.forEach((server) => server.closeIdleConnections()), 20);
    const finish = () => {
      clearInterval(idle);
      clearTimeout(timer);
      done();
    };
    const timer = setTimeout(() => {
      process.stderr.write(`parcel-sandbox: requests still running after ${DRAIN_MS} ms; closing their connections\n`);
      for (const server of servers) server.closeAllConnections();
      finish();
    }, DRAIN_MS);
    for (const server of servers) {
      server.close(() => {
        open -= 1;
        if (open === 0) finish();
      });
    }
  });
}

/**
 * Starts the sandbox server; resolves once it listens. `given`: the settings a flag or variable set.
 * `signals`: caught by main.ts before this module loaded; one that came while the sandbox started
 * stops it as soon as it is up, instead of killing it halfway through writing a new data file.
 */
export async function runServer(config: Config, given: ReadonlySet<keyof Config>, signals: StopSignals): Promise<void> {
  const format = logFormatOf(config.logFormat);
  const logger = createLogger(config.logLevel, format);
  const fixtures = await startPack(config);
  const { store, keys, seeded } = await openData(config, fixtures);
  const services = createServices({ store, clock: createClock(), keys, config, logger, ...(fixtures ? { fixtures } : {}) });
  const app = createApp(services);
  const limits = bodyLimits(allEndpoints(), config.bodyLimit);
  const api = await listen(app.fetch, config, 'port', limits);
  const auth = config.authPort === undefined ? undefined : await listen(authOnly(app), config, 'authPort', limits);
  const local = ownUrl(config.host, api.port);
  const authUrl = auth && ownUrl(config.host, auth.port);
  // Known once listening (`--port 0` picks the port): the due work that renders webhook payloads
  // starts after, so their links name the port the server answers at.
  services.listeningAt = local;
  services.jobs.start();

  const stop = () => {
    services.jobs.shutdown();
    void drain(auth ? [api.server, auth.server] : [api.server])
      .then(() => store.close())
      .then(
        () => {
          const data = store.location === 'memory' ? 'the data was in memory and is gone' : `data file written: ${store.location}`;
          logger.info({ signal: signals.received, data: store.location }, `parcel-sandbox stopped on ${signals.received}; ${data}`);
          process.exit(0);
        },
        (error: unknown) => {
          process.stderr.write(`parcel-sandbox: could not close the data: ${(error as Error).message}\n`);
          process.exit(1);
        },
      );
  };
  signals.onStop(stop);
  if (signals.received) return;
  const started: Started = { local, authUrl, config, store, fixtures, seeded };
  const unapplied = unappliedLine(started, given);
  if (unapplied) process.stderr.write(unapplied);
  const text = banner(started);
  if (format === 'pretty') {
    process.stdout.write(text);
    return;
  }
  // Piped, stdout holds JSON lines only: people read the banner on stderr, tools the line on stdout.
  process.stderr.write(text);
  const url = config.publicUrl ?? local;
  logger.info(
    {
      url: local,
      public_url: config.publicUrl,
      data: store.location,
      fixtures: config.fixtures,
      docs: `${url}/docs`,
      openapi: `${url}/openapi.json`,
      auth_url: authUrl,
    },
    `parcel-sandbox listening on ${local}`,
  );
}
