import { createHmac } from 'node:crypto';
import type { Config } from '../config.js';
import { knownClients } from '../fixtures/clients.js';
import type { StartPack } from '../fixtures/world.js';
import { hashSecret } from './secrets.js';

/*
 * The seeded clients' secrets are published (README, fixture files): on a laptop that is the
 * point. A shared sandbox (`--shared`) is reached by others, a docs site's by anyone, so there a
 * published secret would let any reader change the seeded data everyone sees. In shared mode a
 * seeded client still held with its published secret takes a secret derived from the admin token
 * instead: the operator can work it out (the banner prints it), nobody else can.
 */

/** The secret a seeded client takes in shared mode: the first 32 hex digits of HMAC-SHA256(admin token, client id). */
export function sharedModeSecret(adminToken: string, clientId: string): string {
  return createHmac('sha256', adminToken).update(clientId, 'utf8').digest('hex').slice(0, 32);
}

/** What a seeded client is asked for under `config`: its published secret, or in shared mode the derived one. */
export function seededSecret(config: Pick<Config, 'shared' | 'adminToken'>, client: { id: string; secret: string }): string {
  return config.shared && config.adminToken !== undefined ? sharedModeSecret(config.adminToken, client.id) : client.secret;
}

interface SharedDigests {
  /** By client id: the digest of its published secret, and of the secret it takes instead. */
  byClient: Map<string, { published: string; instead: string }>;
}

/** Made once per sandbox (its settings and pack do not change while it runs). */
const digestsOf = new WeakMap<Config, SharedDigests>();

function sharedDigests(config: Config, fixtures: StartPack | undefined): SharedDigests {
  let digests = digestsOf.get(config);
  if (!digests) {
    const byClient = new Map(
      knownClients(fixtures).map((client) => [client.id, { published: hashSecret(client.secret), instead: hashSecret(seededSecret(config, client)) }]),
    );
    digestsOf.set(config, (digests = { byClient }));
  }
  return digests;
}

/**
 * The digest a client's secret is checked against: the stored one, except in shared mode for a
 * seeded client still held with its published secret, which takes the derived secret instead.
 */
export function expectedDigest(services: { config: Config; fixtures?: StartPack }, clientId: string, stored: string): string {
  if (!services.config.shared) return stored;
  const seeded = sharedDigests(services.config, services.fixtures).byClient.get(clientId);
  return seeded !== undefined && seeded.published === stored ? seeded.instead : stored;
}

/** Whether `secret` is the published secret of a seeded client that shared mode holds back (to say why it is refused). */
export function isHeldBackSecret(services: { config: Config; fixtures?: StartPack }, clientId: string, stored: string, secret: string): boolean {
  if (!services.config.shared) return false;
  const seeded = sharedDigests(services.config, services.fixtures).byClient.get(clientId);
  return seeded !== undefined && seeded.published === stored && seeded.published === hashSecret(secret);
}
