#!/usr/bin/env node
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { generateState } from '../fixtures/generate.js';
import { defaultClients } from '../fixtures/tenancy.js';
import { createApp } from './app.js';
import { generateKeys } from './auth/keys.js';
import { createClock } from './clock.js';
import { ConfigError, parseConfig, type Config } from './config.js';
import { keyFileFor, loadOrCreateKeys } from './keys-file.js';
import { DataFileError, filePersistence, memoryPersistence } from './store/persistence.js';
import { openStore } from './store/store.js';

/** Opens the data (file or memory) and the keys that belong to it. */
async function openData(config: Config) {
  if (config.dataFile === null) {
    const store = await openStore({ persistence: memoryPersistence(), seed: config.seed, initial: () => generateState(config.seed) });
    return { store, keys: await generateKeys() };
  }
  const file = resolve(config.dataFile);
  await mkdir(dirname(file), { recursive: true });
  const store = await openStore({ persistence: filePersistence(file), seed: config.seed, initial: () => generateState(config.seed) });
  if (config.reset) await store.replace(generateState(config.seed));
  return { store, keys: await loadOrCreateKeys(keyFileFor(file)) };
}

function banner(config: Config, url: string, location: string): string {
  const clients = defaultClients.map((client) => `    ${client.id.padEnd(15)} ${client.secret.padEnd(15)} ${client.scopes.join(' ')}`);
  return [
    `parcel-sandbox listening on ${url}`,
    `  data:        ${location}`,
    `  token:       POST ${url}/access-token`,
    `  openapi:     ${url}/openapi.json`,
    `  clients (client_id, client_secret, scopes):`,
    ...clients,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const config = parseConfig(process.env);
  const { store, keys } = await openData(config);
  const clock = createClock();
  const app = createApp({ store, clock, keys, config });
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    process.stdout.write(banner(config, config.publicUrl ?? `http://${host}:${info.port}`, store.location));
  });
  server.on('error', (error: NodeJS.ErrnoException) => {
    const reason = error.code === 'EADDRINUSE' ? `port ${config.port} on ${config.host} is already in use` : error.message;
    process.stderr.write(`parcel-sandbox: cannot listen: ${reason}\n`);
    process.exit(1);
  });
  const shutdown = () => {
    server.close();
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
