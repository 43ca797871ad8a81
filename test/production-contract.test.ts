import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../src/app.js';
import type { Endpoint } from '../src/http/endpoint.js';
import { buildOpenApi } from '../src/openapi/build.js';
import { includeOf, productionOperations, resourceEntry, type ContractOperation } from './support/contract/production-schema.js';

/**
 * The sandbox's own document against production's published contract, operation by operation:
 * for every operation both serve, the parameters production accepts, its include paths, its
 * success statuses, the members it requires and allows in responses, and the attributes it
 * accepts in requests. (test/support/contract/response-check.ts checks the answers themselves.)
 */

type Schema = Record<string, any>;
const document = JSON.parse(JSON.stringify(buildOpenApi(allEndpoints(), 'http://sandbox.test')));
const schemas = document.components.schemas as Record<string, Schema>;

/** Follows `$ref`s (and a single-branch `allOf`) to the schema they name. */
function deref(schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let guard = 0; guard < 20; guard++) {
    if (current.$ref) current = schemas[String(current.$ref).split('/').pop()!]!;
    else if (current.allOf?.length === 1) current = current.allOf[0];
    else if (current.anyOf?.length === 2 && current.anyOf.some((s: Schema) => s.type === 'null'))
      current = current.anyOf.find((s: Schema) => s.type !== 'null');
    else break;
  }
  return current;
}

// Production writes one path with its query (`...{payment_id}?hmac={hmac}`): the path alone names the operation.
const normalize = (path: string) => path.replace(/\?.*$/, '').replace(/\{[^}]+\}/g, '{}');
const production = new Map(productionOperations().map((operation) => [`${operation.method} ${normalize(operation.path)}`, operation]));

/** Sandbox endpoints that production also has, each with production's operation. */
const served: [string, Endpoint, ContractOperation][] = allEndpoints()
  .filter((endpoint) => !endpoint.internal)
  .flatMap((endpoint) => {
    const operation = production.get(`${endpoint.method.toUpperCase()} ${normalize(endpoint.path)}`);
    return operation ? [[operation.key, endpoint, operation] as [string, Endpoint, ContractOperation]] : [];
  });

/**
 * Include paths production answers but does not document, each with the client that asks for it
 * (so the sandbox must not refuse it).
 */
const undocumentedIncludes: Record<string, string[]> = {
  // MyParcelCOM/api-sdk-php createAndRegisterMultiColliShipment: `include=colli,colli.files`.
  'POST /multi-colli-shipments': ['colli.files'],
};

/** The resource schema of a sandbox response document (`data` of one or of a list). */
function sandboxResource(endpoint: Endpoint, status: string): Schema | undefined {
  const response = document.paths[endpoint.path][endpoint.method].responses[status];
  const content = Object.values(response?.content ?? {})[0] as { schema: Schema } | undefined;
  const data = deref(deref(content?.schema).properties?.data);
  return data.type === 'array' ? deref(data.items) : data.properties?.attributes ? data : undefined;
}

describe("the sandbox's document against production's contract", () => {
  it('covers a good share of the operations production has (the rest are listed in the README)', () => {
    expect(served.length).toBeGreaterThanOrEqual(50);
  });

  it.each(served.map(([key, endpoint, operation]) => [key, endpoint, operation] as const))(
    '%s accepts every query parameter production documents',
    (_key, endpoint, operation) => {
      const declared = new Set(Object.keys(endpoint.query?.shape ?? {}));
      const missing = Object.keys(operation.query).filter((name) => name !== 'include' && !declared.has(name));
      expect(missing).toEqual([]);
    },
  );

  it.each(served.map(([key, endpoint, operation]) => [key, endpoint, operation] as const))(
    "%s offers exactly production's include paths (a write answering a resource: those of the GET of its type)",
    (key, endpoint) => {
      const documented = [...(includeOf(key)?.paths ?? []), ...(undocumentedIncludes[key] ?? [])];
      expect([...(endpoint.include ?? [])].sort()).toEqual([...documented].sort());
    },
  );

  it.each(served.map(([key, endpoint, operation]) => [key, endpoint, operation] as const))(
    "%s answers with production's success status",
    (_key, endpoint, operation) => {
      const success = (statuses: string[]) => statuses.filter((status) => status.startsWith('2')).sort();
      expect(success(Object.keys(endpoint.responses))).toEqual(success(Object.keys(operation.responses)));
    },
  );

  const documents = served.flatMap(([key, endpoint, operation]) =>
    Object.entries(operation.responses).flatMap(([status, response]) => {
      const doc = Object.values(response.content ?? {})[0] as Record<string, any> | undefined;
      return doc?.data === 'one' || doc?.data === 'list' ? [[`${key} ${status}`, endpoint, status, doc] as const] : [];
    }),
  );

  it.each(documents)('%s: the resource schema requires and allows what production does', (_key, endpoint, status, doc) => {
    const resource = sandboxResource(endpoint, status);
    expect(resource, 'the sandbox documents a resource here').toBeDefined();
    const entry = resourceEntry(doc.type, doc.variant);
    const attributes = deref(resource!.properties.attributes);
    const names = new Set(Object.keys(attributes.properties ?? {}));
    const required = new Set(attributes.required ?? []);
    const productionRequired = Object.entries(entry.attributes ?? {})
      .filter(([, node]: [string, any]) => node.required)
      .map(([name]) => name);
    expect(
      productionRequired.filter((name) => !required.has(name)),
      'attributes production requires',
    ).toEqual([]);
    if (entry.attributes_closed) {
      expect(
        [...names].filter((name) => !(name in entry.attributes)),
        "attributes outside production's closed set",
      ).toEqual([]);
    }
    const relationships = deref(resource!.properties.relationships);
    const relationshipNames = Object.keys(relationships.properties ?? {});
    expect(
      relationshipNames.filter((name) => !(name in (entry.relationships ?? {}))),
      'relationships production does not have',
    ).toEqual([]);
    const requiredRelationships = Object.entries(entry.relationships ?? {})
      .filter(([, rel]: [string, any]) => rel.required)
      .map(([name]) => name);
    expect(
      requiredRelationships.filter((name) => !(relationships.required ?? []).includes(name)),
      'relationships production requires',
    ).toEqual([]);
  });

  const requests = served.flatMap(([key, endpoint, operation]) => {
    const doc = Object.values(operation.request?.content ?? {})[0] as Record<string, any> | undefined;
    return doc?.data === 'one' && endpoint.body ? [[key, endpoint, doc] as const] : [];
  });

  it.each(requests)('%s accepts every attribute production accepts in the request', (_key, endpoint, doc) => {
    const body = deref(document.paths[endpoint.path][endpoint.method].requestBody.content['application/vnd.api+json'].schema);
    const attributes = deref(deref(body.properties.data).properties.attributes);
    const accepted = new Set(Object.keys(attributes.properties ?? {}));
    const entry = resourceEntry(doc.type);
    const productionNames = [...Object.keys(entry.attributes ?? {}), ...Object.keys(doc.attributes_not_in_response ?? {})];
    const open = attributes.additionalProperties !== false;
    if (!open) expect(productionNames.filter((name) => !accepted.has(name))).toEqual([]);
  });

  // An update production takes as type, id and the attributes to change must not be refused here
  // for leaving out relationships (PATCH /shops and seven others once were).
  it.each(requests.filter(([, , doc]) => Array.isArray(doc.data_required)))(
    "%s requires no member of data that production's request leaves optional",
    (_key, endpoint, doc) => {
      const body = deref(document.paths[endpoint.path][endpoint.method].requestBody.content['application/vnd.api+json'].schema);
      const required: string[] = deref(body.properties.data).required ?? [];
      expect(required.filter((name) => !doc.data_required.includes(name))).toEqual([]);
    },
  );
});
