#!/usr/bin/env node
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { generateState } from '../fixtures/generate.js';
import { defaultClients } from '../fixtures/tenancy.js';
import { authOnly, createApp, createServices } from './app.js';
import { generateKeys } from './auth/keys.js';
import { createClock } from './clock.js';
import { ConfigError, parseConfig, type Config } from './config.js';
import { keyFileFor, loadOrCreateKeys } from './keys-file.js';
import { createLogger } from './logger.js';
import { DataFileError, filePersistence, memoryPersistence } from './store/persistence.js';
import { openStore } from './store/store.js';

/** Opens the data (file or memory) and the keys that belong to it. */
async function openData(config: Config) {
  if (config.dataFile === null) {
    const store = await openStore({ persistence: memoryPersistence(), seed: config.seed, initial: () => generateState(config.seed, Math.floor(Date.now() / 1000)) });
    return { store, keys: await generateKeys() };
  }
  const file = resolve(config.dataFile);
  await mkdir(dirname(file), { recursive: true });
  const store = await openStore({ persistence: filePersistence(file), seed: config.seed, initial: () => generateState(config.seed, Math.floor(Date.now() / 1000)) });
  if (config.reset) await store.replace(generateState(config.seed, Math.floor(Date.now() / 1000)));
  return { store, keys: await loadOrCreateKeys(keyFileFor(file)) };
}

function banner(url: string, location: string, authUrl?: string): string {
  const clients = defaultClients.map((client) => `    ${client.id.padEnd(15)} ${client.secret.padEnd(15)} ${client.scopes.join(' ')}`);
  return [
    `parcel-sandbox listening on ${url}`,
    `  data:        ${location}`,
    `  token:       POST ${authUrl ?? url}/access-token`,
    `  openapi:     ${url}/openapi.json`,
    `  clients (client_id, client_secret, scopes):`,
    ...clients,
    '',
  ].join('\n');
}

/** Listens on `port`, resolving with the bound port; a port in use ends the process with a clear message. */
function listen(fetch: (request: Request) => Response | Promise<Response>, config: Config, port: number) {
  return new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolvePort) => {
    const server = serve({ fetch, port, hostname: config.host }, (info) => resolvePort({ server, port: info.port }));
    server.on('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EADDRINUSE' ? `port ${port} on ${config.host} is already in use` : error.message;
      process.stderr.write(`parcel-sandbox: cannot listen: ${reason}\n`);
      process.exit(1);
    });
  });
}

async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const logger = createLogger(config.logLevel);
  const { store, keys } = await openData(config);
  const clock = createClock();
  const services = createServices({ store, clock, keys, config, logger });
  const app = createApp(services);
  services.jobs.start();
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const api = await listen(app.fetch, config, config.port);
  const auth = config.authPort === undefined ? undefined : await listen(authOnly(app), config, config.authPort);
  const url = config.publicUrl ?? `http://${host}:${api.port}`;
  process.stdout.write(banner(url, store.location, auth && `http://${host}:${auth.port}`));
  const shutdown = () => {
    services.jobs.stop();
    api.server.close();
    auth?.server.close();
    void store.close().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`parcel-sandbox: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof DataFileError) {
    process.stderr.write(`parcel-sandbox: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`parcel-sandbox: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
