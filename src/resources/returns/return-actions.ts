import { z } from 'zod';
import { ownOr404 } from '../../domain/returns/access.js';
import { approveReturn, rejectReturn } from '../../domain/returns/decide.js';
import { openCheckout, requestPayment } from '../../domain/returns/payments.js';
import { requestRecoveryShipment, retryShipment } from '../../domain/returns/recovery.js';
import { tagReturn } from '../../domain/returns/tags.js';
import { endpoint } from '../../http/endpoint.js';
import { csvOf } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { toResourceObject } from '../../jsonapi/resource.js';
import { documentTypes } from '../../model/shipment.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { fileKind, fileSchemas } from '../shipments/shipment-kinds.js';
import { returnsScope } from './common.js';
import { paymentRequest, rejectRequest, tagRequest } from './return-requests.js';

const params = z.object({ return_id: z.string() });
const done = () => new Response(null, { status: 204 });
const fileList = z.object({ data: z.array(fileSchemas.resource) }).meta({ id: 'ReturnFileList' });

export const returnActionEndpoints = [
  endpoint({
    method: 'post',
    path: '/returns/v1/returns/{return_id}/approve',
    operationId: 'approveReturn',
    summary: 'Approve a return',
    description: `An open return (pending, or waiting for a payment) becomes \`return-approved\`. With a \`shipment\` method (its service and contract) the return shipment is created at once (the consumer ships it to the return address) and registered REGISTRATION_DELAY seconds later on the sandbox clock; then its label is in \`GET /returns/v1/returns/{return_id}/files\`. A rejected or approved return answers 422.`,
    tag: 'Returns',
    auth: returnsScope,
    params,
    responses: {
      204: { description: 'Approved.' },
      422: { description: 'The return is not open, or its shipment cannot be made (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params: path }) => {
      const row = ownOr404(ctx, 'returns', 'returns', path.return_id);
      await ctx.store.transact((tx) => approveReturn(tx, ctx, row));
      return done();
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/returns/{return_id}/reject',
    operationId: 'rejectReturn',
    summary: 'Reject a return',
    description: `An open return becomes \`return-rejected\`, with \`data.message\` as its \`rejection_message\`. Its items can be returned again.`,
    tag: 'Returns',
    auth: returnsScope,
    params,
    body: rejectRequest,
    bodyOptional: true,
    responses: { 204: { description: 'Rejected.' }, 422: { description: 'The return is not open (10008).', schema: errorDocument } },
    handler: async (ctx, { params: path, body }) => {
      const row = ownOr404(ctx, 'returns', 'returns', path.return_id);
      await ctx.store.transact((tx) => rejectReturn(tx, ctx, row, body?.data?.message));
      return done();
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/returns/{return_id}/tag',
    operationId: 'tagReturn',
    summary: 'Set the tags of a return',
    description: `Replaces the return's tags with \`data.return_tag_ids\` (tags of the return's shop; none without a body), while the return is open, or while it is approved and its return shipment's registration has failed: a retried return shipment takes the tags of then. A decided return otherwise answers 422, as production's.`,
    tag: 'Returns',
    auth: returnsScope,
    params,
    body: tagRequest,
    bodyOptional: true,
    responses: {
      204: { description: 'Tagged.' },
      422: {
        description: "A tag that is not one of the shop's, or a decided return other than an approved one whose return shipment failed to register (10008).",
        schema: errorDocument,
      },
    },
    handler: async (ctx, { params: path, body }) => {
      const row = ownOr404(ctx, 'returns', 'returns', path.return_id);
      await ctx.store.transact((tx) => tagReturn(tx, ctx, row, body?.data.return_tag_ids ?? []));
      return done();
    },
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/returns/{return_id}/files',
    operationId: 'listReturnFiles',
    summary: 'The files of a return',
    description: `The documents of the return shipment once it is registered (the return label; customs documents across borders), downloadable at \`GET /files/{file_id}\`; empty before that and for methods without a shipment.`,
    tag: 'Returns',
    auth: returnsScope,
    params,
    // As on a shipment's files: a list of production's document types, so a typo is a 400, not a silent empty list.
    query: z.object({
      'filter[document_type]': csvOf(documentTypes)
        .optional()
        .describe("Comma separated document types (production's DocumentType); a return shipment has label and customs-declaration-form."),
    }),
    responses: { 200: { description: 'The files.', schema: fileList } },
    handler: (ctx, { params: path, query }) => {
      const row = ownOr404(ctx, 'returns', 'returns', path.return_id);
      const types = query['filter[document_type]'];
      const files = row.shipment_id
        ? ctx.store.find('files', 'shipment_id', row.shipment_id).filter((file) => !types || types.includes(file.document_type))
        : [];
      return jsonApi({ data: files.map((file) => toResourceObject(fileKind, file, ctx)) });
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/returns/{return_id}/retry-shipment',
    operationId: 'retryReturnShipment',
    summary: 'Register a failed return shipment again',
    description: `When the carrier refused the return shipment (\`shipment_registrations\` ends with \`failed\`), sends it again with the return's tags of now, while the return is approved (not once a reissue replaced it); 422 otherwise.`,
    tag: 'Returns',
    auth: returnsScope,
    params,
    responses: {
      204: { description: 'Queued for registration.' },
      422: { description: 'The return shipment did not fail, or the return is no longer approved (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params: path }) => {
      const row = ownOr404(ctx, 'returns', 'returns', path.return_id);
      await ctx.store.transact((tx) => retryShipment(tx, ctx, row));
      return done();
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/returns/{return_id}/request-recovery-shipment',
    operationId: 'requestRecoveryShipment',
    summary: 'Ask for a recovery shipment',
    description: `A consumer's signed link: \`hmac\` is the hex HMAC-SHA256 of \`recovery-shipment:{return_id}\` under the sandbox key \`parcel-sandbox-returns\` (a wrong one is 403). The key is public on purpose, so a portal under test can sign as it would receive a link: the request needs the shop's access token anyway and finds only its own returns. An approved return whose method is a \`shipment\` method with a recovery service and contract gets a new return shipment with them.`,
    tag: 'Returns',
    auth: returnsScope,
    params,
    query: z.object({ hmac: z.string().max(128).describe('The signature of the link.') }),
    responses: {
      204: { description: 'A recovery shipment was created and queued for registration.' },
      403: { description: 'The hmac does not sign this return (10013).', schema: errorDocument },
      422: { description: 'The return is not approved, or its method is not a shipment method with a recovery service (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params: path, query }) => {
      const row = ownOr404(ctx, 'returns', 'returns', path.return_id);
      await ctx.store.transact((tx) => requestRecoveryShipment(tx, ctx, row, query.hmac));
      return done();
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/returns/{return_id}/request-payment',
    operationId: 'requestReturnPayment',
    summary: 'Ask the consumer to pay',
    description: `An open return becomes \`return-payment-pending\` with a \`payment\` of \`data.return_payment\` and a signed \`checkout_url\`. Paid on the sandbox's payment page, the return is approved; failed or cancelled there, or unpaid 24 hours later on the sandbox clock, it is \`return-payment-failed\` (the shop may ask again).`,
    tag: 'Returns',
    auth: returnsScope,
    params,
    body: paymentRequest,
    responses: {
      204: { description: 'The payment is requested.' },
      422: { description: 'The return is not open, or the amount is not positive (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params: path, body }) => {
      const row = ownOr404(ctx, 'returns', 'returns', path.return_id);
      await ctx.store.transact((tx) => requestPayment(tx, ctx, row, body.data.return_payment));
      return done();
    },
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/returns/{return_id}/payment-checkout-url/{payment_id}',
    operationId: 'openReturnCheckout',
    summary: 'Open the checkout of a payment',
    description: `The \`checkout_url\` of a return's payment: \`hmac\` is the hex HMAC-SHA256 of \`payment-checkout:{return_id}:{payment_id}\` under the sandbox key \`parcel-sandbox-returns\` (a wrong one is 403). The key is public on purpose, so a portal under test can sign as it would receive a link: the request needs the shop's access token anyway and finds only its own returns. Redirects to the sandbox's payment page, whose token (a random payment id signed with a secret of this sandbox) is what opens it without a token.`,
    tag: 'Returns',
    auth: returnsScope,
    params: z.object({ return_id: z.string(), payment_id: z.string() }),
    query: z.object({ hmac: z.string().max(128).describe('The signature of the link.') }),
    responses: {
      302: { description: 'To the payment page (`Location`).' },
      403: { description: 'The hmac does not sign this payment (10013).', schema: errorDocument },
      422: { description: 'The payment was paid already or is no longer the open one (10008).', schema: errorDocument },
    },
    handler: (ctx, { params: path, query }) => {
      const row = ownOr404(ctx, 'returns', 'returns', path.return_id);
      return new Response(null, { status: 302, headers: { location: ctx.url(openCheckout(ctx, row, path.payment_id, query.hmac)) } });
    },
  }),
];
