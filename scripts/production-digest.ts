import { readFileSync } from 'node:fs';
import { format } from 'prettier';

/**
 * What the running sandbox needs of production's contract (reference/production-contract.json,
 * 300 KB it does not ship): the operations production publishes and what it marks deprecated,
 * with where a request uses each deprecated thing. Written into
 * src/fixtures/reference/production-operations.ts by `npm run production:digest`;
 * test/production-digest.test.ts fails when that file is not what this makes of the contract.
 */

type Node = { deprecated?: boolean; type?: string | string[]; enum?: unknown[]; members?: Record<string, Node> } & Record<string, unknown>;
type RequestDoc = { data?: string; type?: string; attributes_read_only?: string[]; relationships?: Record<string, string>; meta?: Node } & Record<
  string,
  unknown
>;
type Operation = {
  deprecated?: boolean;
  query?: Record<string, Node>;
  headers?: Record<string, Node>;
  request?: { content?: Record<string, RequestDoc | Node> };
};
type Resource = { attributes?: Record<string, Node>; relationships?: Record<string, Node> };
type Contract = {
  source: { version: string };
  resources: Record<string, Resource>;
  shapes: Record<string, Node>;
  operations: Record<string, Operation>;
};

export const CONTRACT_FILE = new URL('../reference/production-contract.json', import.meta.url);
export const DIGEST_FILE = new URL('../src/fixtures/reference/production-operations.ts', import.meta.url);

/** Where a request uses a deprecated thing: the operation itself, a query parameter, a header, or a member of the body. */
export type DigestUse =
  | { operation: string; in: 'operation' }
  | { operation: string; in: 'query'; name: string }
  | { operation: string; in: 'header'; name: string; values?: string[] }
  | { operation: string; in: 'body'; pointer: string };

export interface DigestDeprecation {
  id: string;
  /** What production marks: an operation, a query parameter, a header, a request member, a resource's attribute or relationship. */
  kind: 'operation' | 'query' | 'header' | 'member' | 'attribute' | 'relationship';
  /** The requests that use it; none for a member production only answers with. */
  uses: DigestUse[];
}

/** Every `deprecated: true` under a request body's meta, as JSON pointers below `/meta`. */
function deprecatedMembers(node: Node | undefined, pointer: string): string[] {
  if (!node?.members) return [];
  return Object.entries(node.members).flatMap(([name, member]) => {
    const at = `${pointer}/${name}`;
    return [...(member.deprecated ? [at] : []), ...deprecatedMembers(member, at)];
  });
}

/** The JSON:API request documents of an operation that carry one resource of `type`. */
function requestDocuments(operation: Operation, type: string): RequestDoc[] {
  return Object.values(operation.request?.content ?? {}).filter(
    (doc): doc is RequestDoc => (doc as RequestDoc).type === type && (doc as RequestDoc).data === 'one',
  );
}

/** The deprecations of production's contract, in the order the contract lists them. */
export function deprecationsOf(contract: Contract): DigestDeprecation[] {
  const found: DigestDeprecation[] = [];
  const operations = Object.entries(contract.operations);
  for (const [type, resource] of Object.entries(contract.resources)) {
    for (const [where, kind] of [
      ['attributes', 'attribute'],
      ['relationships', 'relationship'],
    ] as const) {
      for (const [name, node] of Object.entries(resource[where] ?? {})) {
        if (!node.deprecated) continue;
        const uses: DigestUse[] = [];
        for (const [key, operation] of operations) {
          for (const doc of requestDocuments(operation, type)) {
            const sendable = where === 'attributes' ? !(doc.attributes_read_only ?? []).includes(name) : name in (doc.relationships ?? {});
            if (sendable) uses.push({ operation: key, in: 'body', pointer: `/data/${where}/${name}` });
          }
        }
        found.push({ id: `${type}.${name}`, kind, uses });
      }
    }
  }
  for (const [key, operation] of operations) {
    if (operation.deprecated) found.push({ id: key, kind: 'operation', uses: [{ operation: key, in: 'operation' }] });
    for (const [name, node] of Object.entries(operation.query ?? {})) {
      if (node.deprecated) found.push({ id: `${key} ${name}`, kind: 'query', uses: [{ operation: key, in: 'query', name }] });
    }
    for (const [name, node] of Object.entries(operation.headers ?? {})) {
      if (!node.deprecated) continue;
      const values = Array.isArray(node.enum) ? node.enum.map(String) : undefined;
      found.push({ id: `${key} ${name}`, kind: 'header', uses: [{ operation: key, in: 'header', name, ...(values ? { values } : {}) }] });
    }
    for (const doc of Object.values(operation.request?.content ?? {})) {
      for (const pointer of deprecatedMembers((doc as RequestDoc).meta, '/meta')) {
        found.push({ id: `${key} ${pointer}`, kind: 'member', uses: [{ operation: key, in: 'body', pointer }] });
      }
    }
  }
  return found;
}

/** RFC 7386 JSON merge patch, as the contract's shapes are refined: `null` removes a member, objects merge. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Node) } : {};
  for (const [key, value] of Object.entries(patch as Node)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** A node with its `shape` resolved: the named shape with the node's own keys merged over it. */
function resolveShape(node: Node, shapes: Record<string, Node>): Node {
  let current = node;
  for (let guard = 0; typeof current.shape === 'string' && guard < 10; guard++) {
    const { shape, ...rest } = current;
    const base = shapes[shape as string];
    if (!base) throw new Error(`production's contract names an unknown shape ${String(shape)}`);
    current = mergePatch(structuredClone(base), rest) as Node;
  }
  return current;
}

/** What production's answers may do with the members of a resource type's attributes: paths (`customs/incoterm`, `items/[]/sku`). */
interface DigestAnswered {
  /** Members whose value may be null. */
  nullable: string[];
  /** Members production describes but does not require: an answer may leave them out. */
  optional: string[];
}

/**
 * For every resource type, the attributes (and their members, as deep as the contract goes) that
 * production's answers may make null or leave out, from the schema most of its answers use
 * (variants and alternatives of a member are not read). The OpenAPI document lets them be so.
 */
export function answeredOf(contract: Contract): Record<string, DigestAnswered> {
  return Object.fromEntries(
    Object.entries(contract.resources).map(([type, resource]) => [type, answeredAttributes(resource.attributes ?? {}, contract.shapes)]),
  );
}

/** The attribute members of `attributes` an answer may make null or leave out. */
function answeredAttributes(attributes: Record<string, Node>, shapes: Record<string, Node>): DigestAnswered {
  const found: DigestAnswered = { nullable: [], optional: [] };
  const walk = (input: Node, prefix: string): void => {
    const node = resolveShape(input, shapes);
    for (const [name, value] of Object.entries(node.members ?? {})) {
      if (!value) continue;
      const member = resolveShape(value, shapes);
      const path = `${prefix}${name}`;
      if ([member.type].flat().includes('null')) found.nullable.push(path);
      if (member.required !== true) found.optional.push(path);
      walk(member, `${path}/`);
    }
    if (node.items && typeof node.items === 'object') walk(node.items as Node, `${prefix}[]/`);
  };
  walk({ members: attributes }, '');
  return found;
}

/** The relationships (`colli`) and their data (`colli/data`) of `relationships` an answer may leave out or make null. */
function answeredRelationships(relationships: Record<string, Node>): DigestAnswered {
  const found: DigestAnswered = { nullable: [], optional: [] };
  for (const [name, relationship] of Object.entries(relationships)) {
    if (relationship.nullable === true) found.nullable.push(name);
    if (relationship.required !== true) found.optional.push(name);
    if (relationship.data_nullable === true) found.nullable.push(`${name}/data`);
    if (relationship.data_required !== true) found.optional.push(`${name}/data`);
  }
  return found;
}

/** For every resource type with relationships, those production's answers may leave out or make null, as paths below `relationships`. */
export function answeredRelationshipsOf(contract: Contract): Record<string, DigestAnswered> {
  return Object.fromEntries(
    Object.entries(contract.resources).flatMap(([type, resource]) => (resource.relationships ? [[type, answeredRelationships(resource.relationships)]] : [])),
  );
}

/** What an answer of an operation that uses a variant of its type's schema may leave out or make null. */
interface DigestVariantAnswer {
  type: string;
  attributes: DigestAnswered;
  relationships: DigestAnswered;
}

/**
 * Where an operation's answer uses a variant of a resource type's schema (`GET /returns/v1/returns 200`
 * leaves a return's return_address out, `POST /registered-shipments 201` requires the contract),
 * what that variant lets be null or absent, by `METHOD path status`.
 */
export function variantAnswersOf(contract: Contract): Record<string, DigestVariantAnswer> {
  const out: Record<string, DigestVariantAnswer> = {};
  for (const [type, resource] of Object.entries(contract.resources)) {
    const { variants = [], ...rest } = resource as Resource & { variants?: { in: string[]; patch: Node }[] };
    for (const variant of variants) {
      const entry = mergePatch(structuredClone(rest), variant.patch) as Resource;
      const answer = {
        type,
        attributes: answeredAttributes(entry.attributes ?? {}, contract.shapes),
        relationships: answeredRelationships(entry.relationships ?? {}),
      };
      for (const where of variant.in) out[where] = answer;
    }
  }
  return out;
}

/** The date of production's document (its version names it: `... (develop @ dd59758, 2026-06-23)`), as Unix seconds. */
export function documentDate(version: string): number {
  const date = /(\d{4}-\d{2}-\d{2})\)?\s*$/.exec(version)?.[1];
  if (!date) throw new Error(`production's document version names no date: ${version}`);
  return Date.parse(`${date}T00:00:00Z`) / 1000;
}

/** The text of src/fixtures/reference/production-operations.ts, as Prettier writes it (its folder is one .prettierignore skips). */
export async function digestSource(contract: Contract = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8')) as Contract): Promise<string> {
  const json = (value: unknown) => JSON.stringify(value);
  const lines = [
    '// Made by `npm run production:digest` (scripts/production-digest.ts) from reference/production-contract.json: do not edit.',
    '// test/production-digest.test.ts fails when this is not what the contract says.',
    '',
    '/** Where a request uses a deprecated thing of production: the operation, a query parameter, a header (with one of `values`), or a body member. */',
    'export type ProductionUse =',
    "  | { operation: string; in: 'operation' }",
    "  | { operation: string; in: 'query'; name: string }",
    "  | { operation: string; in: 'header'; name: string; values?: readonly string[] }",
    "  | { operation: string; in: 'body'; pointer: string };",
    '',
    '/** One thing production marks deprecated, with the requests that use it (none for what production only answers with). */',
    'export interface ProductionDeprecation {',
    '  id: string;',
    "  kind: 'operation' | 'query' | 'header' | 'member' | 'attribute' | 'relationship';",
    '  uses: readonly ProductionUse[];',
    '}',
    '',
    "/** Production's document: its version, and its date (Unix seconds), the latest a deprecation in it can have begun. */",
    `export const PRODUCTION_DOCUMENT = { version: ${json(contract.source.version)}, date: ${documentDate(contract.source.version)} } as const;`,
    '',
    '/** Every operation production publishes, as the contract names it (method and path). */',
    'export const PRODUCTION_OPERATIONS: readonly string[] = [',
    ...Object.keys(contract.operations).map((key) => `  ${json(key)},`),
    '];',
    '',
    '/** The query parameters production documents, by operation (operations without any left out). */',
    'export const PRODUCTION_QUERY: Readonly<Record<string, readonly string[]>> = {',
    ...Object.entries(contract.operations)
      .filter(([, operation]) => Object.keys(operation.query ?? {}).length > 0)
      .map(([key, operation]) => `  ${json(key)}: ${json(Object.keys(operation.query ?? {}))},`),
    '};',
    '',
    "/** What production's answers may do with a resource type's attribute members (paths like `customs/incoterm`, `items/[]/sku`). */",
    'export interface ProductionAnswered {',
    '  /** Members whose value may be null. */',
    '  nullable: readonly string[];',
    '  /** Members production describes but does not require: an answer may leave them out. */',
    '  optional: readonly string[];',
    '}',
    '',
    "/** By resource type, the attribute members production's answers may make null or leave out. */",
    'export const PRODUCTION_ANSWERED: Readonly<Record<string, ProductionAnswered>> = {',
    ...Object.entries(answeredOf(contract)).map(([type, answered]) => `  ${json(type)}: ${json(answered)},`),
    '};',
    '',
    "/** By resource type, the relationships (`colli`) and their data (`colli/data`) production's answers may make null or leave out. */",
    'export const PRODUCTION_ANSWERED_RELATIONSHIPS: Readonly<Record<string, ProductionAnswered>> = {',
    ...Object.entries(answeredRelationshipsOf(contract)).map(([type, answered]) => `  ${json(type)}: ${json(answered)},`),
    '};',
    '',
    "/** Where an operation's answer (`METHOD path status`) uses a variant of its type's schema, what that variant lets be null or absent. */",
    'export const PRODUCTION_VARIANT_ANSWERS: Readonly<Record<string, { type: string; attributes: ProductionAnswered; relationships: ProductionAnswered }>> = {',
    ...Object.entries(variantAnswersOf(contract)).map(([where, answer]) => `  ${json(where)}: ${json(answer)},`),
    '};',
    '',
    '/** Everything production marks deprecated. */',
    'export const PRODUCTION_DEPRECATIONS: readonly ProductionDeprecation[] = [',
    ...deprecationsOf(contract).map((deprecation) => `  ${json(deprecation)},`),
    '];',
    '',
  ];
  const options = JSON.parse(readFileSync(new URL('../.prettierrc.json', import.meta.url), 'utf8')) as Record<string, unknown>;
  return format(lines.join('\n'), { ...options, parser: 'typescript' });
}
