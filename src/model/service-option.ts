import { z } from 'zod';

export const serviceOptionCategories = ['delivery-window', 'handover-method', 'proof-of-delivery'] as const;

/** Production's closed attribute set; every option has a category. */
export const serviceOptionAttributes = z
  .strictObject({
    name: z.string(),
    code: z.string().regex(/^[a-z-]+:[a-z0-9-]+$/, 'must be <category>:<name>'),
    category: z.enum(serviceOptionCategories),
    values_format: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ServiceOptionAttributes' });

export type ServiceOptionRecord = z.infer<typeof serviceOptionAttributes> & { id: string };

/**
 * The entries of an option list that a shipment cannot take beside an earlier one: a shipment
 * takes one option per category, so a second option of a category is refused, and the same
 * option sent again is said as such (its category being taken already would puzzle). By entry
 * index, the detail without its last stop (callers say what to do); `undefined` entries (options
 * that do not exist, told elsewhere) are skipped. Shared by a shipment's options and a return
 * method's, whose return shipments take them.
 */
export function categoryClashes(
  options: readonly (Pick<ServiceOptionRecord, 'code' | 'category'> | undefined)[],
): Map<number, { twice: boolean; detail: string }> {
  const clashes = new Map<number, { twice: boolean; detail: string }>();
  const categories = new Map<string, number>();
  options.forEach((option, index) => {
    if (!option?.category) return;
    const first = categories.get(option.category);
    if (first === undefined) categories.set(option.category, index);
    else if (options[first]!.code === option.code)
      clashes.set(index, { twice: true, detail: `Service option '${option.code}' is given twice (entries ${first} and ${index})` });
    else clashes.set(index, { twice: false, detail: `Only one service option per category: '${option.category}' is already chosen (entry ${first})` });
  });
  return clashes;
}
