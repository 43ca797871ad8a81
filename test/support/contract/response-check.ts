import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

// ajv-formats is CommonJS: its default export is the plugin function itself.
const addFormats = formats as unknown as (ajv: Ajv2020) => Ajv2020;
import { allEndpoints } from '../../../src/app.js';
import { buildOpenApi } from '../../../src/openapi/build.js';
import { CompiledValidators } from './compiled-validators.js';
import { documentSchema, includeOf, productionOperations, resourceSchemas, type ContractOperation } from './production-schema.js';

/**
 * Checks one response against two contracts: the sandbox's own OpenAPI document (status, media
 * type and body as documented) and production's published contract (for operations production
 * has, the body production promises for that status). Every in-process test request goes
 * through here (test/support/app.ts), so a response that drifts from either fails its test.
 */

export interface Observed {
  method: string;
  /** Path without the query. */
  path: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
  text: string;
}

interface Template {
  path: string;
  regex: RegExp;
  literals: number;
}

function template(path: string): Template {
  // Production writes one path with its query (`...{payment_id}?hmac={hmac}`): match the path alone.
  const parts = path.replace(/\?.*$/, '').split('/').filter(Boolean);
  const source = parts.map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
  return { path, regex: new RegExp(`^/${source}/?$`), literals: parts.filter((part) => !part.startsWith('{')).length };
}

/** The most specific template (most literal segments) that matches a path. */
function bestMatch<T extends Template>(templates: readonly T[], path: string): T | undefined {
  let best: T | undefined;
  for (const candidate of templates) {
    if (candidate.regex.test(path) && (!best || candidate.literals > best.literals)) best = candidate;
  }
  return best;
}

/**
 * `inlineRefs: false`: a schema another one names (`$ref`) is compiled once, into a function of its
 * own that every document's validator calls, instead of being copied into each of them. The suite
 * compiles a validator for each operation and status it meets, and those documents name the same
 * few dozen resource schemas. `code.source` keeps the generated code, which compiled-validators.ts
 * stores for the next worker and run.
 */
const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: true, inlineRefs: false, code: { source: true } } as const;
/** OpenAPI's formats that ajv-formats does not know: any value passes. */
const OPEN_FORMATS = ['float', 'double', 'enum', 'int32', 'int64', 'binary'];
/** What the compiled code depends on besides the schemas: a kept validator of other settings is not loaded. */
const SETUP = JSON.stringify({ AJV_OPTIONS, OPEN_FORMATS });

function newAjv(): Ajv2020 {
  // A copy: ajv-formats writes into `code`.
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { ...AJV_OPTIONS.code } });
  addFormats(ajv);
  for (const format of OPEN_FORMATS) ajv.addFormat(format, true);
  return ajv;
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '/'} ${e.message}${e.params && Object.keys(e.params).length ? ' ' + JSON.stringify(e.params) : ''}`)
    .join('\n      ');
}

const mediaOf = (header: string | undefined) => header?.split(';')[0]!.trim().toLowerCase();

/** The sandbox's own document, validated against. */
class OwnDocument {
  private readonly ajv = newAjv();
  private readonly compiled: CompiledValidators;
  private readonly templates: (Template & { item: Record<string, any> })[];
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    // The responses as the endpoints declare them, not as the served document loosens them to what
    // production's contract allows (src/openapi/production-answers.ts): an answer that leaves out or
    // nulls what the sandbox promises still fails here. It then also meets the served document,
    // which only adds nulls and drops required members.
    const document = JSON.parse(JSON.stringify(buildOpenApi(allEndpoints(), 'http://sandbox.test', undefined, { asDeclared: true })));
    const components = { $id: 'sandbox.json', components: document.components };
    this.ajv.addSchema(components, 'sandbox.json');
    this.compiled = new CompiledValidators(this.ajv, SETUP + JSON.stringify(components));
    this.templates = Object.entries(document.paths as Record<string, Record<string, any>>).map(([path, item]) => ({ ...template(path), item }));
  }

  private validator(schema: Record<string, any>): ValidateFunction {
    const key = JSON.stringify(schema);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const validate = this.compiled.compile(JSON.parse(key.replaceAll('"#/components/', '"sandbox.json#/components/')));
    this.cache.set(key, validate);
    return validate;
  }

  check(observed: Observed): string[] {
    const match = bestMatch(this.templates, observed.path);
    const operation = match?.item[observed.method.toLowerCase()];
    const documentedError = this.validator({ $ref: '#/components/schemas/ErrorDocument' });
    if (!operation) {
      // Unknown paths and methods answer with the errors document (404/405).
      // OPTIONS is HTTP's, not an operation of the API: it names the path's methods in Allow, with no content.
      if (observed.method === 'OPTIONS' && observed.status === 200 && observed.text === '') return [];
      if (observed.status < 400) return [`${observed.method} ${observed.path} answered ${observed.status} but is not in the sandbox's OpenAPI document`];
      if (!documentedError(observed.body)) return [`error answer is not an errors document:\n      ${describeErrors(documentedError)}`];
      return [];
    }
    const response = operation.responses[String(observed.status)] ?? (observed.status >= 400 ? operation.responses.default : undefined);
    if (!response) return [`status ${observed.status} is not documented for ${observed.method} ${match!.path}`];
    const content = response.content as Record<string, { schema: Record<string, any> }> | undefined;
    if (!content) return observed.text === '' ? [] : [`${observed.method} ${match!.path} ${observed.status} is documented without a body, but one was sent`];
    const media = mediaOf(observed.contentType);
    const entry = media ? content[media] : undefined;
    if (!entry)
      return [
        `media type ${media} is not documented for ${observed.method} ${match!.path} ${observed.status} (documented: ${Object.keys(content).join(', ')})`,
      ];
    if (entry.schema.format === 'binary' || observed.body === undefined) return [];
    const validate = this.validator(entry.schema);
    return validate(observed.body)
      ? []
      : [`body does not match the sandbox's document (${observed.method} ${match!.path} ${observed.status}):\n      ${describeErrors(validate)}`];
  }
}

/** Production's contract, validated against for the operations and statuses production documents. */
class Production {
  private readonly ajv = newAjv();
  private readonly compiled: CompiledValidators;
  private readonly templates: (Template & { operations: Map<string, ContractOperation> })[];
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    const byPath = new Map<string, Map<string, ContractOperation>>();
    for (const operation of productionOperations()) {
      const methods = byPath.get(operation.path) ?? new Map();
      methods.set(operation.method, operation);
      byPath.set(operation.path, methods);
    }
    this.templates = [...byPath].map(([path, operations]) => ({ ...template(path), operations }));
    // Added, not compiled: each is compiled when a document's validator first names it.
    const schemas = resourceSchemas();
    for (const schema of schemas) this.ajv.addSchema(schema);
    this.compiled = new CompiledValidators(this.ajv, SETUP + JSON.stringify(schemas));
  }

  operation(method: string, path: string): ContractOperation | undefined {
    return bestMatch(this.templates, path)?.operations.get(method.toUpperCase());
  }

  check(observed: Observed): string[] {
    const operation = this.operation(observed.method, observed.path);
    if (!operation || observed.status >= 400) return [];
    const response = operation.responses[String(observed.status)];
    const documented = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
    if (!response)
      return documented.length > 0 ? [`production answers ${operation.key} with ${documented.join('/')}, the sandbox with ${observed.status}`] : [];
    const content = response.content ?? {};
    if (Object.keys(content).length === 0) return observed.text === '' ? [] : [`production answers ${operation.key} ${observed.status} without a body`];
    const media = mediaOf(observed.contentType);
    const doc = media ? content[media] : undefined;
    if (!doc) {
      // Binary representations (labels, logos) are not JSON documents: nothing to compare.
      if (media && !media.includes('json')) return [];
      return [`production answers ${operation.key} ${observed.status} as ${Object.keys(content).join(', ')}, the sandbox as ${media}`];
    }
    const key = `${operation.key} ${observed.status} ${media}`;
    const validate = this.cache.get(key) ?? this.compiled.compile(this.schema(operation, doc));
    this.cache.set(key, validate);
    // A document production declares as a string (a PDF, a CSV) is checked as the text it is.
    const value = media!.includes('json') ? observed.body : observed.text;
    return validate(value) ? [] : [`body does not match production's contract (${key}):\n      ${describeErrors(validate)}`];
  }

  /** The schema of a document production answers; a write's answer may hold `included` as the GET of its type does (`includeOf`). */
  private schema(operation: ContractOperation, doc: Record<string, any>): Record<string, any> {
    const include = includeOf(operation.key);
    if (!include || operation.method === 'GET' || doc.included || doc.data !== 'one') return documentSchema(doc, include?.paths ?? []);
    return documentSchema({ ...doc, included: include.included }, include.paths);
  }
}

let own: OwnDocument | undefined;
let production: Production | undefined;

/** Every way a response departs from the sandbox's document or from production's contract. */
export function contractProblems(observed: Observed): string[] {
  own ??= new OwnDocument();
  production ??= new Production();
  // A text/plain answer (the base64 of a combined file) is its text, a string to check as such.
  const answer = mediaOf(observed.contentType) === 'text/plain' && observed.body === undefined ? { ...observed, body: observed.text } : observed;
  return [...own.check(answer), ...production.check(answer)];
}
