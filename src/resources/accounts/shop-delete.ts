import { z } from 'zod';
import { removeShop, returnsOfShop, shipmentsOfShop } from '../../domain/removals.js';
import { endpoint } from '../../http/endpoint.js';
import { ApiError } from '../../jsonapi/errors.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { findOr404 } from '../lookup.js';
import { shopVisible } from './shops.js';

/*
 * A shop with shipments is refused with 422/10008, not 409/10007: the sandbox keeps 409 for a body
 * whose type or id does not match the URL, and a broken business rule is 422 throughout (as when
 * a contract status cannot be switched). Shipments need their shop (sender, tracking page,
 * hooks), and registered ones cannot be deleted, so the shop stays while it has any.
 */
export const shopDeleteEndpoint = endpoint({
  method: 'delete',
  path: '/shops/{shop_id}',
  operationId: 'deleteShop',
  summary: 'Delete a shop',
  description:
    'Only a shop without shipments can be deleted (delete its concept shipments first; registered ones stay, and so does their shop). ' +
    'Its uploaded logo, the hooks it owns (with their logs) and its collections go with it.',
  tag: 'Shops',
  auth: { anyOf: ['organizations.manage'] },
  params: z.object({ shop_id: z.string() }),
  responses: {
    204: { description: 'Deleted, with its logo, hooks, collections and returns configuration (methods, tags, offered reasons, demo orders).' },
    422: { description: 'The shop has shipments or returns (10008).', schema: errorDocument },
  },
  handler: async (ctx, { params }) => {
    const shop = findOr404(ctx, 'shops', 'shops', params.shop_id, (row) => shopVisible(ctx, row));
    const { store } = ctx;
    const { clock } = ctx;
    await store.transact((tx) => {
      // Checked inside the transaction, so a shipment created meanwhile cannot be orphaned.
      const shipments = shipmentsOfShop(tx, shop.id).length;
      if (shipments > 0) {
        throw ApiError.unprocessable(
          `Shop '${shop.id}' has ${shipments} shipment${shipments === 1 ? '' : 's'} and cannot be deleted: shipments need their shop. ` +
            'Delete its concept shipments first; a shop with registered shipments stays.',
        );
      }
      const returns = returnsOfShop(tx, shop.id);
      if (returns > 0) {
        throw ApiError.unprocessable(`Shop '${shop.id}' has ${returns} return${returns === 1 ? '' : 's'} and cannot be deleted: returns need their shop.`);
      }
      removeShop(tx, shop.id, clock.now());
    });
    return new Response(null, { status: 204 });
  },
});
