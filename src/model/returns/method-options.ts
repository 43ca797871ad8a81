import { schemaProblems } from '../json-schema.js';
import { categoryClashes, type ServiceOptionRecord } from '../service-option.js';

/*
 * What a return method's service options must be for its return shipments to be made, as one
 * rule for the two places a method is made: POST/PATCH /returns/v1/return-methods
 * (domain/returns/methods.ts) and a fixture pack (fixtures/check-rules.ts). A method breaking it
 * would be taken and then fail every approval with a 422.
 */

/** What the rule needs of an option. */
export type MethodOption = Pick<ServiceOptionRecord, 'code' | 'category' | 'values_format'>;

/** A problem of the method's option list, at its entry `index`. */
export interface MethodOptionProblem {
  index: number;
  detail: string;
}

/** Why an option no rate of the method's service and contract offers is refused. */
export const notOfferedDetail = (code: string): string => `Service option '${code}' is not offered with this service and contract.`;

/**
 * Options a return shipment could not be made with, though the rate offers each: the shipment
 * takes one option per category (so one option once), and a method gives an option no values, so
 * one whose `values_format` needs some (the insured amount) would be refused at every approval.
 * `options[index]` is the option of entry `index`, `undefined` where the entry names none (said
 * elsewhere, as an unknown option).
 */
export function shipmentOptionProblems(options: readonly (MethodOption | undefined)[]): MethodOptionProblem[] {
  const problems: MethodOptionProblem[] = [];
  const clashes = categoryClashes(options);
  options.forEach((option, index) => {
    if (!option) return;
    const clash = clashes.get(index);
    if (clash) problems.push({ index, detail: `${clash.detail}. A return shipment takes one option per category.` });
    const needs = option.values_format ? schemaProblems(option.values_format, {}, 'values') : [];
    if (needs.length > 0) {
      problems.push({
        index,
        detail: `Service option '${option.code}' needs values (${needs.join(' ')}), which a return method cannot give: its return shipments could not be made.`,
      });
    }
  });
  return problems;
}
