import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW } from './support/app.js';

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
    const reset = await sandbox.request('POST', '/_sandbox/reset');
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ reset: 'sandbox', now: TEST_NOW });
    expect((await sandbox.get('/_sandbox/clock')).body.now).toBe(TEST_NOW);
    expect((await sandbox.get('/organizations', token)).body).toEqual(before.body);
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
    const body = async (sandbox: typeof first) => (await sandbox.get('/services?page[size]=100&include=carrier')).body;
    expect(await body(again)).toEqual(await body(first));
    const otherIds = (await body(other)).data.map((service: { id: string }) => service.id);
    const firstIds = (await body(first)).data.map((service: { id: string }) => service.id);
    expect(otherIds).not.toEqual(firstIds);
    const orgs = async (sandbox: typeof first) => (await sandbox.get('/organizations', await sandbox.token())).body.data[0].attributes;
    expect(await orgs(again)).toEqual(await orgs(first));
  });
});
