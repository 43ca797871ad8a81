import { describe, expect, it } from 'vitest';
import { allEndpoints } from '../src/app.js';
import { buildOpenApi } from '../src/openapi/build.js';
import { testSandbox } from './support/app.js';
import { servedOperation } from '../src/http/served-operations.js';
import { productionOperations, resolveShape, resourceEntry } from './support/contract/production-schema.js';

/*
 * Clients generated from the served document are pointed at production afterwards, and some check
 * every answer against it. Wherever production's contract lets a resource's attribute (or a member
 * in it) be null or left out, the document's resource schema must let it too, or such a client
 * refuses production's answers. The request schemas stay as strict as the sandbox is.
 */

type Schema = Record<string, any>;

const served = async (): Promise<Schema> => {
  const sandbox = await testSandbox();
  const answer = await sandbox.get('/openapi.json');
  expect(answer.status).toBe(200);
  return answer.body as Schema;
};

/** Follows `$ref`s and enters a union of one value and null. */
function valueOf(schemas: Record<string, Schema>, schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let guard = 0; current && guard < 20; guard++) {
    if (current.$ref) current = schemas[String(current.$ref).split('/').pop()!];
    else if (Array.isArray(current.anyOf) && current.anyOf.filter((alt: Schema) => alt.type !== 'null').length === 1 && !current.properties)
      current = current.anyOf.find((alt: Schema) => alt.type !== 'null');
    else break;
  }
  return current;
}

function takesNull(schemas: Record<string, Schema>, schema: Schema | undefined): boolean {
  if (!schema) return false;
  if (schema.$ref) return takesNull(schemas, schemas[String(schema.$ref).split('/').pop()!]);
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((alt: Schema) => takesNull(schemas, alt));
}

/** The production resource type a component describes (its `type` member's one value), when it has attributes. */
function resourceType(schema: Schema): string | undefined {
  const type = schema.properties?.type;
  if (!schema.properties?.attributes || !type) return undefined;
  return type.const ?? (type.enum?.length === 1 ? type.enum[0] : undefined);
}

/**
 * Where the document is stricter than production's contract below `at`: members production lets
 * be null the document does not, members production does not require the document does.
 */
function stricter(schemas: Record<string, Schema>, production: Schema, document: Schema | undefined, at: string, checked: { count: number }): string[] {
  const node = resolveShape(production);
  const schema = valueOf(schemas, document);
  if (!schema) return [];
  const out: string[] = [];
  for (const [name, value] of Object.entries((node.members ?? {}) as Record<string, Schema>)) {
    const member = schema.properties?.[name] as Schema | undefined;
    if (!value || !member) continue;
    const resolved = resolveShape(value);
    checked.count += 1;
    if ([resolved.type].flat().includes('null') && !takesNull(schemas, member)) out.push(`${at}/${name} is never null`);
    if (resolved.required !== true && (schema.required ?? []).includes(name)) out.push(`${at}/${name} is always present`);
    out.push(...stricter(schemas, resolved, member, `${at}/${name}`, checked));
  }
  if (node.items && schema.items) out.push(...stricter(schemas, node.items, schema.items, `${at}/[]`, checked));
  return out;
}

describe("the served document's resource schemas", () => {
  it("let every attribute be null or absent where production's contract lets it", async () => {
    const document = await served();
    const schemas = document.components.schemas as Record<string, Schema>;
    const checked = { count: 0 };
    const found: string[] = [];
    const resources: string[] = [];
    for (const [id, schema] of Object.entries(schemas)) {
      const type = resourceType(schema);
      let entry: Schema;
      try {
        entry = type ? resourceEntry(type) : {};
      } catch {
        continue;
      }
      if (!entry.attributes) continue;
      resources.push(id);
      found.push(...stricter(schemas, { type: 'object', members: entry.attributes }, schema.properties.attributes, `${id}.attributes`, checked));
    }
    // The resources the audit named are among those read.
    expect(resources).toEqual(expect.arrayContaining(['Shipment', 'Shop', 'HookLog', 'Service', 'Organization', 'Zone']));
    expect(checked.count).toBeGreaterThan(400);
    expect(found).toEqual([]);
  });

  it("let them be so in each answer where production answers with a variant of the type's schema (a list of returns without return_address)", async () => {
    const document = await served();
    const schemas = document.components.schemas as Record<string, Schema>;
    const production = new Map(productionOperations().map((operation) => [operation.key, operation]));
    const found: string[] = [];
    const variants: string[] = [];
    for (const endpoint of allEndpoints()) {
      const operation = endpoint.internal ? undefined : production.get(servedOperation(endpoint).operation);
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        const doc = Object.values(response.content ?? {})[0] as Schema | undefined;
        if (!doc?.variant || (doc.data !== 'one' && doc.data !== 'list')) continue;
        const answer = Object.values(document.paths[endpoint.path]?.[endpoint.method]?.responses?.[status]?.content ?? {})[0] as Schema | undefined;
        const data = valueOf(schemas, valueOf(schemas, answer?.schema)?.properties?.data);
        const resource = valueOf(schemas, data?.type === 'array' ? data.items : data);
        if (!resource?.properties?.attributes) continue;
        variants.push(`${operation!.key} ${status}`);
        const entry = resourceEntry(doc.type, doc.variant);
        found.push(
          ...stricter(schemas, { type: 'object', members: entry.attributes }, resource.properties.attributes, `${operation!.key} ${status}`, { count: 0 }),
        );
      }
    }
    expect(variants).toEqual(expect.arrayContaining(['GET /returns/v1/returns 200', 'POST /get-dynamic-service-rates 200']));
    // A variant that lets nothing more be null or absent (GET /service-rates' only adds a meta) keeps the named resource for generated clients.
    expect(schemas.ServiceRateList!.properties.data.items).toEqual({ $ref: '#/components/schemas/ServiceRate' });
    expect(found).toEqual([]);
  });

  it("let every relationship, and its data, be null or absent where production's contract lets it (in the answers of a variant, as it does)", async () => {
    const document = await served();
    const schemas = document.components.schemas as Record<string, Schema>;
    // The variants of production's answers whose data is each resource component, in the answers both serve.
    const production = new Map(productionOperations().map((operation) => [operation.key, operation]));
    const variantsOf = new Map<string, (number | undefined)[]>();
    for (const endpoint of allEndpoints()) {
      const operation = endpoint.internal ? undefined : production.get(servedOperation(endpoint).operation);
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        const doc = Object.values(response.content ?? {})[0] as Schema | undefined;
        if (doc?.data !== 'one' && doc?.data !== 'list') continue;
        const answer = Object.values(document.paths[endpoint.path]?.[endpoint.method]?.responses?.[status]?.content ?? {})[0] as Schema | undefined;
        const data = valueOf(schemas, answer?.schema)?.properties?.data as Schema | undefined;
        const ref = (data?.$ref ?? valueOf(schemas, data)?.items?.$ref) as string | undefined;
        if (ref) variantsOf.set(ref.split('/').pop()!, [...(variantsOf.get(ref.split('/').pop()!) ?? []), doc!.variant as number | undefined]);
      }
    }
    const found: string[] = [];
    let checked = 0;
    for (const [id, schema] of Object.entries(schemas)) {
      const type = resourceType(schema);
      const variants = variantsOf.get(id) ?? [];
      // A component only answers of one variant hold is that variant's (a registered shipment's contract is always there).
      const variant = variants.length > 0 && variants.every((other) => other === variants[0]) ? variants[0] : undefined;
      let entry: Schema;
      try {
        entry = type ? resourceEntry(type, variant) : {};
      } catch {
        continue;
      }
      if (!entry.relationships) continue;
      const relationships = valueOf(schemas, schema.properties.relationships);
      for (const [name, relationship] of Object.entries((entry.relationships ?? {}) as Record<string, Schema>)) {
        const member = relationships?.properties?.[name] as Schema | undefined;
        if (!member) continue;
        checked += 1;
        const at = `${id}.relationships/${name}`;
        if (relationship.required !== true && (relationships!.required ?? []).includes(name)) found.push(`${at} is always present`);
        if (relationship.nullable === true && !takesNull(schemas, member)) found.push(`${at} is never null`);
        const object = valueOf(schemas, member);
        if (relationship.data_required !== true && (object?.required ?? []).includes('data')) found.push(`${at}/data is always present`);
        if (relationship.data_nullable === true && !takesNull(schemas, object?.properties?.data)) found.push(`${at}/data is never null`);
      }
    }
    expect(variantsOf.get('RegisteredShipment')).toEqual([3]);
    expect(checked).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });

  it('let Shipment.description, customs and its service relationship be null, Shop.website null, HookLog.errors, Service.transit_time and Shipment.colli absent', async () => {
    const document = await served();
    const schemas = document.components.schemas as Record<string, Schema>;
    const attributes = (id: string) => valueOf(schemas, schemas[id]!.properties.attributes)!;
    expect(takesNull(schemas, attributes('Shipment').properties.description)).toBe(true);
    expect(takesNull(schemas, attributes('Shipment').properties.customs)).toBe(true);
    expect(takesNull(schemas, attributes('Shop').properties.website)).toBe(true);
    expect(attributes('HookLog').required ?? []).not.toContain('errors');
    expect(attributes('Service').required ?? []).not.toContain('transit_time');
    const relationships = valueOf(schemas, schemas.Shipment!.properties.relationships)!;
    expect(takesNull(schemas, relationships.properties.service)).toBe(true);
    expect(relationships.required ?? []).not.toContain('colli');
  });
});

describe("the served document's request schemas", () => {
  it('stay as the endpoints declare them: what the sandbox refuses, the document still refuses', async () => {
    const document = await served();
    const declared = JSON.parse(JSON.stringify(buildOpenApi(allEndpoints(), 'http://127.0.0.1', undefined, { asDeclared: true })));
    const requestIds = new Set<string>();
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (!value || typeof value !== 'object') return;
      const ref = (value as Schema).$ref;
      if (typeof ref === 'string') {
        const id = ref.split('/').pop()!;
        if (requestIds.has(id)) return;
        requestIds.add(id);
        visit(document.components.schemas[id]);
      }
      Object.values(value).forEach(visit);
    };
    for (const item of Object.values(document.paths as Record<string, Schema>)) {
      for (const operation of Object.values(item)) visit(operation?.requestBody);
    }
    expect(requestIds).toContain('ShipmentCreateRequest');
    expect(requestIds).toContain('Price');
    for (const id of requestIds) expect(document.components.schemas[id], id).toEqual(declared.components.schemas[id]);
  });
});
