import { z } from 'zod';
import { organizationOf, ownShop } from '../../domain/returns/access.js';
import { offeredMethods } from '../../domain/returns/methods.js';
import { orderFor } from '../../domain/returns/orders.js';
import { DomainError } from '../../domain/errors.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { toResourceObject } from '../../jsonapi/resource.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { countryCode, emailAddress, uuid } from '../../model/common.js';
import { returnsScope } from './common.js';
import { methodSchemas, returnMethodKindAt } from './config-kinds.js';

const resolveRequest = z
  .strictObject({
    data: z.object({
      order_reference: z.string().min(1).max(255),
      shop_id: uuid,
      consumer_address: z
        .object({ country_code: countryCode, email: emailAddress().optional(), postal_code: z.string().min(1).max(20).optional() })
        .refine((address) => address.email !== undefined || address.postal_code !== undefined, 'needs the email or the postal_code of the order'),
      weight: z.number().int().min(1).max(2147483647).optional().describe('Grams: prices in `meta` are for this weight.'),
      shipping_and_return: z.boolean().optional(),
      label_in_the_box: z.boolean().optional(),
      items: z
        .array(z.object({ reason: z.object({ code: z.string() }) }))
        .max(500)
        .optional(),
    }),
  })
  .meta({ id: 'ReturnMethodResolveRequest' });

const resolveDocument = z.object({ data: z.array(methodSchemas.resource) }).meta({ id: 'ReturnMethodResolveDocument' });

export const resolveEndpoint = endpoint({
  method: 'post',
  path: '/returns/v1/return-methods/resolve',
  operationId: 'resolveReturnMethods',
  summary: 'Which return methods a consumer can use',
  description:
    "What a return portal asks once the consumer found the order: the shop's methods offered in the consumer's country whose carrier ships from there to the return address, with the label price in `meta`: what the return shipment is charged at `weight` from the consumer's country (a carrier may price a border crossing higher), the organization's carrier surcharges included. The order must be the shop's and the consumer must name its e-mail address or postal code. The sandbox answers the same methods whatever `shipping_and_return`, `label_in_the_box` and the items' reasons say.",
  tag: 'Return methods',
  auth: returnsScope,
  body: resolveRequest,
  responses: {
    200: { description: 'The methods the consumer can choose from (maybe none).', schema: resolveDocument },
    422: { description: "A shop other than the caller's, or no such order with that e-mail address or postal code (10008).", schema: errorDocument },
  },
  handler: (ctx, { body }) => {
    const { data } = body;
    const shop = ownShop(ctx.store, organizationOf(ctx), data.shop_id);
    if (!shop) throw DomainError.unprocessable(`No shop with id '${data.shop_id}' is available to you.`, { input: 'shop_id' });
    const proof = data.consumer_address.email !== undefined ? { email: data.consumer_address.email } : { postal_code: data.consumer_address.postal_code };
    orderFor(ctx, shop.id, data.order_reference, proof, { input: 'order_reference' });
    // Priced for this consumer: from their country, across a border or not.
    const kind = returnMethodKindAt(data.weight, data.consumer_address.country_code);
    return jsonApi({ data: offeredMethods(ctx, shop, data.consumer_address).map((method) => toResourceObject(kind, method, ctx)) });
  },
});
