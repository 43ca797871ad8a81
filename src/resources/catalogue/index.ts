import type { SandboxModule } from '../../http/module.js';
import { carrierEndpoints, carrierKind } from './carriers.js';
import { carrierSurchargeEndpoints, carrierSurchargeKind } from './carrier-surcharges.js';
import { customsHelperEndpoints } from './customs-helpers.js';
import { localeEndpoint, localeKind } from './locales.js';
import { pickupLocationEndpoints, pickupLocationKind } from './pickup-locations.js';
import { regionEndpoints, regionKind } from './regions.js';
import { serviceEndpoints, serviceKind } from './services.js';
import { serviceOptionEndpoints, serviceOptionKind } from './service-options.js';
import { serviceRateEndpoints } from './service-rates.js';
import { serviceRateKind } from './service-rate-kind.js';
import { serviceRateWriteEndpoints } from './service-rate-writes.js';
import { statusEndpoints, statusKind } from './statuses.js';
import { zoneEndpoints, zoneKind } from './zones.js';

/** What carriers offer: carriers, services, options, rates, regions, zones, statuses, surcharges, pickup points and the customs helpers. */
export const catalogueModule: SandboxModule = {
  kinds: [carrierKind, serviceKind, serviceOptionKind, serviceRateKind, regionKind, zoneKind, statusKind, localeKind, carrierSurchargeKind, pickupLocationKind],
  endpoints: [
    ...carrierEndpoints,
    ...serviceEndpoints,
    ...serviceOptionEndpoints,
    ...serviceRateEndpoints,
    ...serviceRateWriteEndpoints,
    ...regionEndpoints,
    ...zoneEndpoints,
    ...statusEndpoints,
    localeEndpoint,
    ...customsHelperEndpoints,
    ...carrierSurchargeEndpoints,
    ...pickupLocationEndpoints,
  ],
};
