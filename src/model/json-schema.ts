import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { linearRegExp } from './linear-regexp.js';

/** A schema ajv could not compile, with why: a pack may give a carrier any object as its credentials_format. */
type Broken = { broken: string };

// Schemas come from frozen rows that are replaced on change, so a compiled validator can hang off the schema object.
const validators = new WeakMap<object, ValidateFunction | Broken>();
let ajv: Ajv2020 | undefined;

/**
 * The JSON Schema validator, made on first use: ajv is only needed once a contract is verified
 * or an option's values are checked, so start-up does not load it. ajv is CommonJS, which lets
 * it be required synchronously from the code paths (jobs, checks) that need it.
 */
function validator(): Ajv2020 {
  if (!ajv) {
    const require = createRequire(import.meta.url);
    const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
    // Schemas are not kept by their `$id`: two carriers naming the same one must not clash.
    // A `pattern` runs in linear time (model/linear-regexp.ts), which takes no `u` flag: one it cannot
    // run so makes the schema one that nothing passes, said when a value is checked.
    const regExp = Object.assign((pattern: string) => linearRegExp(pattern), { code: 'linearRegExp' });
    ajv = new Ajv({ allErrors: true, strict: false, addUsedSchema: false, unicodeRegExp: false, code: { regExp } });
    addFormats(ajv);
  }
  return ajv;
}

/** A compiled validator for a JSON Schema taken from the data (carrier credentials, option values), or why there is none. */
function validatorFor(schema: Record<string, unknown>): ValidateFunction | Broken {
  let validate = validators.get(schema);
  if (!validate) {
    try {
      validate = validator().compile(schema);
    } catch (error) {
      validate = { broken: error instanceof Error ? error.message : String(error) };
    }
    validators.set(schema, validate);
  }
  return validate;
}

function describe(error: ErrorObject, subject: string): string {
  const where = error.instancePath ? `'${error.instancePath.slice(1).replace(/\//g, '.')}'` : subject;
  const extra = error.keyword === 'additionalProperties' ? ` ('${(error.params as { additionalProperty: string }).additionalProperty}')` : '';
  return `${where} ${error.message}${extra}.`;
}

/** Why `value` fails `schema`, one readable line per problem; empty when it passes. */
export function schemaProblems(schema: Record<string, unknown>, value: unknown, subject = 'the value'): string[] {
  const validate = validatorFor(schema);
  // Nothing can satisfy a schema that is not one: said as a problem, not thrown (a 500, or a verification that never ends).
  if (typeof validate !== 'function') return [`The JSON Schema that ${subject} must satisfy is not valid (${validate.broken}): nothing can pass it.`];
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => describe(error, subject));
}
