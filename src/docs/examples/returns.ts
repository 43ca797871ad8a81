// Examples of the returns API: its configuration, orders, returns, reports and public pages.
import { checkoutPath } from '../../domain/returns/payments.js';
import { recoveryMessage } from '../../domain/returns/recovery.js';
import { sign } from '../../domain/returns/signing.js';
import { warehouse } from './bodies.js';
import type { ExampleIds, ExampleOrder } from './ids.js';
import { ref, type ExampleSet } from './types.js';

const consumer = (ids: ExampleIds) => ids.order(0).recipient;
const item = (ids: ExampleIds, order: ExampleOrder) => ({
  id: order.item,
  quantity: 1,
  reason: { code: ids.returnReason.code, comment: 'The colour differs from the photo.' },
  preferred_outcome: 'refund',
});

/** A return of the first item of `order`, by its recipient, with the shop's first return method that sends a label. */
export function returnBody(ids: ExampleIds, order: ExampleOrder) {
  return {
    data: {
      type: 'returns',
      attributes: { order_reference: order.reference, consumer_address: order.recipient, items: [item(ids, order)], locale: 'en-GB' },
      relationships: { shop: ref('shops', ids.shop), return_method: ref('return-methods', ids.returnMethod) },
    },
  };
}

const reportFilters = (ids: ExampleIds) => ({ created_at: { date_from: ids.now - 30 * 86400, date_to: ids.now }, shops: [ids.shop] });
const isoDay = (ids: ExampleIds, days: number) => new Date((ids.now + days * 86400) * 1000).toISOString().slice(0, 10);

export const returnsExamples: ExampleSet = {
  getReturnAnalyticsApproved: (ids) => ({ query: { 'filter[shop]': ids.shop, 'filter[date_from]': isoDay(ids, -30), 'filter[date_to]': isoDay(ids, 0) } }),
  getMostReturnedItems: (ids) => ({ query: { 'filter[shop]': ids.shop } }),
  getReturnAnalyticsOrders: (ids) => ({
    query: { 'filter[shop]': ids.shop, 'filter[date_from]': isoDay(ids, -30), 'filter[date_to]': isoDay(ids, 0), group_by: 'day' },
  }),
  listDemoOrders: (ids) => ({ query: { 'filter[shop]': ids.shop } }),
  createDemoOrder: (ids) => ({
    body: {
      data: {
        type: 'demo-orders',
        attributes: {
          recipient_address: { ...consumer(ids) },
          items: [
            {
              sku: 'LAMP-1',
              name: 'Desk lamp',
              description: 'Brass desk lamp',
              quantity: 1,
              item_price: { amount: 3999, currency: 'EUR' },
              item_weight: { amount: 1200, unit: 'g' },
            },
          ],
          outbound_shipment_identifier: 'OUT-5001',
        },
        relationships: { shop: ref('shops', ids.shop) },
      },
    },
  }),
  getDemoOrder: (ids) => ({ path: { demo_order_id: ids.order(0).reference } }),
  getOrder: (ids) => ({ path: { reference: ids.order(0).reference }, query: { shop_id: ids.shop, email: ids.order(0).recipient.email } }),
  getShopOrder: (ids) => ({ path: { shop_id: ids.shop, reference: ids.order(0).reference, email: ids.order(0).recipient.email } }),
  allowReturnReissue: (ids) => ({ body: { data: { shop_id: ids.shop, order_reference: ids.order(0).reference } } }),
  getReturnPortal: (ids) => ({ path: { portal_token: ids.page('return-portal', ids.shop) } }),
  getReturnPaymentPage: (ids) => ({ path: { checkout_token: ids.page('payment-page', ids.publicId('return-to-settle-request', 0)) } }),
  settleReturnPayment: (ids) => ({
    path: { checkout_token: ids.page('payment-page', ids.publicId('return-to-settle-request', 0)) },
    body: { outcome: 'paid' },
  }),
  listReturnQuestions: () => ({ headers: { 'Accept-Language': 'en-GB' } }),
  createReturnQuestion: () => ({
    body: {
      data: {
        type: 'return-questions',
        attributes: { code: 'worn-once', description: { 'en-GB': 'Was the item worn?', 'nl-NL': 'Is het artikel gedragen?' }, answer_type: 'boolean' },
      },
    },
  }),
  getReturnQuestion: (ids) => ({ path: { return_question_id: ids.made('return-question') } }),
  updateReturnQuestion: (ids) => ({
    path: { return_question_id: ids.made('return-question') },
    body: { data: { type: 'return-questions', id: ids.made('return-question'), attributes: { description: { 'en-GB': 'Has the item been worn?' } } } },
  }),
  deleteReturnQuestion: (ids) => ({ path: { return_question_id: ids.made('return-question-to-delete') } }),
  listReturnReasons: () => ({ headers: { 'Accept-Language': 'en-GB' } }),
  createReturnReason: () => ({
    body: {
      data: {
        type: 'return-reasons',
        attributes: {
          code: 'arrived-late',
          description: { 'en-GB': 'Arrived too late', 'nl-NL': 'Te laat aangekomen' },
          tags: ['delivery'],
          accepts_attachments: false,
          requires_attachments: false,
          accepts_comment: true,
          requires_comment: false,
        },
      },
    },
  }),
  getReturnReason: (ids) => ({ path: { return_reason_id: ids.returnReason.id } }),
  updateReturnReason: (ids) => ({
    path: { return_reason_id: ids.made('return-reason') },
    body: { data: { type: 'return-reasons', id: ids.made('return-reason'), attributes: { requires_comment: true } } },
  }),
  deleteReturnReason: (ids) => ({ path: { return_reason_id: ids.made('return-reason-to-delete') } }),
  listShopReturnReasons: (ids) => ({ path: { shop_id: ids.shop }, headers: { 'Accept-Language': 'en-GB' } }),
  addShopReturnReasons: (ids) => ({ path: { shop_id: ids.shop }, body: { data: { return_reason_ids: [ids.made('return-reason')] } } }),
  updateShopReturnReason: (ids) => ({
    path: { shop_id: ids.shop, return_reason_id: ids.returnReason.id },
    body: { data: { comment: 'optional', attachments: 'disabled' } },
  }),
  removeShopReturnReason: (ids) => ({ path: { shop_id: ids.shop, return_reason_id: ids.made('return-reason') } }),
  listReturnTags: (ids) => ({ query: { 'filter[shop]': ids.shop } }),
  createReturnTag: (ids) => ({
    body: { data: { type: 'return-tags', attributes: { name: 'Check by hand', color: '#16a34a' }, relationships: { shop: ref('shops', ids.shop) } } },
  }),
  getReturnTag: (ids) => ({ path: { return_tag_id: ids.made('return-tag') } }),
  updateReturnTag: (ids) => ({
    path: { return_tag_id: ids.made('return-tag') },
    body: { data: { type: 'return-tags', id: ids.made('return-tag'), attributes: { color: '#9333ea' } } },
  }),
  deleteReturnTag: (ids) => ({ path: { return_tag_id: ids.made('return-tag-to-delete') } }),
  listReturnMethods: (ids) => ({ query: { 'filter[shop]': ids.shop } }),
  createReturnMethod: (ids) => ({
    body: {
      data: {
        type: 'return-methods',
        attributes: {
          return_type: 'store-drop-off',
          title: 'Bring it to our Amsterdam store',
          description: 'Damrak 1, open daily 10:00-18:00.',
          country_codes: ['NL'],
          address: { ...warehouse, first_name: 'Store', last_name: 'Desk' },
        },
        relationships: { shop: ref('shops', ids.shop) },
      },
    },
  }),
  getReturnMethod: (ids) => ({ path: { return_method_id: ids.returnMethod } }),
  updateReturnMethod: (ids) => ({
    path: { return_method_id: ids.made('return-method') },
    body: { data: { type: 'return-methods', id: ids.made('return-method'), attributes: { description: 'Open daily 09:00-18:00.' } } },
  }),
  deleteReturnMethod: (ids) => ({ path: { return_method_id: ids.made('return-method-to-delete') } }),
  resolveReturnMethods: (ids) => ({
    body: {
      data: {
        order_reference: ids.order(0).reference,
        shop_id: ids.shop,
        consumer_address: { country_code: 'NL', email: ids.order(0).recipient.email, postal_code: ids.order(0).recipient.postal_code },
      },
    },
  }),
  listReturns: (ids) => ({ query: { 'filter[shop]': ids.shop } }),
  createReturn: (ids) => ({ headers: { 'Accept-Language': 'en-GB' }, body: returnBody(ids, ids.order(3)) }),
  getReturn: (ids) => ({ path: { return_id: ids.made('return') } }),
  approveReturn: (ids) => ({ path: { return_id: ids.made('return') } }),
  rejectReturn: (ids) => ({ path: { return_id: ids.made('return-to-reject') }, body: { data: { message: 'The item was used.' } } }),
  requestReturnPayment: (ids) => ({ path: { return_id: ids.made('return-to-charge') }, body: { data: { return_payment: { amount: 495, currency: 'EUR' } } } }),
  tagReturn: (ids) => ({ path: { return_id: ids.made('return-to-tag') }, body: { data: { return_tag_ids: [ids.made('return-tag')] } } }),
  listReturnFiles: (ids) => ({ path: { return_id: ids.made('return') } }),
  retryReturnShipment: (ids) => ({ path: { return_id: ids.made('return-failed') } }),
  requestRecoveryShipment: (ids) => ({
    path: { return_id: ids.made('return-to-recover') },
    query: { hmac: sign(recoveryMessage(ids.made('return-to-recover'))) },
  }),
  openReturnCheckout: (ids) => {
    const url = new URL(checkoutPath(ids.made('return-to-pay'), ids.publicId('return-to-pay-request', 0)), 'http://x');
    return {
      path: { return_id: ids.made('return-to-pay'), payment_id: ids.publicId('return-to-pay-request', 0) },
      query: { hmac: url.searchParams.get('hmac')! },
    };
  },
  listReturnReports: () => ({}),
  createReturnReport: (ids) => ({
    body: { data: { type: 'return-reports', attributes: { name: 'Returns of the last 30 days', filters: reportFilters(ids) } } },
  }),
  countReturnReportEntries: (ids) => ({ body: { data: { type: 'return-reports', attributes: { filters: reportFilters(ids) } } } }),
  getReturnReport: (ids) => ({ path: { report_id: ids.made('return-report') } }),
  deleteReturnReport: (ids) => ({ path: { report_id: ids.made('return-report-to-delete') } }),
  downloadReturnReport: (ids) => ({ path: { report_id: ids.made('return-report'), file_id: ids.made('return-reports-generated', 0) } }),
};
