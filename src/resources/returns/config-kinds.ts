import { z } from 'zod';
import type { LocaleChoice } from '../../domain/returns/localize.js';
import { localized, textIn } from '../../domain/returns/localize.js';
import { methodPrice } from '../../domain/returns/method-price.js';
import type { OfferedReason } from '../../domain/returns/shop-reasons.js';
import type { Ctx, Kind } from '../../http/context.js';
import { linkTo } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { money } from '../../model/returns/common.js';
import {
  returnMethodAttributes,
  returnQuestionAttributes,
  returnReasonAttributes,
  returnTagAttributes,
  shopReturnReasonAttributes,
  type ReturnMethodRecord,
  type ReturnQuestionRecord,
  type ReturnReasonRecord,
  type ReturnTagRecord,
} from '../../model/returns/config.js';
import { carrierLogoPath } from '../catalogue/carriers.js';

const mine = <R extends { organization_id: string }>(ctx: Ctx, row: R | undefined): R | undefined =>
  row && row.organization_id === ctx.principal?.organizationId ? row : undefined;

/** Reasons in the reader's language (`Accept-Language`): one kind per choice. */
export function reasonKind(locale: LocaleChoice): Kind<ReturnReasonRecord> {
  return {
    type: 'return-reasons',
    attributesSchema: returnReasonAttributes,
    attributes: (row) => ({
      code: row.code,
      description: localized(row.description, locale),
      tags: row.tags,
      accepts_attachments: row.accepts_attachments,
      requires_attachments: row.requires_attachments,
      accepts_comment: row.accepts_comment,
      requires_comment: row.requires_comment,
    }),
    relationships: {},
    self: (row) => `/returns/v1/reasons/${row.id}`,
    load: (ctx, id) => mine(ctx, ctx.store.get('returnReasons', id)),
  };
}

/** A reason as one shop offers it: its own rules, the questions it asks, texts in one language. */
export function shopReasonKind(locale: string): Kind<OfferedReason & { id: string }> {
  return {
    type: 'return-reasons',
    attributesSchema: shopReturnReasonAttributes,
    attributes: ({ reason, attachments, comment, questions }) => ({
      code: reason.code,
      description: textIn(reason.description, locale),
      tags: reason.tags,
      accepts_attachments: attachments !== 'disabled',
      requires_attachments: attachments === 'required',
      accepts_comment: comment !== 'disabled',
      requires_comment: comment === 'required',
      questions: questions.map(({ question, is_required, yes_note, no_note }) => ({
        code: question.code,
        description: textIn(question.description, locale),
        is_required,
        answer_type: question.answer_type,
        ...(yes_note !== undefined ? { yes_note } : {}),
        ...(no_note !== undefined ? { no_note } : {}),
      })),
    }),
    relationships: {},
    self: (row) => `/returns/v1/reasons/${row.reason.id}`,
    load: () => undefined,
  };
}

export function questionKind(locale: LocaleChoice): Kind<ReturnQuestionRecord> {
  return {
    type: 'return-questions',
    attributesSchema: returnQuestionAttributes,
    attributes: (row) => ({ code: row.code, description: localized(row.description, locale), answer_type: row.answer_type }),
    relationships: {},
    self: (row) => `/returns/v1/questions/${row.id}`,
    load: (ctx, id) => mine(ctx, ctx.store.get('returnQuestions', id)),
  };
}

export const returnTagKind: Kind<ReturnTagRecord> = {
  type: 'return-tags',
  attributesSchema: returnTagAttributes,
  attributes: ({ name, color, created_at }) => ({ name, color, created_at }),
  relationships: { shop: { targets: ['shops'], data: (row) => linkTo('shops', row.shop_id) } },
  self: (row) => `/returns/v1/tags/${row.id}`,
  load: (ctx, id) => mine(ctx, ctx.store.get('returnTags', id)),
};

const methodMeta = z
  .object({
    price: money.optional(),
    carrier: z.object({ name: z.string(), code: z.string(), logo_url: z.string() }).optional(),
    service: z.object({ name: z.string(), code: z.string(), is_label_in_the_box: z.boolean(), is_shipping_and_return: z.boolean() }).optional(),
  })
  .meta({ id: 'ReturnMethodMeta' });

/**
 * Return methods, with the label price in `meta` at `weight` grams (default: the method's default
 * weight) for a consumer in `from` (default: the countries the method is offered in).
 */
export const returnMethodKindAt = (weight?: number, from?: string): Kind<ReturnMethodRecord> => ({
  type: 'return-methods',
  attributesSchema: returnMethodAttributes,
  attributes: (row) => ({
    return_type: row.return_type,
    default_weight: row.default_weight,
    title: row.title,
    description: row.description,
    country_codes: row.country_codes ?? [],
    address: row.address,
    created_at: row.created_at,
  }),
  relationships: {
    contract: { targets: ['contracts'], optional: true, data: (row) => linkTo('contracts', row.contract_id) },
    recovery_contract: { targets: ['contracts'], optional: true, data: (row) => linkTo('contracts', row.recovery_contract_id) },
    recovery_service: { targets: ['services'], optional: true, data: (row) => linkTo('services', row.recovery_service_id) },
    service: { targets: ['services'], optional: true, data: (row) => linkTo('services', row.service_id) },
    service_options: { targets: ['service-options'], many: true, data: (row) => row.service_option_ids.map((id) => ({ type: 'service-options', id })) },
    shop: { targets: ['shops'], data: (row) => linkTo('shops', row.shop_id) },
  },
  self: (row) => `/returns/v1/return-methods/${row.id}`,
  // What a return portal shows next to the method: the carrier, the service and the label's price.
  // Only a `shipment` method has a label: a self-shipment or drop-off that kept the service of the
  // shipment method it was ships on nothing of the shop's, so it shows no carrier or price.
  meta: (row, ctx) => {
    const { store } = ctx;
    const service = row.return_type === 'shipment' && row.service_id ? store.get('services', row.service_id) : undefined;
    const carrier = service ? store.get('carriers', service.carrier_id) : undefined;
    if (!service || !carrier) return undefined;
    return {
      price: methodPrice(store, row, { weight, from }),
      carrier: { name: carrier.name, code: carrier.code, logo_url: ctx.url(carrierLogoPath(ctx.rules, carrier)) },
      service: {
        name: service.name,
        code: service.code,
        // As GET /services/{id} answers them: a pack's service may set either flag.
        is_label_in_the_box: service.is_label_in_the_box ?? false,
        is_shipping_and_return: service.is_shipping_and_return ?? false,
      },
    };
  },
  // What includes read: only a return links to a method, and it keeps the method it was made with
  // when the method is deleted (consumers no longer see it: the list and GET leave it out).
  load: (ctx, id) => mine(ctx, ctx.store.get('returnMethods', id)),
});

export const returnMethodKind = returnMethodKindAt();

export const reasonSchemas = resourceSchemas(reasonKind(undefined));
export const shopReasonSchemas = resourceSchemas(shopReasonKind('en-GB'), { name: 'ShopReturnReason' });
export const questionSchemas = resourceSchemas(questionKind(undefined));
export const tagSchemas = resourceSchemas(returnTagKind);
export const methodSchemas = resourceSchemas(returnMethodKind, { meta: methodMeta });
