import { readFileSync } from 'node:fs';

/**
 * Production's published contract (reference/production-contract.json, a digest of
 * production's OpenAPI document) turned into JSON Schemas, so responses can be checked against
 * what production promises. The digest's notation is explained in its `conventions` block.
 */

type Node = Record<string, any>;
export type JsonSchema = Record<string, any>;

export interface ContractOperation {
  key: string;
  method: string;
  path: string;
  query: Record<string, Node>;
  request?: Node;
  responses: Record<string, { content?: Record<string, Node> }>;
  security: string[][];
}

const contract = JSON.parse(readFileSync(new URL('../../../reference/production-contract.json', import.meta.url), 'utf8')) as {
  resources: Record<string, Node>;
  shapes: Record<string, Node>;
  operations: Record<string, Node>;
};

/** RFC 7386 JSON merge patch: `null` removes a member, objects merge, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Node = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Node) } : {};
  for (const [key, value] of Object.entries(patch as Node)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** A node with its shape reference resolved: the shape, with the node's own members patched over it. */
export function resolveShape(node: Node): Node {
  let current = node;
  for (let guard = 0; current.shape && guard < 10; guard++) {
    const { shape, ...rest } = current;
    const base = contract.shapes[shape];
    if (!base) throw new Error(`unknown shape ${shape}`);
    current = mergePatch(structuredClone(base), rest) as Node;
  }
  return current;
}

const PLAIN_KEYWORDS = ['enum', 'const', 'format', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties'];

/** JSON Schema of one digest node (an attribute, a shape, a body). */
function nodeSchema(input: Node | undefined): JsonSchema {
  if (!input) return {};
  const node = resolveShape(input);
  const schema: JsonSchema = {};
  if (node.type !== undefined) schema.type = node.type;
  for (const keyword of PLAIN_KEYWORDS) if (node[keyword] !== undefined) schema[keyword] = node[keyword];
  if (node.members) {
    schema.properties = {};
    const required: string[] = [];
    for (const [name, member] of Object.entries(node.members as Record<string, Node>)) {
      schema.properties[name] = nodeSchema(member);
      if (member.required === true) required.push(name);
    }
    if (node.required_names) required.push(...node.required_names);
    if (required.length > 0) schema.required = [...new Set(required)];
  }
  if (node.closed) schema.additionalProperties = false;
  if (node.additional) schema.additionalProperties = nodeSchema(node.additional);
  if (node.pattern_members) {
    schema.patternProperties = Object.fromEntries(Object.entries(node.pattern_members as Record<string, Node>).map(([k, v]) => [k, nodeSchema(v)]));
  }
  if (node.items) schema.items = nodeSchema(node.items);
  if (node.oneOf) schema.anyOf = (node.oneOf as Node[]).map(nodeSchema);
  if (node.anyOf) schema.anyOf = (node.anyOf as Node[]).map(nodeSchema);
  if (node.required_any_of) schema.anyOf = (node.required_any_of as string[][]).map((names) => ({ required: names }));
  if (node.required_one_of) schema.oneOf = (node.required_one_of as string[][]).map((names) => ({ required: names }));
  return schema;
}

function identifierSchema(rel: Node): JsonSchema {
  const properties: JsonSchema = { type: { type: 'string' }, id: { type: 'string' } };
  if (rel.targets?.length) properties.type = { enum: rel.targets };
  if (rel.identifier_meta) properties.meta = nodeSchema(rel.identifier_meta);
  return { type: 'object', required: ['type', 'id'], properties };
}

/** JSON Schema of one relationship object of a resource. */
function relationshipSchema(rel: Node): JsonSchema {
  const identifier = identifierSchema(rel);
  const data = rel.to === 'many' ? { type: 'array', items: identifier } : rel.data_nullable ? { anyOf: [identifier, { type: 'null' }] } : identifier;
  const schema: JsonSchema = { type: 'object', properties: { data } };
  if (rel.data_required) schema.required = ['data'];
  if (rel.links_allowed) {
    if (rel.links) schema.properties.links = nodeSchema({ type: 'object', members: rel.links });
  } else {
    schema.additionalProperties = false;
  }
  return rel.nullable ? { anyOf: [schema, { type: 'null' }] } : schema;
}

/** The resource entry of a type, with variant `n` (1-based) applied when given. */
export function resourceEntry(type: string, variant?: number): Node {
  const base = contract.resources[type];
  if (!base) throw new Error(`production has no resource type ${type}`);
  const { variants, ...rest } = base;
  if (!variant) return rest;
  return mergePatch(structuredClone(rest), variants[variant - 1].patch) as Node;
}

/**
 * Where a resource object's schema is: documents refer to it (`$ref`) instead of holding a copy,
 * so a validator (ajv) compiles each resource type once, not once in every document that answers
 * it or may include it. Inlined, the contract check compiled ~10 s of the suite's CPU; `resourceSchemas()`
 * are the schemas these name.
 */
export function resourceRef(type: string, variant?: number): JsonSchema {
  if (!contract.resources[type]) throw new Error(`production has no resource type ${type}`);
  return { $ref: resourceId(type, variant) };
}

const resourceId = (type: string, variant?: number) => `https://production.contract/resources/${type}${variant ? `/${variant}` : ''}`;

/** The schema of every resource type and variant, each with the `$id` that `resourceRef` names. */
export function resourceSchemas(): JsonSchema[] {
  return Object.entries(contract.resources).flatMap(([type, entry]) =>
    [undefined, ...((entry.variants as unknown[] | undefined) ?? []).map((_, index) => index + 1)].map((variant) => ({
      $id: resourceId(type, variant),
      ...resourceSchema(type, variant),
    })),
  );
}

/** JSON Schema of a resource object as production answers it. */
function resourceSchema(type: string, variant?: number): JsonSchema {
  const entry = resourceEntry(type, variant);
  const properties: JsonSchema = {
    type: entry.type_pattern ? { type: 'string', pattern: entry.type_pattern } : { type: 'string' },
    id: nodeSchema(entry.id),
  };
  if (entry.attributes) {
    properties.attributes = nodeSchema({ type: 'object', members: entry.attributes, closed: entry.attributes_closed });
  }
  if (entry.relationships) {
    const relationships: JsonSchema = { type: 'object', properties: {}, required: [] as string[] };
    for (const [name, rel] of Object.entries(entry.relationships as Record<string, Node>)) {
      relationships.properties[name] = relationshipSchema(rel);
      if (rel.required) relationships.required.push(name);
    }
    if (entry.relationships_closed) relationships.additionalProperties = false;
    if (entry.relationships_required_any_of) relationships.anyOf = entry.relationships_required_any_of.map((names: string[]) => ({ required: names }));
    properties.relationships = relationships;
  }
  if (entry.links) properties.links = nodeSchema(entry.links);
  if (entry.meta) properties.meta = nodeSchema(entry.meta);
  return { type: 'object', required: entry.members_required ?? [], properties };
}

/** One of several resource types, checked against its own type's schema (precise errors, unlike anyOf). */
function byType(types: readonly string[]): JsonSchema {
  // An empty list (production's demo-orders) names no type: the members are not described.
  if (types.length === 0) return { type: 'object', required: ['type', 'id'] };
  return {
    type: 'object',
    required: ['type'],
    properties: { type: { enum: types } },
    allOf: types.map((type) => ({ if: { properties: { type: { const: type } } }, then: resourceRef(type) })),
  };
}

/**
 * The resource types the include paths of an operation reach from `type`, following each step's
 * relationship targets (`contract.carrier` from contracts: contracts' `contract`, then its `carrier`).
 */
function typesReached(type: string, paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const path of paths) {
    let from = [type];
    for (const step of path.split('.')) {
      from = from.flatMap((name) => (contract.resources[name]?.relationships?.[step]?.targets as string[] | undefined) ?? []);
      for (const reached of from) out.add(reached);
    }
  }
  return [...out];
}

/**
 * JSON Schema of a response (or request) document of the digest. `includes` are the include paths
 * the operation documents: the types they reach may be in `included` even where the document's own
 * list forgets one (production's GET /contracts documents `include=contract_template` but lists no
 * `contract-templates` among its included types), read as the author meant.
 */
export function documentSchema(doc: Node, includes: readonly string[] = []): JsonSchema {
  if (doc.body) return nodeSchema(doc.body);
  if (!doc.data) return {};
  let data: JsonSchema;
  if (doc.data === 'one') data = resourceRef(doc.type, doc.variant);
  else if (doc.data === 'list') data = { type: 'array', items: resourceRef(doc.type, doc.variant) };
  else if (doc.data === 'identifier') data = identifierSchema({ targets: [doc.type] });
  else data = { type: 'array', items: identifierSchema({ targets: [doc.type] }) };
  const properties: JsonSchema = { data };
  if (doc.meta) properties.meta = nodeSchema(doc.meta);
  if (doc.links) properties.links = nodeSchema(doc.links);
  // A list that documents include paths but declares no `included` (production's GET /system-messages
  // takes include=broker in a closed document): read as the author meant, it may carry them.
  if (doc.included || (includes.length > 0 && doc.type)) {
    const types = [...new Set([...((doc.included as string[] | undefined) ?? []), ...(doc.type ? typesReached(doc.type, includes) : [])])];
    properties.included = { type: 'array', items: byType(types) };
  }
  const required: string[] = doc.document_required ?? ['data'];
  // A closed document that requires members it does not declare cannot be satisfied (production's
  // GET .../pickup-dropoff-locations/{pudo_id} requires meta and links but declares only data):
  // read as the author meant, those members are allowed, whatever they hold.
  if (doc.closed) for (const name of required) properties[name] ??= {};
  const schema: JsonSchema = { type: 'object', required, properties };
  if (doc.closed) schema.additionalProperties = false;
  return schema;
}

/** Every production operation, keyed `METHOD /path`. */
export function productionOperations(): ContractOperation[] {
  return Object.entries(contract.operations).map(([key, op]) => {
    const [method, path] = key.split(' ') as [string, string];
    return { key, method, path, query: op.query ?? {}, request: op.request, responses: op.responses ?? {}, security: op.security ?? [] };
  });
}

/**
 * The served operations (of `served`) that take a body for which production documents a request,
 * each with that request document of the digest; paths match with their parameters unnamed.
 */
export function withProductionRequest<E extends { method: string; path: string; body?: unknown; internal?: boolean }>(
  served: readonly E[],
): { endpoint: E; doc: Node }[] {
  const normalize = (path: string) => path.replace(/\?.*$/, '').replace(/\{[^}]+\}/g, '{}');
  const production = new Map(productionOperations().map((operation) => [`${operation.method} ${normalize(operation.path)}`, operation]));
  return served.flatMap((endpoint) => {
    if (endpoint.internal || endpoint.body === undefined) return [];
    const operation = production.get(`${endpoint.method.toUpperCase()} ${normalize(endpoint.path)}`);
    const doc = Object.values((operation?.request?.content ?? {}) as Record<string, Node>)[0];
    return doc ? [{ endpoint, doc }] : [];
  });
}

/** The resource document of a success answer of an operation (`data` of one resource), if it has one. */
function resourceAnswer(operation: Node): Node | undefined {
  for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, { content?: Record<string, Node> }>)) {
    const doc = Object.values(response.content ?? {})[0];
    if (status.startsWith('2') && doc?.data === 'one') return doc;
  }
  return undefined;
}

/**
 * The include paths an operation takes, and the types they may put in `included`: those its own
 * documentation lists, or, for a write whose answer is a resource document, those of production's
 * GET of that resource type (JSON:API lets any answer of a resource carry `included`, and
 * production's clients ask for it on writes: the PHP SDK sends `include=files` on
 * POST /registered-shipments). `undefined` for an operation that takes no include.
 */
export function includeOf(key: string): { paths: string[]; included: string[] } | undefined {
  const operation = contract.operations[key];
  if (!operation) throw new Error(`production has no operation ${key}`);
  const documented = operation.query?.include?.values as string[] | undefined;
  if (documented) return { paths: documented, included: (resourceAnswer(operation)?.included as string[] | undefined) ?? [] };
  const answer = key.startsWith('GET ') ? undefined : resourceAnswer(operation);
  if (!answer) return undefined;
  const paths = new Set<string>();
  const included = new Set<string>();
  for (const [other, read] of Object.entries(contract.operations)) {
    const doc = other.startsWith('GET ') ? resourceAnswer(read) : undefined;
    if (!doc || doc.type !== answer.type) continue;
    for (const path of (read.query?.include?.values as string[] | undefined) ?? []) paths.add(path);
    for (const type of (doc.included as string[] | undefined) ?? []) included.add(type);
  }
  return paths.size > 0 ? { paths: [...paths], included: [...included] } : undefined;
}

/**
 * The members of a request body that production lets be `null`, as paths from the body's root
 * (`['data', 'attributes', 'branding', 'returns', 'domain']`; an array's items as index 0), down
 * to the depth the digest keeps. Alternatives (oneOf/anyOf) are walked each.
 */
export function nullableMembers(input: Node, at: string[] = []): NullableMember[] {
  const node = resolveShape(input);
  const out: NullableMember[] = [];
  if (at.length > 0 && [node.type].flat().includes('null')) out.push({ path: at, parentRequires: false });
  const required = Object.values((node.members ?? {}) as Record<string, Node>).some((member) => member.required === true);
  for (const [name, member] of Object.entries((node.members ?? {}) as Record<string, Node>)) {
    out.push(...nullableMembers(member, [...at, name]).map((found) => (found.path.length === at.length + 1 ? { ...found, parentRequires: required } : found)));
  }
  if (node.items) out.push(...nullableMembers(node.items, [...at, '0']));
  for (const alternative of [...((node.oneOf as Node[] | undefined) ?? []), ...((node.anyOf as Node[] | undefined) ?? [])]) {
    const tag = discriminator(resolveShape(alternative));
    out.push(...nullableMembers(alternative, at).map((found) => (tag && !found.branch ? { ...found, branch: { at, ...tag } } : found)));
  }
  return out.filter((found, index) => out.findIndex((other) => other.path.join('/') === found.path.join('/')) === index);
}

/** The member an alternative is told apart by (`action_type` with pattern `^reject-return$`), and its one value. */
function discriminator(node: Node): { name: string; value: string } | undefined {
  for (const [name, member] of Object.entries((node.members ?? {}) as Record<string, Node>)) {
    const exact = typeof member.pattern === 'string' ? /^\^([\w-]+)\$$/.exec(member.pattern) : null;
    if (exact) return { name, value: exact[1]! };
    if (Array.isArray(member.enum) && member.enum.length === 1) return { name, value: String(member.enum[0]) };
  }
  return undefined;
}

/**
 * A member production lets be null, and whether the object holding it requires other members (so
 * it cannot be made empty around it); `branch` when it belongs to one alternative of a union (the
 * object at `at` has `name` = `value`), so that it is sent only in a body of that alternative.
 */
export interface NullableMember {
  path: string[];
  parentRequires: boolean;
  branch?: { at: string[]; name: string; value: string };
}

/**
 * The attributes a request resource document (`data: 'one'`) of the digest may carry: the
 * resource's own and those only requests name, without the read-only ones.
 */
function writableAttributes(doc: Node): Record<string, Node> {
  const readOnly = new Set((doc.attributes_read_only as string[] | undefined) ?? []);
  const entry = resourceEntry(doc.type, doc.variant);
  return Object.fromEntries(
    Object.entries({ ...((entry.attributes ?? {}) as Record<string, Node>), ...((doc.attributes_not_in_response ?? {}) as Record<string, Node>) }).filter(
      ([name, node]) => !readOnly.has(name) && node.readOnly !== true,
    ),
  );
}

/**
 * The nullable members of a request document of the digest: a free-form `body`, or a resource
 * document (`data: 'one'`) whose attributes are the resource's own, read-only ones aside, and
 * whose relationships written `... or null` may be null themselves (`"contract": null`).
 */
export function nullableRequestMembers(doc: Node): NullableMember[] {
  if (doc.body) return nullableMembers(doc.body);
  if (doc.data !== 'one' || !doc.type || !contract.resources[doc.type]) return [];
  const attributes = writableAttributes(doc);
  const relationships = Object.entries((doc.relationships ?? {}) as Record<string, string>)
    .filter(([, written]) => / or null$/.test(written))
    .map(([name]) => ({ path: ['data', 'relationships', name], parentRequires: false }));
  return [...nullableMembers({ type: 'object', members: attributes }, ['data', 'attributes']), ...relationships];
}

const isObjectNode = (node: Node): boolean => node.members !== undefined || [node.type].flat().includes('object');

/**
 * The objects of a request body production leaves open (no `additionalProperties: false`), as
 * paths from the body's root (an array's items as index 0), down to the depth the digest keeps:
 * production's validator takes a member it does not know there. A union of objects counts when
 * none of its alternatives is closed.
 */
function openObjects(input: Node, at: string[] = []): string[][] {
  const node = resolveShape(input);
  const alternatives = [...((node.oneOf as Node[] | undefined) ?? []), ...((node.anyOf as Node[] | undefined) ?? [])].map(resolveShape);
  const out: string[][] = [];
  const objectAlternatives = alternatives.filter(isObjectNode);
  if (
    isObjectNode(node)
      ? !node.closed && objectAlternatives.every((alt) => !alt.closed)
      : objectAlternatives.length > 0 && objectAlternatives.every((alt) => !alt.closed)
  ) {
    out.push(at);
  }
  for (const [name, member] of Object.entries((node.members ?? {}) as Record<string, Node>)) {
    if (member.readOnly !== true) out.push(...openObjects(member, [...at, name]));
  }
  if (node.items) out.push(...openObjects(node.items, [...at, '0']));
  for (const alternative of alternatives) out.push(...openObjects(alternative, at));
  return out.filter((path, index) => out.findIndex((other) => other.join('/') === path.join('/')) === index);
}

/**
 * The objects of a request body production closes (`additionalProperties: false`), as paths from
 * the body's root (an array's items as index 0), down to the depth the digest keeps: production's
 * validator refuses a member it does not know there. A union of objects counts when every one of
 * its object alternatives is closed.
 */
function closedObjects(input: Node, at: string[] = []): string[][] {
  const node = resolveShape(input);
  const alternatives = [...((node.oneOf as Node[] | undefined) ?? []), ...((node.anyOf as Node[] | undefined) ?? [])].map(resolveShape);
  const out: string[][] = [];
  const objectAlternatives = alternatives.filter(isObjectNode);
  if (isObjectNode(node) ? node.closed === true : objectAlternatives.length > 0 && objectAlternatives.every((alt) => alt.closed === true)) out.push(at);
  for (const [name, member] of Object.entries((node.members ?? {}) as Record<string, Node>)) {
    if (member.readOnly !== true) out.push(...closedObjects(member, [...at, name]));
  }
  if (node.items) out.push(...closedObjects(node.items, [...at, '0']));
  for (const alternative of alternatives) out.push(...closedObjects(alternative, at));
  return out.filter((path, index) => out.findIndex((other) => other.join('/') === path.join('/')) === index);
}

/** The closed objects of a request document of the digest, as `openRequestObjects` finds the open ones. */
export function closedRequestObjects(doc: Node): string[][] {
  if (doc.body) return closedObjects(doc.body);
  if (doc.data !== 'one' || !doc.type || !contract.resources[doc.type]) return [];
  const attributes = writableAttributes(doc);
  return closedObjects({ type: 'object', members: attributes, closed: doc.attributes_closed === true }, ['data', 'attributes']);
}

/**
 * The open objects of a request document of the digest: a free-form `body`, or a resource
 * document (`data: 'one'`) whose attributes object (unless production closes it) and the objects
 * in its writable attributes.
 */
export function openRequestObjects(doc: Node): string[][] {
  if (doc.body) return openObjects(doc.body);
  if (doc.data !== 'one' || !doc.type || !contract.resources[doc.type]) return [];
  const attributes = writableAttributes(doc);
  return openObjects({ type: 'object', members: attributes, closed: doc.attributes_closed === true }, ['data', 'attributes']);
}
