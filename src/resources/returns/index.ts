import type { SandboxModule } from '../../module.js';
import { reasonKind, questionKind, returnMethodKind, returnTagKind } from './config-kinds.js';
import { methodEndpoints } from './methods.js';
import { demoOrderKind, orderKind } from './order-kinds.js';
import { orderEndpoints } from './orders.js';
import { questionEndpoints } from './questions.js';
import { reasonEndpoints } from './reasons.js';
import { shopReasonEndpoints } from './shop-reasons.js';
import { tagEndpoints } from './tags.js';

/** The returns product: configuration, orders, returns, payments, reports and analytics. */
export const returnsModule: SandboxModule = {
  kinds: [reasonKind(undefined), questionKind(undefined), returnTagKind, returnMethodKind, demoOrderKind, orderKind],
  endpoints: [...reasonEndpoints, ...questionEndpoints, ...shopReasonEndpoints, ...tagEndpoints, ...methodEndpoints, ...orderEndpoints],
};
