import { tokenEndpoints } from './auth/token-endpoints.js';
import type { SandboxModule } from './http/module.js';
import { controlEndpoints } from './controls/control.js';
import { visitorEndpoints } from './controls/visitor.js';
import { EXPIRE_TENANT, expireTenantJob } from './domain/tenant-lifetime.js';
import { docsEndpoints } from './docs/docs-page.js';
import { accountsModule } from './resources/accounts/index.js';
import { catalogueModule } from './resources/catalogue/index.js';
import { collectionsModule } from './resources/collections/index.js';
import { hooksModule } from './resources/hooks/index.js';
import { returnsModule } from './resources/returns/index.js';
import { shipmentsModule } from './resources/shipments/index.js';

/** Every area of the sandbox, in the order its endpoints are registered. */
export const modules: readonly SandboxModule[] = [
  { endpoints: tokenEndpoints },
  catalogueModule,
  accountsModule,
  shipmentsModule,
  collectionsModule,
  hooksModule,
  returnsModule,
  { endpoints: [...controlEndpoints, ...visitorEndpoints], jobs: { [EXPIRE_TENANT]: expireTenantJob } },
  { endpoints: docsEndpoints },
];
