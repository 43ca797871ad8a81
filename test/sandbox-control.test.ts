import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW } from './support/app.js';
import { gatedReplace } from './support/gated.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

describe('the sandbox clock', () => {
  it('reads the current sandbox time', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.get('/_sandbox/clock');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ now: TEST_NOW, offset: 0 });
  });

  it('moves forward by advance or to now, and answers the new time', async () => {
    const sandbox = await testSandbox();
    const advanced = await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 3600 } });
    expect(advanced.body.now).toBe(TEST_NOW + 3600);
    const set = await sandbox.request('POST', '/_sandbox/clock', { body: { now: TEST_NOW + 7200 } });
    expect(set.body.now).toBe(TEST_NOW + 7200);
    expect((await sandbox.get('/_sandbox/clock')).body).toEqual({ now: TEST_NOW + 7200, offset: 7200 });
  });

  it('never moves backwards (422) and needs exactly one of advance or now (400)', async () => {
    const sandbox = await testSandbox();
    const back = await sandbox.request('POST', '/_sandbox/clock', { body: { now: TEST_NOW - 1 } });
    expect(back.status).toBe(422);
    expect(firstError(back)).toMatchObject({ code: '10008', source: { pointer: '/now' } });
    const negative = await sandbox.request('POST', '/_sandbox/clock', { body: { advance: -5 } });
    expect(negative.status).toBe(422);
    expect(firstError(negative)).toMatchObject({ source: { pointer: '/advance' } });
    expect((await sandbox.request('POST', '/_sandbox/clock', { body: {} })).status).toBe(400);
    expect((await sandbox.request('POST', '/_sandbox/clock', { body: { now: TEST_NOW + 5, advance: 5 } })).status).toBe(400);
  });

  it('stamps new tokens with the moved time', async () => {
    const sandbox = await testSandbox();
    await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 1000 } });
    const token = await sandbox.token();
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload.iat).toBe(TEST_NOW + 1000);
  });
});

describe('sandbox reset and health', () => {
  it('restores the seeded state and the real time, keeping tokens of default clients valid', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const before = await sandbox.get('/organizations', token);
    await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 500 } });
    const reset = await sandbox.request('POST', '/_sandbox/reset', { body: {} });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ reset: 'sandbox', now: TEST_NOW });
    expect((await sandbox.get('/_sandbox/clock')).body.now).toBe(TEST_NOW);
    expect((await sandbox.get('/organizations', token)).body).toEqual(before.body);
  });

  it('answers 503 with Retry-After, never a 500, to a write that waited for a reset, and writes nothing of it', async () => {
    const gated = gatedReplace();
    const sandbox = await testSandbox({ persistence: gated.persistence });
    const w = await world(sandbox);
    const made = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const patch = () =>
      sandbox.request('PATCH', `/shipments/${made.id}`, {
        token: w.token,
        body: { data: { type: 'shipments', id: made.id, attributes: { customer_reference: 'R-1' } } },
      });
    const reset = sandbox.request('POST', '/_sandbox/reset', { body: {} });
    await gated.reached();
    // It finds the shipment the reset is about to remove, and waits to write its change.
    const transact = sandbox.store.transact.bind(sandbox.store);
    const waiting = new Promise<void>((resolve) => {
      sandbox.store.transact = (work) => (resolve(), transact(work));
    });
    const changing = patch();
    await waiting;
    gated.release();
    expect((await reset).status).toBe(200);
    const answer = await changing;
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(firstError(answer)).toMatchObject({ code: '10001', detail: expect.stringContaining('reset while this request was running') });
    // Sent again, it works on the data of the reset, where the shipment is gone.
    expect((await patch()).status).toBe(404);
    expect(sandbox.store.get('shipments', made.id)).toBeUndefined();
  });

  it('refuses a token issued on the clock moved ahead once a reset has brought the clock back', async () => {
    const sandbox = await testSandbox();
    await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 30 * 86400 } });
    const ahead = await sandbox.token();
    expect((await sandbox.get('/shops', ahead)).status).toBe(200);
    await sandbox.request('POST', '/_sandbox/reset', { body: {} });
    const refused = await sandbox.get('/shops', ahead);
    expect(refused.status).toBe(401);
    expect(firstError(refused)).toMatchObject({ code: '14002', source: { header: 'Authorization' } });
    expect(firstError(refused).detail).toMatch(/issued at a later time than the sandbox clock/);
    expect((await sandbox.get('/shops', await sandbox.token())).status).toBe(200);
  });

  it('answers /health with 200', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.get('/health');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
  });

  it('guards the control API with the admin token when one is configured', async () => {
    const sandbox = await testSandbox({ config: { adminToken: 'let-me-in' } });
    const refused = await sandbox.get('/_sandbox/clock');
    expect(refused.status).toBe(401);
    expect((await sandbox.get('/_sandbox/clock', 'wrong')).status).toBe(401);
    expect((await sandbox.get('/_sandbox/clock', 'let-me-in')).status).toBe(200);
    expect((await sandbox.get('/health')).status).toBe(200);
  });
});

describe('determinism', () => {
  it('gives the same ids and contents for the same seed, and different ids for another seed', async () => {
    const first = await testSandbox({ seed: 7 });
    const again = await testSandbox({ seed: 7 });
    const other = await testSandbox({ seed: 8 });
    const body = async (sandbox: typeof first) => (await sandbox.read('/services?page[size]=100&include=carrier')).body;
    expect(await body(again)).toEqual(await body(first));
    const otherIds = (await body(other)).data.map((service: { id: string }) => service.id);
    const firstIds = (await body(first)).data.map((service: { id: string }) => service.id);
    expect(otherIds).not.toEqual(firstIds);
    const orgs = async (sandbox: typeof first) => (await sandbox.get('/organizations', await sandbox.token())).body.data[0].attributes;
    expect(await orgs(again)).toEqual(await orgs(first));
  });
});

describe('revoking tokens', () => {
  const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());

  it('revokes one token by its jti; other and new tokens keep working', async () => {
    const sandbox = await testSandbox();
    const [first, second] = [await sandbox.token(), await sandbox.token()];
    const answer = await sandbox.request('POST', '/_sandbox/revoke', { body: { token: first } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ revoked: 'token', client_id: 'sandbox-client', jti: claims(first).jti, expires_at: claims(first).exp });
    const refused = await sandbox.get('/shops', first);
    expect(refused.status).toBe(401);
    expect(firstError(refused)).toMatchObject({ code: '14002', detail: expect.stringContaining('revoked') });
    expect((await sandbox.get('/shops', second)).status).toBe(200);
    expect((await sandbox.get('/shops', await sandbox.token())).status).toBe(200);
    // Revoking again is harmless.
    expect((await sandbox.request('POST', '/_sandbox/revoke', { body: { token: first } })).status).toBe(200);
  });

  it("revokes every token of a client so far by client_id; other clients' and new tokens work", async () => {
    const sandbox = await testSandbox();
    const [first, second, other] = [await sandbox.token(), await sandbox.token(), await sandbox.token('other-client')];
    const answer = await sandbox.request('POST', '/_sandbox/revoke', { body: { client_id: 'sandbox-client' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ revoked: 'client', client_id: 'sandbox-client', token_generation: 1 });
    for (const token of [first, second]) {
      const refused = await sandbox.get('/shops', token);
      expect(refused.status).toBe(401);
      expect(firstError(refused)).toMatchObject({ code: '14002', detail: expect.stringContaining('revoked') });
    }
    expect((await sandbox.get('/shops', other)).status).toBe(200);
    expect((await sandbox.get('/shops', await sandbox.token())).status).toBe(200);
  });

  it('needs exactly one of token or client_id (400); a token it cannot read is 422, an unknown client 404', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    expect((await sandbox.request('POST', '/_sandbox/revoke', { body: {} })).status).toBe(400);
    expect((await sandbox.request('POST', '/_sandbox/revoke', { body: '', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await sandbox.request('POST', '/_sandbox/revoke', { body: { token, client_id: 'sandbox-client' } })).status).toBe(400);
    expect((await sandbox.request('POST', '/_sandbox/revoke', { body: { jti: 'x' } })).status).toBe(400);
    for (const bad of ['not-a-token', `${token.slice(0, -4)}AAAA`, 'eyJhbGciOiJub25lIn0.eyJqdGkiOiJ4In0.']) {
      const answer = await sandbox.request('POST', '/_sandbox/revoke', { body: { token: bad } });
      expect(answer.status).toBe(422);
      expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/token' } });
    }
    const unknown = await sandbox.request('POST', '/_sandbox/revoke', { body: { client_id: 'nobody' } });
    expect(unknown.status).toBe(404);
    expect(firstError(unknown)).toMatchObject({ code: '10002', source: { pointer: '/client_id' } });
    expect((await sandbox.get('/shops', token)).status).toBe(200);
  });

  it('keeps a revoked entry past its expiry on the moved clock, which a reset brings back to real time', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    await sandbox.request('POST', '/_sandbox/revoke', { body: { token } });
    expect(sandbox.store.get('revokedTokens', claims(token).jti)).toEqual({ id: claims(token).jti, expires_at: claims(token).exp });
    await sandbox.advance(sandbox.config.tokenTtl);
    expect(firstError(await sandbox.get('/shops', token)).detail).toContain('expired');
    expect(sandbox.store.count('revokedTokens')).toBe(1);
    await sandbox.request('POST', '/_sandbox/reset', { body: {} });
    expect(firstError(await sandbox.get('/shops', token)).detail).toContain('revoked');
  });

  it('keeps revocations through a full reset', async () => {
    const sandbox = await testSandbox();
    const [one, all] = [await sandbox.token(), await sandbox.token('other-client')];
    const kept = await sandbox.token('limited-client');
    await sandbox.request('POST', '/_sandbox/revoke', { body: { token: one } });
    await sandbox.request('POST', '/_sandbox/revoke', { body: { client_id: 'other-client' } });
    await sandbox.request('POST', '/_sandbox/reset', { body: {} });
    expect((await sandbox.get('/shops', one)).status).toBe(401);
    expect((await sandbox.get('/shops', all)).status).toBe(401);
    expect((await sandbox.get('/shipments', kept)).status).toBe(200);
    expect((await sandbox.get('/shops', await sandbox.token('other-client'))).status).toBe(200);
  });

  it('needs the admin token when one is configured', async () => {
    const sandbox = await testSandbox({ config: { adminToken: 'let-me-in' } });
    const token = await sandbox.token();
    expect((await sandbox.request('POST', '/_sandbox/revoke', { body: { token } })).status).toBe(401);
    expect((await sandbox.request('POST', '/_sandbox/revoke', { body: { token }, token: 'wrong' })).status).toBe(401);
    expect((await sandbox.get('/shops', token)).status).toBe(200);
    expect((await sandbox.request('POST', '/_sandbox/revoke', { body: { token }, token: 'let-me-in' })).status).toBe(200);
    expect((await sandbox.get('/shops', token)).status).toBe(401);
    expect((await sandbox.request('POST', '/_sandbox/reset', { token: 'wrong' })).status).toBe(401);
  });
});

describe('answers read in a terminal', () => {
  it('end with a newline on every sandbox control, refusals included, so curl leaves the prompt on a line of its own', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const answers = [
      await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 60 } }),
      await sandbox.get('/_sandbox/clock'),
      await sandbox.get('/_sandbox/requests?limit=1'),
      await sandbox.get('/_sandbox/quotas', token),
      await sandbox.request('POST', '/_sandbox/clock', { body: { now: TEST_NOW - 1 } }),
      await sandbox.request('POST', '/_sandbox/clock', { body: '{"advance": ' }),
      await sandbox.get('/_sandbox/nothing-here'),
      await sandbox.request('DELETE', '/_sandbox/clock'),
      // A page's preflight, refused before any route is looked at.
      await sandbox.request('OPTIONS', '/_sandbox/clock', {
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 422, 400, 404, 405, 403]);
    for (const answer of answers) {
      expect(answer.text.endsWith('}\n'), answer.text).toBe(true);
      expect(answer.text.slice(0, -1)).not.toContain('\n');
    }
  });

  it('leave the emulated API as it was: no newline after its documents', async () => {
    const sandbox = await testSandbox();
    expect((await sandbox.get('/carriers')).text.endsWith('}')).toBe(true);
    expect((await sandbox.get('/carriers?page[numbr]=1')).text.endsWith('}')).toBe(true);
  });
});
