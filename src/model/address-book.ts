import { z } from 'zod';
import { address } from './common.js';

/**
 * An address of an organization's address book (production's `addresses`): the address fields of
 * shipments, validated the same way. Production's attribute set is open, so it is answered as is.
 */
export const addressBookAttributes = address.meta({ id: 'AddressBookAttributes' });

export type AddressRecord = z.infer<typeof address> & { id: string; organization_id: string; created_at: number };
