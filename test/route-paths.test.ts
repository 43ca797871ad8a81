import { RegExpRouter } from 'hono/router/reg-exp-router';
import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../src/app.js';
import { routePaths } from '../src/http/route-paths.js';
import { firstError, testSandbox } from './support/app.js';

/** Production's paths put a fixed segment beside a parameter; they are routed on hono's fastest router and answer as declared. */

describe('routing', () => {
  it("fits every route on hono's RegExpRouter (a route it refused would send every request to a slower router)", () => {
    const endpoints = allEndpoints();
    const routes = routePaths(endpoints);
    const router = new RegExpRouter<number>();
    for (const endpoint of endpoints) router.add(endpoint.method.toUpperCase(), routes.get(endpoint)!.path, 1);
    expect(() => router.match('GET', '/contracts/v1/templates')).not.toThrow();
  });

  it('answers a fixed segment beside a parameter as declared, and any other text in its place as nothing served', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const templates = await sandbox.get('/contracts/v1/templates', token);
    expect(templates.status, templates.text).toBe(200);
    const id = templates.body.data[0].id as string;
    expect((await sandbox.get(`/contracts/v1/templates/${id}`, token)).body.data.id).toBe(id);
    // The same place read as a contract id is a contract that does not exist.
    expect((await sandbox.get('/contracts/v1', token)).status).toBe(404);
    const elsewhere = await sandbox.get(`/contracts/v2/templates/${id}`, token);
    expect(elsewhere.status).toBe(404);
    expect(firstError(elsewhere).detail).toBe(`Nothing is served at /contracts/v2/templates/${id}. GET /openapi.json lists every endpoint.`);
    // 405 names the methods of the declared path only.
    const patched = await sandbox.request('PATCH', `/contracts/v1/templates/${id}`, { token, body: {} });
    expect(patched.status).toBe(405);
    expect(patched.headers.get('allow')).toBe('GET, HEAD, DELETE');
    expect((await sandbox.request('PATCH', `/contracts/v2/templates/${id}`, { token, body: {} })).status).toBe(404);
    expect((await sandbox.get('/return-portal/checkin/some-token')).status).toBe(404);
  });

  it("tells a path that names a resource type in the singular, as the documentation's GET /services/{id} example URL does, the plural one", async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const service = (await sandbox.get('/services?page[size]=1', token)).body.data[0].id as string;
    const singular = await sandbox.get(`/service/${service}`, token);
    expect(singular.status).toBe(404);
    // It said only that nothing is served there.
    expect(firstError(singular)).toMatchObject({
      code: '10000',
      detail: `Nothing is served at /service/${service}. Resource paths are plural: /services/${service}. GET /openapi.json lists every endpoint.`,
    });
    expect(firstError(await sandbox.get('/nowhere', token)).detail).toBe('Nothing is served at /nowhere. GET /openapi.json lists every endpoint.');
  });

  it('tells a path with a double slash, as a base URL ending in a slash joined to a path makes, the path with one', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    for (const [path, meant] of [
      ['//shipments', '/shipments'],
      ['/shipments//', '/shipments/'],
      ['//v1//carriers', '/v1/carriers'],
    ] as const) {
      const answer = await sandbox.get(path, token);
      expect(answer.status, path).toBe(404);
      expect(firstError(answer).detail, path).toBe(
        `Nothing is served at ${path}. The path has an empty segment (//): join the base URL and the path with one slash, ${meant}. GET /openapi.json lists every endpoint.`,
      );
    }
  });

  it("tells the documentation's /v1/carriers/{id}/pickup-dropoff-locations example URL the path without /v1", async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const carrier = (await sandbox.get('/carriers?page[size]=1', token)).body.data[0].id as string;
    const locations = `/carriers/${carrier}/pickup-dropoff-locations/GB/NW1%206XE`;
    expect((await sandbox.get(`${locations}?street=Baker%20street&street_number=221B`, token)).status).toBe(200);
    const prefixed = await sandbox.get(`/v1${locations}?street=Baker%20street&street_number=221B`, token);
    expect(prefixed.status).toBe(404);
    // It said only that nothing is served there.
    expect(firstError(prefixed).detail).toBe(
      `Nothing is served at /v1${locations}. This path has no /v1 prefix: ${locations}. GET /openapi.json lists every endpoint.`,
    );
    // A /v1 path that is served as such (production's contract templates) is not touched.
    expect((await sandbox.get('/contracts/v1/templates', token)).status).toBe(200);
  });
});
