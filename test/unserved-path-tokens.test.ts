/**
 * A path no endpoint serves (404, or 405 for another method) is answered before any rate limit
 * counts it, and its token is looked at only to count the request for its tenant. A flood of
 * made-up tokens to such paths must not cost a signature check each: only a token verified
 * before names a tenant there. Signature checks are counted, never timed.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testSandbox } from './support/app.js';

afterEach(() => vi.restoreAllMocks());

describe('tokens sent to a path no endpoint serves', () => {
  it('are not verified when never seen before: fifty forged tokens cost no signature check, and each answer is the 404 or 405', async () => {
    const sandbox = await testSandbox();
    const valid = await sandbox.token();
    const attacker = await generateKeyPair('ES256');
    const forged = await Promise.all(
      Array.from({ length: 50 }, () =>
        new SignJWT({ ...decodeJwt(valid), jti: randomUUID() }).setProtectedHeader({ alg: 'ES256', typ: 'JWT' }).sign(attacker.privateKey),
      ),
    );
    const verify = vi.spyOn(sandbox.services.tokens, 'verify');
    for (const [index, token] of forged.entries()) {
      const answer = await sandbox.request(index % 2 === 0 ? 'GET' : 'DELETE', index % 2 === 0 ? '/nowhere' : '/carriers', { token });
      expect(answer.status).toBe(index % 2 === 0 ? 404 : 405);
    }
    expect(verify).not.toHaveBeenCalled();
  });

  it('count for the tenant of a token verified before, as the request log shows', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    expect((await sandbox.get('/shipments', token)).status).toBe(200);
    expect((await sandbox.get('/nowhere', token)).status).toBe(404);
    const log = await sandbox.request('GET', '/_sandbox/requests', { token });
    const entry = log.body.data.find((row: { path: string }) => row.path === '/nowhere');
    expect(entry.client_id).toBe('sandbox-client');
  });
});
