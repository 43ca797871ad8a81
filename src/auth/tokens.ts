import { KeyObject, sign as signBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { ClockView } from '../clock.js';
import type { Config } from '../config.js';
import { ApiError } from '../jsonapi/errors.js';
import { TOKEN_ALG, type Keys } from './keys.js';

/** The claims the sandbox puts in an access token. */
export interface TokenClaims {
  iss: string;
  sub: string;
  aud: string;
  iat: number;
  exp: number;
  jti: string;
  scope: string;
  /** The client's token generation at issue time; revoking all of a client's tokens bumps it. */
  gen: number;
}

/** Issuer and audience are fixed names, so tokens stay valid whatever host the sandbox is reached by. */
export const ISSUER = 'parcel-sandbox';
export const AUDIENCE = 'parcel-sandbox-api';

/**
 * The signing key as node:crypto holds it, made once per key. Signing with it directly and
 * synchronously, instead of through jose's SignJWT (WebCrypto, a job on the thread pool and its
 * promises) costs 30 us of CPU where jose's sign costs 77-100 us; POST /access-token in-process
 * (createApp, CPU per request, least of 5 rounds of 2,000; two runs in turns on a loaded machine)
 * went from 388 and 395 us to 225 and 213 us. The token is the one jose made:
 * the same header and claims in the same order, ES256 as R || S (JWS), base64url.
 */
const signingKeys = new WeakMap<Keys['privateKey'], KeyObject>();

function signingKey(keys: Keys): KeyObject {
  let key = signingKeys.get(keys.privateKey);
  if (!key) signingKeys.set(keys.privateKey, (key = KeyObject.from(keys.privateKey)));
  return key;
}

const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** Signs an access token for `clientId` with the given scopes. */
export async function signToken(
  keys: Keys,
  clock: ClockView,
  config: Config,
  claims: { clientId: string; scopes: readonly string[]; jti: string; generation: number },
): Promise<{ token: string; expiresIn: number }> {
  const iat = clock.now();
  const header = base64url(JSON.stringify({ alg: TOKEN_ALG, kid: keys.kid, typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({
      scope: claims.scopes.join(' '),
      gen: claims.generation,
      iss: ISSUER,
      aud: AUDIENCE,
      sub: claims.clientId,
      jti: claims.jti,
      iat,
      exp: iat + config.tokenTtl,
    }),
  );
  const input = `${header}.${payload}`;
  const signature = signBytes('sha256', Buffer.from(input, 'ascii'), { key: signingKey(keys), dsaEncoding: 'ieee-p1363' });
  return { token: `${input}.${signature.toString('base64url')}`, expiresIn: config.tokenTtl };
}

/**
 * Verifies signature, algorithm, issuer, audience and expiry on `clock`. Any failure is a 14002
 * error; the detail says what was wrong without echoing the token.
 */
export async function verifyToken(keys: Keys, clock: ClockView, token: string): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, keys.publicKey, {
      algorithms: [TOKEN_ALG],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: new Date(clock.nowMs()),
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    });
    if (typeof payload.scope !== 'string') throw invalid('The access token has no scope claim.');
    return payload as unknown as TokenClaims;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw invalid(describe(error));
  }
}

function describe(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return EXPIRED;
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `The access token's ${error.claim} claim is not acceptable.`;
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'The access token is not signed with an accepted algorithm.';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'The access token signature could not be verified.';
  return 'The access token could not be verified.';
}

const EXPIRED = 'The access token has expired; request a new one.';

/** The refusal of a token whose `exp` has passed. */
export const expired = (): ApiError => invalid(EXPIRED);

export function invalid(detail: string): ApiError {
  return ApiError.of('invalidToken', detail, { source: { header: 'Authorization' } });
}

/** Verifies tokens, remembering the ones that passed so each signature is checked once. */
export interface TokenVerifier {
  verify(token: string): Promise<TokenClaims>;
  /**
   * The claims of a token already verified, without a promise: every request after a token's
   * first takes this path (authenticate 2.3 -> 2.1 us, npm run bench:attribution); `undefined`
   * when it was not verified yet. Throws as `verify` does when it has expired.
   */
  known(token: string): TokenClaims | undefined;
  /** Forgets the verified tokens of these clients (removed with their tenant). */
  forget(clientIds: ReadonlySet<string>): void;
}

/**
 * A verifier with a bounded cache of verified tokens, keyed by the whole token string (so a
 * tampered token never hits). Expiry is checked on every use against `clock`, which can move.
 * The app hands it the global clock: no tenant's clock is behind it, so a token expired on it
 * has expired for its tenant too; `authenticate` then checks expiry on the tenant's own clock.
 */
export function tokenVerifier(keys: Keys, clock: ClockView, capacity = 10_000): TokenVerifier {
  // Keyed by the signature: V8 hashes each request's fresh token string to look it up, over 86
  // characters instead of the whole token's ~420. An entry is used only when the whole token
  // matches, so a tampered token still never hits. GET /shipments/{id} in-process (createApp,
  // CPU per request, least of 5 rounds of 10,000, three runs in turns): 24.8, 26.0, 27.5 ->
  // 24.0, 24.3, 26.4 us.
  const verified = new Map<string, { token: string; claims: TokenClaims }>();
  const signatureOf = (token: string): string => token.slice(token.lastIndexOf('.') + 1);
  const known = (token: string): TokenClaims | undefined => {
    const key = signatureOf(token);
    const entry = verified.get(key);
    if (!entry || entry.token !== token) return undefined;
    if (entry.claims.exp <= clock.now()) {
      verified.delete(key);
      throw expired();
    }
    return entry.claims;
  };
  return {
    known,
    async verify(token) {
      const cached = known(token);
      if (cached) return cached;
      const claims = await verifyToken(keys, clock, token);
      if (verified.size >= capacity) verified.delete(verified.keys().next().value!);
      verified.set(signatureOf(token), { token, claims });
      return claims;
    },
    forget(clientIds) {
      for (const [key, entry] of verified) if (clientIds.has(entry.claims.sub)) verified.delete(key);
    },
  };
}
