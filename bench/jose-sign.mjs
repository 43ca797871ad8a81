#!/usr/bin/env node
/**
 * The floor of POST /access-token: bare jose signing the same ES256 token the sandbox issues,
 * `concurrency` signatures in flight at once (as 10 connections keep 10 token requests in
 * flight), for `seconds` after a second of warm-up. Prints one JSON line: { signs_per_s, seconds }.
 *
 *   node bench/jose-sign.mjs <seconds> [concurrency]
 */
import { SignJWT, generateKeyPair } from 'jose';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 10);
const { privateKey } = await generateKeyPair('ES256');

const sign = (i) =>
  new SignJWT({ scope: '*', gen: 0 })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench', typ: 'JWT' })
    .setIssuer('parcel-sandbox')
    .setAudience('parcel-sandbox-api')
    .setSubject('sandbox-client')
    .setJti(`jti-${i}`)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);

/** Signs for `ms` with `concurrency` loops; returns the signatures made. */
async function loops(ms) {
  const until = performance.now() + ms;
  let count = 0;
  const loop = async () => {
    while (performance.now() < until) await sign(count++);
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return count;
}

await loops(1000);
const started = performance.now();
const count = await loops(seconds * 1000);
const elapsed = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ signs_per_s: Math.round(count / elapsed), seconds: Math.round(elapsed * 10) / 10 })}\n`);
