import { z } from 'zod';
import { countryCode, emailAddress, timestamp, uuid } from '../common.js';
import { outcomes, returnStatusCodes } from './return.js';

/** Unix seconds, or a date (`2026-01-31`) or date-time as text. */
const moment = z.union([z.number().int(), z.string().min(1).max(64)]);
const range = z.object({ date_from: moment, date_to: moment });

/** Which returns a report covers (production's ReturnReportFilters, open: a member it does not know is dropped). */
export const returnReportFilters = z
  .object({
    created_at: range.optional(),
    approved_at: range.optional(),
    paid_at: range.optional(),
    order_reference: z.string().max(255).optional(),
    item_external_reference: z.string().max(255).optional(),
    item_sku: z.string().max(255).optional(),
    shops: z.array(uuid).max(100).optional(),
    organizations: z.array(uuid).max(100).optional(),
    brokers: z.array(uuid).max(100).optional(),
    outbound_shipment_identifier: z.string().max(255).optional(),
    preferred_outcome: z.enum(outcomes).optional(),
    return_methods: z.array(uuid).max(100).optional(),
    return_reasons: z.array(z.string().max(255)).max(100).optional(),
    // The codes a return can have, as filter[status] of the list: a misspelt one would select nothing and say nothing.
    return_statuses: z.array(z.enum(returnStatusCodes)).max(20).optional(),
    consumer_country_code: z.array(countryCode).max(250).optional(),
    consumer_email: emailAddress().optional(),
  })
  .meta({ id: 'ReturnReportFilters' });
export type ReturnReportFilters = z.infer<typeof returnReportFilters>;

export type ReportStatusCode = 'report-queued' | 'report-in-progress' | 'report-finished' | 'report-failed';

export const returnReportAttributes = z
  .strictObject({
    name: z.string().max(255),
    filters: returnReportFilters,
    progress: z.strictObject({ total: z.number().int(), processed: z.number().int() }),
    created_at: timestamp,
    updated_at: timestamp.optional(),
  })
  .meta({ id: 'ReturnReportAttributes' });

export type ReturnReportRecord = {
  id: string;
  organization_id: string;
  user_id: string;
  name: string;
  filters: ReturnReportFilters;
  status_code: ReportStatusCode;
  status_id: string;
  progress: { total: number; processed: number };
  file_id?: string;
  created_at: number;
  updated_at: number;
};

/** The CSV a finished report produced, kept as it was written. */
export type ReturnReportFileRecord = { id: string; report_id: string; organization_id: string; content: string; created_at: number };
