/**
 * A page of another origin (the docs site's try-it-out, an integrator's web app) reads only the
 * response headers CORS exposes. What a refusal says in its headers must be among them: the
 * challenge of a 401 (WWW-Authenticate), the methods a 405 allows (Allow), and with them the
 * rate-limit headers and Retry-After.
 */
import { describe, expect, it } from 'vitest';
import { testSandbox, type Answer } from './support/app.js';

/** The response headers a browser lets the page read: the safelisted ones and those exposed. */
function readable(answer: Answer): string[] {
  const exposed = (answer.headers.get('access-control-expose-headers') ?? '').split(',').map((name) => name.trim().toLowerCase());
  const safelisted = ['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma'];
  return [...answer.headers.keys()].filter((name) => safelisted.includes(name) || exposed.includes(name));
}

describe('refusals a page of another origin reads', () => {
  const origin = { origin: 'https://docs.example.com' };

  it('a 401 without a token: its challenge and rate-limit headers', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.request('GET', '/shipments', { headers: origin });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(readable(answer)).toEqual(expect.arrayContaining(['www-authenticate', 'ratelimit-remaining', 'content-type']));
  });

  it('a 403 for a missing scope: its challenge naming the scope', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token('limited-client');
    const answer = await sandbox.request('GET', '/hooks', { token, headers: origin });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    expect(readable(answer)).toContain('www-authenticate');
  });

  it('a 405: the methods the path takes', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.request('DELETE', '/carriers', { headers: origin });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
    expect(readable(answer)).toContain('allow');
  });

  it('the ETag of /openapi.json, which a page sends back as If-None-Match', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.request('GET', '/openapi.json', { headers: origin });
    expect([answer.status, answer.headers.get('etag')]).toEqual([200, expect.stringMatching(/^"/)]);
    expect(readable(answer)).toContain('etag');
  });
});
