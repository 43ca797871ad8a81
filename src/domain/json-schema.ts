import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
// Schemas come from frozen rows that are replaced on change, so a compiled validator can hang off the schema object.
const validators = new WeakMap<object, ValidateFunction>();

/** A compiled validator for a JSON Schema taken from the data (carrier credentials, option values). */
function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
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
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => describe(error, subject));
}
