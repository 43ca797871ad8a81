import type { SandboxModule } from '../../http/module.js';
import { reasonKind, questionKind, returnMethodKind, returnTagKind } from './config-kinds.js';
import { methodEndpoints } from './methods.js';
import { demoOrderKind, orderKind } from './order-kinds.js';
import { orderEndpoints } from './orders.js';
import { questionEndpoints } from './questions.js';
import { reasonEndpoints } from './reasons.js';
import { shopReasonEndpoints } from './shop-reasons.js';
import { tagEndpoints } from './tags.js';
import { returnKind } from './return-kinds.js';
import { returnEndpoints } from './returns.js';
import { returnActionEndpoints } from './return-actions.js';
import { portalEndpoints } from './portal.js';
import { EXPIRE_RETURN_PAYMENT, expirePaymentJob } from '../../domain/returns/payments.js';
import { GENERATE_RETURN_REPORT, generateReportJob } from '../../domain/returns/reports.js';
import { analyticsEndpoints } from './analytics.js';
import { reportEndpoints } from './reports.js';
import { returnReportKind } from './report-kinds.js';

/** The returns product: configuration, orders, returns, payments, reports and analytics. */
export const returnsModule: SandboxModule = {
  kinds: [reasonKind(undefined), questionKind(undefined), returnTagKind, returnMethodKind, demoOrderKind, orderKind, returnKind(), returnReportKind],
  endpoints: [
    ...reasonEndpoints,
    ...questionEndpoints,
    ...shopReasonEndpoints,
    ...tagEndpoints,
    ...methodEndpoints,
    ...orderEndpoints,
    ...returnEndpoints,
    ...returnActionEndpoints,
    ...reportEndpoints,
    ...analyticsEndpoints,
    ...portalEndpoints,
  ],
  jobs: { [EXPIRE_RETURN_PAYMENT]: expirePaymentJob, [GENERATE_RETURN_REPORT]: generateReportJob },
};
