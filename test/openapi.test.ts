import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../src/app.js';
import { scopes } from '../src/model/tenancy.js';
import { buildOpenApi } from '../src/openapi/build.js';
import { COMMITTED_SERVER_URL } from '../src/openapi/committed.js';
import { VERSION } from '../src/version.js';
import { BASE, testSandbox } from './support/app.js';

const committed = JSON.parse(readFileSync(new URL('../openapi/openapi.json', import.meta.url), 'utf8'));

describe('the OpenAPI document', () => {
  it('is served at /openapi.json and is a valid OpenAPI 3.1 document', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.get('/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    expect(answer.body.servers[0].url).toBe(BASE);
    const result = await new Validator().validate(answer.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes OAuth2 client credentials with the token URL of the server', async () => {
    const sandbox = await testSandbox();
    const { components } = (await sandbox.get('/openapi.json')).body;
    expect(components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl).toBe(`${BASE}/access-token`);
    expect(Object.keys(components.securitySchemes.OAuth2.flows.clientCredentials.scopes).sort()).toEqual([...scopes].sort());
  });

  it("documents the token endpoint's refusals under their own statuses, not only as the default answer", async () => {
    const sandbox = await testSandbox();
    const { responses } = (await sandbox.get('/openapi.json')).body.paths['/access-token'].post;
    const credentials = { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' };
    const wrongSecret = await sandbox.request('POST', '/access-token', { body: { ...credentials, client_secret: 'wrong' } });
    const unknownScope = await sandbox.request('POST', '/access-token', { body: { ...credentials, scope: 'no.such.scope' } });
    const refusals = [wrongSecret, unknownScope].map((answer) => ({ status: answer.status, code: answer.body.errors[0].code }));
    expect(refusals).toEqual([
      { status: 401, code: '14000' },
      { status: 400, code: '14001' },
    ]);
    for (const { status, code } of refusals) expect(responses[String(status)]?.description ?? 'not documented', `${status}`).toContain(`(${code})`);
  });

  it('documents every query parameter as one value a generated client sends as given: include is comma separated text, as production has it', async () => {
    const sandbox = await testSandbox();
    const document = (await sandbox.get('/openapi.json')).body;
    type Parameter = { name: string; in: string; schema: { type?: string; pattern?: string } };
    const operations = Object.values(document.paths as Record<string, Record<string, { operationId: string; parameters?: Parameter[] }>>).flatMap((item) =>
      Object.values(item),
    );
    // A list parameter is sent as repeated keys (openapi-fetch) or as include[]=... (axios) whatever its style: the sandbox refuses both.
    const lists = operations.flatMap((operation) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'query' && parameter.schema.type === 'array')
        .map((parameter) => `${operation.operationId} ${parameter.name}`),
    );
    expect(lists).toEqual([]);

    // Its pattern takes what the sandbox takes, and refuses a path it refuses.
    const include = document.paths['/shipments'].get.parameters.find((parameter: Parameter) => parameter.name === 'include');
    const pattern = new RegExp(include.schema.pattern);
    const token = await sandbox.token();
    for (const value of ['files,shipment_status.status', ' service , shop.organization', 'files,nope']) {
      const answer = await sandbox.get(`/shipments?include=${encodeURIComponent(value)}`, token);
      expect([value, pattern.test(value)]).toEqual([value, answer.status === 200]);
    }
    // An endpoint that takes no path documents no include.
    expect(document.paths['/hooks/{hook_id}'].get.parameters.map((parameter: Parameter) => parameter.name)).toEqual(['hook_id']);
  });

  it('lists 400 on every operation, as every endpoint refuses a filter, sort or include it does not take', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const document = (await sandbox.get('/openapi.json')).body;
    const refused = await Promise.all(
      ['/carriers?include=services', '/health?sort=status', '/.well-known/jwks.json?filter[kid]=x'].map((url) => sandbox.get(url, token)),
    );
    expect(refused.map((answer) => [answer.status, answer.body.errors[0].code])).toEqual([
      [400, '10003'],
      [400, '10003'],
      [400, '10003'],
    ]);
    const without = Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => !operation.responses['400'])
        .map(([method]) => `${method} ${path}`),
    );
    expect(without).toEqual([]);
  });

  it('requires grant_type in a token request, as the token endpoint does', async () => {
    const sandbox = await testSandbox();
    const { components } = (await sandbox.get('/openapi.json')).body;
    const answer = await sandbox.request('POST', '/access-token', { body: { client_id: 'sandbox-client', client_secret: 'sandbox-secret' } });
    expect([answer.status, answer.body.errors[0].source]).toEqual([400, { pointer: '/grant_type' }]);
    expect(components.schemas.AccessTokenRequest.required).toEqual(['grant_type']);
  });

  it('has a schema for every resource type the sandbox serves', () => {
    for (const name of ['Carrier', 'Service', 'ServiceOption', 'Region', 'Status', 'Organization', 'Broker', 'ErrorDocument']) {
      expect(committed.components.schemas, name).toHaveProperty(name);
    }
  });

  it('is committed and up to date (run `npm run openapi` after changing endpoints)', () => {
    const fresh = JSON.parse(JSON.stringify(buildOpenApi(allEndpoints(), COMMITTED_SERVER_URL)));
    expect(committed).toEqual(fresh);
  });

  it('documents every route the app serves, and nothing it does not', async () => {
    const sandbox = await testSandbox();
    const routes = new Set(
      sandbox.app.routes
        .filter((route) => route.method !== 'ALL')
        // A fixed segment routed as a parameter (src/http/route-paths.ts) is named after its text.
        .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:fixed=([^/]+)/g, '$1').replace(/:([^/]+)/g, '{$1}')}`),
    );
    const documented = new Set(
      Object.entries(committed.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method} ${path}`),
      ),
    );
    expect([...routes].sort()).toEqual([...documented].sort());
  });

  it('lists 503 with Retry-After on every operation that changes data, and on no read', () => {
    const fresh = buildOpenApi(allEndpoints(), COMMITTED_SERVER_URL);
    for (const [path, item] of Object.entries(fresh.paths ?? {})) {
      for (const [method, operation] of Object.entries(item as Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>)) {
        const refused = operation.responses['503'];
        if (method === 'get') expect(refused, `${method} ${path}`).toBeUndefined();
        else expect(Object.keys(refused?.headers ?? {}), `${method} ${path}`).toContain('Retry-After');
      }
    }
  });

  it("shows request examples a generator accepts: every parameter's and body's example validates against its schema, its objects closed as generated types are", async () => {
    const sandbox = await testSandbox();
    const document = (await sandbox.get('/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // openapi-typescript gives an object that names its members no index signature: a member the
    // schema does not name is a type error in a client that copies the example.
    const closed = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(closed);
      if (node === null || typeof node !== 'object') return node;
      const copy: Record<string, unknown> = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closed(value)]));
      if (copy.type === 'object' && copy.properties && !('additionalProperties' in copy)) copy.additionalProperties = false;
      return copy;
    };
    ajv.addSchema({ $id: 'document.json', components: closed(document.components) }, 'document.json');
    const problems: string[] = [];
    let count = 0;
    const check = (where: string, schema: unknown, example: unknown) => {
      count += 1;
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"document.json#/components/')));
      if (!validate(example)) problems.push(`${where}: ${JSON.stringify(example)} ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    };
    type Parameter = { name: string; schema: unknown; example?: unknown };
    type Operation = { operationId: string; parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> } };
    for (const item of Object.values(document.paths as Record<string, Record<string, Operation>>)) {
      for (const operation of Object.values(item)) {
        for (const parameter of operation.parameters ?? []) {
          if ('example' in parameter) check(`${operation.operationId} ${parameter.name}`, parameter.schema, parameter.example);
        }
        for (const [type, content] of Object.entries(operation.requestBody?.content ?? {})) {
          if ('example' in content) check(`${operation.operationId} ${type}`, content.schema, content.example);
        }
      }
    }
    expect(count).toBeGreaterThan(300);
    expect(problems).toEqual([]);
  });

  it('carries the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(VERSION).toBe(pkg.version);
    expect(committed.info.version).toBe(pkg.version);
  });
});
