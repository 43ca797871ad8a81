import { z } from 'zod';
import { timestamp } from '../common.js';
import { localizedText, returnCountryCodes, returnToAddress, weight, type LocalizedText, type Weight } from './common.js';

/*
 * The configuration of the returns product: reasons and questions (per organization in the
 * sandbox, so tenants never share a writable catalogue), and per shop its tags, return methods
 * and the reasons it offers (with their questions and comment/attachment rules).
 */

export const answerTypes = ['string', 'boolean'] as const;
export const returnTypes = ['self-shipment', 'store-drop-off', 'shipment'] as const;
type ReturnType = (typeof returnTypes)[number];

export const returnReasonAttributes = z
  .strictObject({
    code: z.string().min(1).max(255),
    description: localizedText,
    tags: z.array(z.string().max(255)).max(50).optional(),
    accepts_attachments: z.boolean(),
    requires_attachments: z.boolean(),
    accepts_comment: z.boolean(),
    requires_comment: z.boolean(),
  })
  .meta({ id: 'ReturnReasonAttributes' });

export type ReturnReasonRecord = {
  id: string;
  organization_id: string;
  code: string;
  description: LocalizedText;
  tags?: string[];
  accepts_attachments: boolean;
  requires_attachments: boolean;
  accepts_comment: boolean;
  requires_comment: boolean;
  created_at: number;
};

export const returnQuestionAttributes = z
  .strictObject({ code: z.string().min(1).max(255), description: localizedText, answer_type: z.enum(answerTypes) })
  .meta({ id: 'ReturnQuestionAttributes' });

export type ReturnQuestionRecord = z.infer<typeof returnQuestionAttributes> & { id: string; organization_id: string; created_at: number };

/** How a shop asks one question with one of its reasons. */
export const shopReasonQuestion = z
  .strictObject({
    code: z.string().min(1).max(255),
    description: z.string().optional().describe('Read-only: the question text.'),
    is_required: z.boolean(),
    answer_type: z.enum(answerTypes).optional().describe("Read-only: the question's answer type."),
    yes_note: z.string().max(255).optional(),
    no_note: z.string().max(255).optional(),
  })
  .meta({ id: 'ShopReturnReasonQuestion' });

export const usage = z.enum(['disabled', 'optional', 'required']);
export type Usage = z.infer<typeof usage>;

/** A reason a shop offers, with its own rules for comments, attachments and questions. */
export type ShopReasonRecord = {
  id: string;
  shop_id: string;
  organization_id: string;
  reason_id: string;
  attachments?: Usage;
  comment?: Usage;
  questions?: { code: string; is_required: boolean; yes_note?: string; no_note?: string }[];
};

/** A reason as a shop offers it: the answer of `GET /returns/v1/shops/{shop_id}/reasons`. */
export const shopReturnReasonAttributes = returnReasonAttributes
  .extend({ code: z.string(), description: z.string(), questions: z.array(shopReasonQuestion.required({ description: true, answer_type: true })) })
  .meta({ id: 'ShopReturnReasonAttributes' });

export const returnTagAttributes = z
  .strictObject({
    name: z.string().min(1).max(255),
    color: z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hexadecimal color such as #ff8800'),
    created_at: timestamp,
  })
  .meta({ id: 'ReturnTagAttributes' });

export type ReturnTagRecord = { id: string; shop_id: string; organization_id: string; name: string; color: string; created_at: number };

export const returnMethodAttributes = z
  .strictObject({
    return_type: z.enum(returnTypes),
    default_weight: weight.optional(),
    title: z.string().max(255).nullable().optional(),
    description: z.string().max(255).nullable().optional(),
    country_codes: returnCountryCodes.optional().describe('Consumer countries the method is offered in; empty or left out: every country.'),
    address: returnToAddress.optional().describe("Where returns of this method go (a store for store-drop-off); default the shop's return address."),
    created_at: timestamp,
  })
  .meta({ id: 'ReturnMethodAttributes' });

export type ReturnMethodRecord = {
  id: string;
  shop_id: string;
  organization_id: string;
  return_type: ReturnType;
  default_weight?: Weight;
  title?: string;
  description?: string;
  country_codes?: string[];
  address?: z.infer<typeof returnToAddress>;
  contract_id?: string;
  service_id?: string;
  service_option_ids: string[];
  recovery_contract_id?: string;
  recovery_service_id?: string;
  created_at: number;
  /** Deleted methods stay for the returns that used them, hidden from every read. */
  deleted_at?: number;
};
