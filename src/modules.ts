import { tokenEndpoints } from './auth/token-endpoints.js';
import type { SandboxModule } from './module.js';
import { carrierEndpoints, carrierKind } from './resources/carriers.js';
import { contractKind, liabilityCoverageKind } from './resources/contract-kind.js';
import { contractReadEndpoints } from './resources/contracts.js';
import { contractWriteEndpoints } from './resources/contract-writes.js';
import { VERIFY_CONTRACT, verifyContractJob } from './domain/contract-verification.js';
import { brokerEndpoints, brokerKind, organizationEndpoints, organizationKind } from './resources/organizations.js';
import { regionEndpoints, regionKind } from './resources/regions.js';
import { serviceOptionEndpoints, serviceOptionKind } from './resources/service-options.js';
import { serviceEndpoints, serviceKind } from './resources/services.js';
import { serviceRateEndpoints } from './resources/service-rates.js';
import { serviceRateKind } from './resources/service-rate-kind.js';
import { shopEndpoints, shopKind } from './resources/shops.js';
import { logoEndpoints } from './resources/logos.js';
import { statusEndpoints, statusKind } from './resources/statuses.js';
import { controlEndpoints } from './sandbox/control.js';

/** Every area of the sandbox, in the order its endpoints are registered. */
export const modules: readonly SandboxModule[] = [
  { endpoints: tokenEndpoints },
  { kinds: [carrierKind], endpoints: carrierEndpoints },
  { kinds: [serviceKind], endpoints: serviceEndpoints },
  { kinds: [serviceOptionKind], endpoints: serviceOptionEndpoints },
  { kinds: [serviceRateKind], endpoints: serviceRateEndpoints },
  { kinds: [regionKind], endpoints: regionEndpoints },
  { kinds: [statusKind], endpoints: statusEndpoints },
  { kinds: [organizationKind, brokerKind], endpoints: [...organizationEndpoints, ...brokerEndpoints] },
  {
    kinds: [contractKind, liabilityCoverageKind],
    endpoints: [...contractReadEndpoints, ...contractWriteEndpoints],
    jobs: { [VERIFY_CONTRACT]: verifyContractJob },
  },
  { kinds: [shopKind], endpoints: [...shopEndpoints, ...logoEndpoints] },
  { endpoints: controlEndpoints },
];
