/**
 * The returns product's part of the matrices' two-tenant world: what populate() makes through the
 * API for each tenant, the path parameters each returns action needs to succeed, the query
 * parameters some require, and valid bodies of the returns operations.
 */
import type { Endpoint } from '../../src/http/endpoint.js';
import type { ReadView } from '../../src/store/store.js';
import { checkoutMessage } from '../../src/domain/returns/payments.js';
import { recoveryMessage } from '../../src/domain/returns/recovery.js';
import { sign } from '../../src/domain/returns/signing.js';
import type { Answer, Json, TestSandbox } from './app.js';

export interface TenantReturns {
  orderId: string;
  methodId: string;
  /** Open (pending): approve, reject, tag and request-payment work on it. */
  pendingId: string;
  /** Waiting for `paymentId` to be paid. */
  payingId: string;
  paymentId: string;
  /** Approved, its shipment refused by the carrier (a sandbox trigger tag): retry-shipment works on it. */
  failedId: string;
  /** Approved with a registered shipment, its method with a recovery service. */
  approvedId: string;
  reportId: string;
}

interface Caller {
  token: string;
  shopId: string;
  apiShopId: string;
  world: { shops: Json[] };
}

async function must(answer: Promise<Answer>, status: number, what: string): Promise<Json> {
  const got = await answer;
  if (got.status !== status) throw new Error(`${what}: expected ${status}, got ${got.status}: ${got.text.slice(0, 400)}`);
  return got.body;
}

/** A demo order of ten lamps in the shop, with the recipient's e-mail address. */
export function demoOrderBody(shop: Json): Json {
  const country = shop.attributes.sender_address.country_code;
  return {
    data: {
      type: 'demo-orders',
      attributes: {
        recipient_address: {
          first_name: 'Matrix',
          last_name: 'Consumer',
          street_1: 'Main Street',
          street_number: 1,
          postal_code: country === 'GB' ? 'SW1A 1AA' : '1011 AB',
          city: 'Town',
          country_code: country,
          email: 'matrix@example.com',
        },
        items: [
          { sku: 'LAMP-10', name: 'Lamp', description: 'Desk lamp', quantity: 10, item_price: { amount: 2500, currency: country === 'GB' ? 'GBP' : 'EUR' } },
        ],
      },
      relationships: { shop: { data: { type: 'shops', id: shop.id } } },
    },
  };
}

function returnCreateBody(store: ReadView, caller: Caller, returns: TenantReturns, tagId?: string): Json {
  const order = store.get('demoOrders', returns.orderId)!;
  return {
    data: {
      type: 'returns',
      attributes: {
        order_reference: order.id,
        consumer_address: order.recipient_address,
        items: [{ id: order.items[0]!.id, quantity: 1, reason: { code: 'changed-mind' } }],
      },
      relationships: {
        shop: { data: { type: 'shops', id: caller.shopId } },
        return_method: { data: { type: 'return-methods', id: returns.methodId } },
        ...(tagId ? { tags: { data: { type: 'return-tags', id: tagId } } } : {}),
      },
    },
  };
}

/** Returns in each state, through the API; the clock must then move for registrations and the report. */
export async function populateReturns(sandbox: TestSandbox, caller: Caller): Promise<TenantReturns> {
  const { token } = caller;
  const post = (path: string, body?: Json) => sandbox.request('POST', path, { token, body });
  const shop = caller.world.shops.find((row) => row.id === caller.shopId)!;
  const reasons = (await must(sandbox.get('/returns/v1/reasons?page[size]=100', token), 200, 'reasons')).data.map((row: Json) => row.id);
  await must(post(`/returns/v1/shops/${caller.apiShopId}/reasons`, { data: { return_reason_ids: reasons } }), 204, 'shop reasons');
  const order = (await must(post('/returns/v1/demo-orders', demoOrderBody(shop)), 201, 'demo order')).data;
  const method = (await must(sandbox.get(`/returns/v1/return-methods?filter[shop]=${shop.id}`, token), 200, 'methods')).data.find(
    (row: Json) => row.attributes.return_type === 'shipment',
  );
  await must(
    sandbox.request('PATCH', `/returns/v1/return-methods/${method.id}`, {
      token,
      body: {
        data: {
          type: 'return-methods',
          id: method.id,
          relationships: { recovery_service: method.relationships.service, recovery_contract: method.relationships.contract },
        },
      },
    }),
    200,
    'recovery service',
  );
  const trigger = (
    await must(
      post('/returns/v1/tags', {
        data: {
          type: 'return-tags',
          attributes: { name: 'sandbox:registration-failed', color: '#000000' },
          relationships: { shop: { data: { type: 'shops', id: shop.id } } },
        },
      }),
      201,
      'tag',
    )
  ).data;
  const partial: TenantReturns = {
    orderId: order.id,
    methodId: method.id,
    pendingId: '',
    payingId: '',
    paymentId: '',
    failedId: '',
    approvedId: '',
    reportId: '',
  };
  const create = async (tagId?: string) =>
    (await must(post('/returns/v1/returns', returnCreateBody(sandbox.store, caller, partial, tagId)), 201, 'return')).data.id as string;
  partial.pendingId = await create();
  partial.payingId = await create();
  await must(post(`/returns/v1/returns/${partial.payingId}/request-payment`, { data: { return_payment: { amount: 500, currency: 'EUR' } } }), 204, 'payment');
  partial.paymentId = sandbox.store.get('returns', partial.payingId)!.payment_id!;
  partial.failedId = await create(trigger.id);
  await must(post(`/returns/v1/returns/${partial.failedId}/approve`), 204, 'approve (to fail)');
  partial.approvedId = await create();
  await must(post(`/returns/v1/returns/${partial.approvedId}/approve`), 204, 'approve');
  partial.reportId = (
    await must(post('/returns/v1/reports', { data: { type: 'return-reports', attributes: { name: 'Matrix report', filters: {} } } }), 201, 'report')
  ).data.id;
  return partial;
}

/** Path parameters a returns action needs to succeed: the return in the right state. */
export function preferredReturnParams(endpoint: Endpoint, returns: TenantReturns): Record<string, string> {
  switch (endpoint.operationId) {
    case 'approveReturn':
    case 'rejectReturn':
    case 'tagReturn':
    case 'requestReturnPayment':
      return { return_id: returns.pendingId };
    case 'retryReturnShipment':
      return { return_id: returns.failedId };
    case 'requestRecoveryShipment':
      return { return_id: returns.approvedId };
    case 'openReturnCheckout':
      return { return_id: returns.payingId, payment_id: returns.paymentId };
    default:
      return {};
  }
}

/** The query string an operation requires (signatures, the order look-up's shop and e-mail address), with its `?`. */
export function requiredQuery(store: ReadView, endpoint: Endpoint, params: Record<string, string>): string {
  switch (endpoint.operationId) {
    case 'getOrder': {
      const order = store.get('demoOrders', params.reference!);
      return order ? `?shop_id=${order.shop_id}&email=${encodeURIComponent(order.recipient_address.email)}` : '';
    }
    case 'requestRecoveryShipment':
      return `?hmac=${sign(recoveryMessage(params.return_id!))}`;
    case 'openReturnCheckout':
      return `?hmac=${sign(checkoutMessage(params.return_id!, params.payment_id!))}`;
    default:
      return '';
  }
}

/** Valid bodies of the returns operations, as `caller` would send them. */
export function returnsValidBody(
  store: ReadView,
  endpoint: Endpoint,
  caller: Caller & { organizationId: string; returns: TenantReturns },
  _params: Record<string, string>,
): Json | undefined {
  const firstReason = store.find('returnReasons', 'organization_id', caller.organizationId)[0];
  const order = caller.returns ? store.get('demoOrders', caller.returns.orderId) : undefined;
  switch (endpoint.operationId) {
    case 'addShopReturnReasons':
      return { data: { return_reason_ids: firstReason ? [firstReason.id] : [] } };
    case 'updateShopReturnReason':
      return { data: { comment: 'optional' } };
    case 'createDemoOrder':
      return demoOrderBody(caller.world.shops.find((row) => row.id === caller.shopId)!);
    case 'resolveReturnMethods':
      return (
        order && {
          data: {
            order_reference: order.id,
            shop_id: order.shop_id,
            consumer_address: { country_code: order.recipient_address.country_code, email: order.recipient_address.email },
          },
        }
      );
    case 'createReturn':
      return caller.returns && returnCreateBody(store, caller, caller.returns);
    case 'allowReturnReissue':
      return order && { data: { shop_id: order.shop_id, order_reference: order.id } };
    case 'tagReturn':
      return { data: { return_tag_ids: [] } };
    case 'rejectReturn':
      return { data: { message: 'Rejected by the matrix' } };
    case 'requestReturnPayment':
      return { data: { return_payment: { amount: 100, currency: 'EUR' } } };
    case 'createReturnReport':
      return { data: { type: 'return-reports', attributes: { name: 'Matrix', filters: {} } } };
    case 'countReturnReportEntries':
      return { data: { type: 'return-reports', attributes: { filters: {} } } };
    case 'settleReturnPayment':
      return { outcome: 'paid' };
    default:
      return undefined;
  }
}
