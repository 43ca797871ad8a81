/**
 * The sandbox controls take only the query parameters they declare: a misspelt one (`limitt`)
 * is a 400 naming it, as on the API's strict operations, never an answer as if it were not sent.
 */
import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../src/app.js';
import { firstError, testSandbox } from './support/app.js';

const controls = allEndpoints().filter((endpoint) => endpoint.path.startsWith('/_sandbox/'));

describe('the sandbox controls', () => {
  it('are all checked here', () => {
    expect(controls.map((endpoint) => `${endpoint.method} ${endpoint.path}`)).toEqual(
      expect.arrayContaining(['get /_sandbox/requests', 'get /_sandbox/clock', 'post /_sandbox/reset', 'get /_sandbox/fixtures', 'post /_sandbox/visitor']),
    );
  });

  it.each(controls.map((endpoint) => [`${endpoint.method.toUpperCase()} ${endpoint.path}`, endpoint] as const))(
    'refuse an undeclared query parameter: %s',
    async (_, endpoint) => {
      const sandbox = await testSandbox();
      const path = endpoint.path.replace(/\{[^}]+\}/g, 'sandbox-client');
      const answer = await sandbox.request(endpoint.method.toUpperCase(), `${path}?limitt=1`, {
        headers: { 'content-type': 'application/json', origin: 'http://sandbox.test' },
        ...(endpoint.method === 'post' ? { body: {} } : {}),
      });
      expect(answer.status, answer.text).toBe(400);
      expect(firstError(answer)).toMatchObject({ code: '10003', source: { parameter: 'limitt' } });
      expect(firstError(answer).detail).toContain("Unknown query parameter 'limitt'");
    },
  );

  it('name what they take in the refusal, and take it', async () => {
    const sandbox = await testSandbox();
    const typo = await sandbox.get('/_sandbox/requests?limitt=1');
    expect(firstError(typo).detail).toBe("Unknown query parameter 'limitt'. This endpoint takes: client_id, path, limit.");
    expect((await sandbox.get('/_sandbox/requests?client_id=sandbox-client&path=/shops&limit=1')).status).toBe(200);
    expect((await sandbox.get('/_sandbox/fixtures?client_id=sandbox-client')).status).toBe(200);
    const none = await sandbox.get('/_sandbox/clock?now=1');
    expect(none.status).toBe(400);
    expect(firstError(none).detail).toBe("Unknown query parameter 'now'. This endpoint takes no query parameters.");
  });

  it('refuse an empty client_id, as naming no client, rather than answer for every client', async () => {
    const sandbox = await testSandbox();
    for (const path of ['/_sandbox/requests', '/_sandbox/report', '/_sandbox/fixtures', '/_sandbox/quotas']) {
      const answer = await sandbox.get(`${path}?client_id=`);
      expect(answer.status, `${path}: ${answer.text}`).toBe(400);
      expect(firstError(answer)).toMatchObject({ code: '10003', source: { parameter: 'client_id' } });
    }
  });
});
