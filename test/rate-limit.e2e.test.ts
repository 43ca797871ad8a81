import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getToken, runToExit, startServer, type RunningServer } from './support/server.js';

/*
 * The rate limit against a real server: a burst of concurrent requests well over the limit is
 * answered, each with 200 or 429, and the server stays up for everyone else.
 */

const LIMIT = 40;

describe('a burst over the rate limit, against a running server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ DATA_FILE: ':memory:', RATE_LIMIT: String(LIMIT) });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers every request with 200 or 429, lets exactly the limit through and keeps serving', async () => {
    const token = await getToken(server.url); // counts once in the organization's window
    const burst = await Promise.all(
      Array.from({ length: 300 }, () =>
        fetch(`${server.url}/shops`, { headers: { authorization: `Bearer ${token}` } }).then(async (response) => ({ response, text: await response.text() })),
      ),
    );
    const statuses = burst.map(({ response }) => response.status);
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT - 1);
    for (const { response, text } of burst) {
      expect(response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
      if (response.status !== 429) continue;
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(response.headers.get('ratelimit-remaining')).toBe('0');
      expect(JSON.parse(text).errors[0]).toMatchObject({ status: '429', code: '10011', title: 'Too many requests.' });
    }

    // The server is up: the health check is never limited, and another tenant is not limited by this one.
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    const other = await fetch(`${server.url}/access-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'other-client', client_secret: 'other-secret' }),
    });
    expect(other.status).toBe(200);
    const { access_token } = (await other.json()) as { access_token: string };
    const theirs = await fetch(`${server.url}/shops`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 2));
  });
});

describe('quota settings of the command line', () => {
  it('stops the start with one line naming the setting when a quota is zero, negative or not whole', async () => {
    for (const [env, value] of [
      ['QUOTA_SHIPMENTS', '0'],
      ['RATE_LIMIT', '-1'],
      ['QUOTA_FILES', '2.5'],
    ] as const) {
      const { code, output } = await runToExit({ DATA_FILE: ':memory:', [env]: value });
      expect(code, output).toBe(2);
      expect(output.trim().split('\n')).toHaveLength(1);
      expect(output).toContain(`${env} (--`);
      expect(output).toContain('whole number of at least 1');
    }
  });
});
