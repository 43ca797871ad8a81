import type { SandboxModule } from '../../http/module.js';
import { VERIFY_CONTRACT, verifyContractJob } from '../../domain/contract-verification.js';
import { addressEndpoints, addressKind } from './addresses.js';
import { brokerWriteEndpoints } from './broker-writes.js';
import { contractActionEndpoints } from './contract-actions.js';
import { contractKind, liabilityCoverageKind } from './contract-kind.js';
import { contractTemplateEndpoints, contractTemplateKind } from './contract-templates.js';
import { contractWriteEndpoints } from './contract-writes.js';
import { contractReadEndpoints } from './contracts.js';
import { logoEndpoints } from './logos.js';
import { organizationContractEndpoints } from './organization-contracts.js';
import { organizationWriteEndpoints } from './organization-writes.js';
import { brokerEndpoints, brokerKind, organizationEndpoints, organizationKind } from './organizations.js';
import { shopDeleteEndpoint } from './shop-delete.js';
import { shopEndpoints, shopKind } from './shops.js';
import { suggestAddressEndpoint } from './suggest-address.js';
import { systemMessageEndpoints, systemMessageKind } from './system-messages.js';

/** Who ships: organizations and brokers (with their system messages), their contracts with carriers, shops and addresses. */
export const accountsModule: SandboxModule = {
  kinds: [organizationKind, brokerKind, contractKind, liabilityCoverageKind, contractTemplateKind, shopKind, addressKind, systemMessageKind],
  endpoints: [
    ...organizationEndpoints,
    ...organizationWriteEndpoints,
    ...organizationContractEndpoints,
    ...brokerEndpoints,
    ...brokerWriteEndpoints,
    // Before the contracts' reads: `/contracts/v1/templates` must not be taken for `/contracts/{id}`.
    ...contractTemplateEndpoints,
    ...contractReadEndpoints,
    ...contractWriteEndpoints,
    ...contractActionEndpoints,
    ...shopEndpoints,
    shopDeleteEndpoint,
    ...logoEndpoints,
    ...addressEndpoints,
    suggestAddressEndpoint,
    ...systemMessageEndpoints,
  ],
  jobs: { [VERIFY_CONTRACT]: verifyContractJob },
};
