import { createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';

export const TOKEN_ALG = 'ES256';

/** The sandbox's secrets: the token signing key pair and the key that seals contract credentials. */
export interface Keys {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  /** 32-byte AES-256-GCM key for credentials at rest. */
  credentialsKey: Buffer;
}

/** The persisted form of `Keys`, kept in a file beside the data file. */
export interface KeyMaterial {
  format: 'parcel-sandbox-keys';
  signing: { alg: typeof TOKEN_ALG; kid: string; privateJwk: JWK; publicJwk: JWK };
  credentialsKey: string;
}

/** Generates fresh key material (once per data file, or per process in memory mode). */
export async function generateKeyMaterial(): Promise<KeyMaterial> {
  const { privateKey, publicKey } = await generateKeyPair(TOKEN_ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = createHash('sha256').update(JSON.stringify(publicJwk)).digest('base64url').slice(0, 16);
  return {
    format: 'parcel-sandbox-keys',
    signing: { alg: TOKEN_ALG, kid, privateJwk: await exportJWK(privateKey), publicJwk },
    credentialsKey: randomBytes(32).toString('base64'),
  };
}

/** Turns stored key material into usable keys; throws when the material is malformed. */
export async function importKeys(material: KeyMaterial): Promise<Keys> {
  if (material?.format !== 'parcel-sandbox-keys') throw new Error('not a parcel-sandbox key file');
  const { kid, privateJwk, publicJwk } = material.signing;
  const credentialsKey = Buffer.from(material.credentialsKey, 'base64');
  if (credentialsKey.length !== 32) throw new Error('credentials key must be 32 bytes');
  return {
    kid,
    // Extractable: tokens.ts signs with node:crypto's KeyObject of it, and Node 24 deprecates
    // (DEP0204, a warning in every container's log) making one of a key that is not.
    privateKey: (await importJWK(privateJwk, TOKEN_ALG, { extractable: true })) as CryptoKey,
    publicKey: (await importJWK(publicJwk, TOKEN_ALG)) as CryptoKey,
    publicJwk: { ...publicJwk, kid, alg: TOKEN_ALG, use: 'sig' },
    credentialsKey,
  };
}

/** Fresh keys that live as long as the process. */
export async function generateKeys(): Promise<Keys> {
  return importKeys(await generateKeyMaterial());
}
