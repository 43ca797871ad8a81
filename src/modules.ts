import { tokenEndpoints } from './auth/token-endpoints.js';
import type { SandboxModule } from './module.js';
import { carrierEndpoints, carrierKind } from './resources/carriers.js';
import { contractKind, liabilityCoverageKind } from './resources/contract-kind.js';
import { contractReadEndpoints } from './resources/contracts.js';
import { contractWriteEndpoints } from './resources/contract-writes.js';
import { contractActionEndpoints } from './resources/contract-actions.js';
import { VERIFY_CONTRACT, verifyContractJob } from './domain/contract-verification.js';
import { brokerEndpoints, brokerKind, organizationEndpoints, organizationKind } from './resources/organizations.js';
import { organizationWriteEndpoints } from './resources/organization-writes.js';
import { organizationContractEndpoints } from './resources/organization-contracts.js';
import { brokerWriteEndpoints } from './resources/broker-writes.js';
import { contractTemplateEndpoints, contractTemplateKind } from './resources/contract-templates.js';
import { addressEndpoints, addressKind } from './resources/addresses.js';
import { suggestAddressEndpoint } from './resources/suggest-address.js';
import { zoneEndpoints, zoneKind } from './resources/zones.js';
import { localeEndpoint, localeKind } from './resources/locales.js';
import { customsHelperEndpoints } from './resources/customs-helpers.js';
import { regionEndpoints, regionKind } from './resources/regions.js';
import { serviceOptionEndpoints, serviceOptionKind } from './resources/service-options.js';
import { serviceEndpoints, serviceKind } from './resources/services.js';
import { serviceRateEndpoints } from './resources/service-rates.js';
import { serviceRateKind } from './resources/service-rate-kind.js';
import { serviceRateWriteEndpoints } from './resources/service-rate-writes.js';
import { shopEndpoints, shopKind } from './resources/shops.js';
import { shopDeleteEndpoint } from './resources/shop-delete.js';
import { logoEndpoints } from './resources/logos.js';
import { statusEndpoints, statusKind } from './resources/statuses.js';
import { collectionKind } from './resources/collection-kind.js';
import { collectionEndpoints } from './resources/collections.js';
import { collectionWriteEndpoints } from './resources/collection-writes.js';
import { collectionCreateEndpoint } from './resources/collection-create.js';
import { collectionRpcEndpoints } from './resources/collection-rpc.js';
import { collectionScheduleEndpoints, collectionScheduleKind } from './resources/collection-schedules.js';
import { collectionSlotEndpoints, collectionTimeSlotKind } from './resources/collection-slots.js';
import { manifestKind } from './resources/manifest-kinds.js';
import { filesKind } from './resources/files-kind.js';
import { manifestEndpoints } from './resources/manifests.js';
import { COLLECT_COLLECTION, collectCollectionJob } from './domain/collections/lifecycle.js';
import { TOP_UP_SCHEDULE, topUpScheduleJob } from './domain/collections/schedules.js';
import { pickupLocationEndpoints, pickupLocationKind } from './resources/pickup-locations.js';
import { controlEndpoints } from './controls/control.js';
import { visitorEndpoints } from './controls/visitor.js';
import { EXPIRE_TENANT, expireTenantJob } from './domain/tenant-lifetime.js';
import { REGISTER_SHIPMENT, registerShipmentJob } from './domain/shipments/registration.js';
import { WALK_SHIPMENT, walkShipmentJob } from './domain/shipments/walk.js';
import { shipmentKind, shipmentStatusKind } from './resources/shipment-kinds.js';
import { shipmentReadEndpoints } from './resources/shipments.js';
import { shipmentWriteEndpoints } from './resources/shipment-writes.js';
import { shipmentStatusEndpoints } from './resources/shipment-statuses.js';
import { shipmentSurchargeEndpoints, shipmentSurchargeKind } from './resources/shipment-surcharges.js';
import { shipmentRpcEndpoints } from './resources/shipment-rpc.js';
import { registeredShipmentEndpoints } from './resources/registered-shipments.js';
import { multiColliShipmentEndpoints } from './resources/multi-colli-shipments.js';
import { trackingRpcEndpoints } from './resources/tracking-rpc.js';
import { deliveryDateEndpoints } from './resources/delivery-dates.js';
import { consolidationEndpoints } from './resources/consolidation.js';
import { carrierSurchargeEndpoints, carrierSurchargeKind } from './resources/carrier-surcharges.js';
import { trackingPageEndpoints } from './resources/tracking-page.js';
import { fileEndpoints } from './resources/files.js';
import { combineFileEndpoints } from './resources/combine-files.js';
import { hookEndpoints } from './resources/hooks.js';
import { hookKind, hookLogKind } from './resources/hook-kinds.js';
import { DELIVER_WEBHOOK, deliverWebhookJob } from './domain/hooks/webhooks.js';
import { docsEndpoints } from './docs/docs-page.js';
import { returnsModule } from './resources/returns/index.js';

/** Every area of the sandbox, in the order its endpoints are registered. */
export const modules: readonly SandboxModule[] = [
  { endpoints: tokenEndpoints },
  { kinds: [carrierKind], endpoints: carrierEndpoints },
  { kinds: [serviceKind], endpoints: serviceEndpoints },
  { kinds: [serviceOptionKind], endpoints: serviceOptionEndpoints },
  { kinds: [serviceRateKind], endpoints: [...serviceRateEndpoints, ...serviceRateWriteEndpoints] },
  { kinds: [regionKind], endpoints: regionEndpoints },
  { kinds: [zoneKind], endpoints: zoneEndpoints },
  { kinds: [statusKind], endpoints: statusEndpoints },
  {
    kinds: [organizationKind, brokerKind],
    endpoints: [...organizationEndpoints, ...organizationWriteEndpoints, ...organizationContractEndpoints, ...brokerEndpoints, ...brokerWriteEndpoints],
  },
  {
    kinds: [contractKind, liabilityCoverageKind, contractTemplateKind],
    endpoints: [...contractTemplateEndpoints, ...contractReadEndpoints, ...contractWriteEndpoints, ...contractActionEndpoints],
    jobs: { [VERIFY_CONTRACT]: verifyContractJob },
  },
  { kinds: [shopKind], endpoints: [...shopEndpoints, shopDeleteEndpoint, ...logoEndpoints] },
  { kinds: [addressKind], endpoints: [...addressEndpoints, suggestAddressEndpoint] },
  { kinds: [localeKind], endpoints: [localeEndpoint] },
  { endpoints: customsHelperEndpoints },
  {
    // Files of shipments, manifests and return reports, which `include` reaches through one kind.
    kinds: [shipmentKind, shipmentStatusKind, shipmentSurchargeKind, filesKind],
    endpoints: [
      ...shipmentReadEndpoints,
      ...shipmentWriteEndpoints,
      ...registeredShipmentEndpoints,
      ...multiColliShipmentEndpoints,
      ...shipmentStatusEndpoints,
      ...shipmentSurchargeEndpoints,
      ...shipmentRpcEndpoints,
      ...trackingRpcEndpoints,
      ...deliveryDateEndpoints,
      ...consolidationEndpoints,
      ...trackingPageEndpoints,
      ...fileEndpoints,
      ...combineFileEndpoints,
    ],
    jobs: { [REGISTER_SHIPMENT]: registerShipmentJob, [WALK_SHIPMENT]: walkShipmentJob },
  },
  { kinds: [carrierSurchargeKind], endpoints: carrierSurchargeEndpoints },
  {
    kinds: [collectionKind, collectionTimeSlotKind, collectionScheduleKind, manifestKind],
    endpoints: [
      ...collectionEndpoints,
      collectionCreateEndpoint,
      ...collectionWriteEndpoints,
      ...collectionRpcEndpoints,
      ...collectionSlotEndpoints,
      ...collectionScheduleEndpoints,
      ...manifestEndpoints,
    ],
    jobs: { [COLLECT_COLLECTION]: collectCollectionJob, [TOP_UP_SCHEDULE]: topUpScheduleJob },
  },
  { kinds: [pickupLocationKind], endpoints: pickupLocationEndpoints },
  { kinds: [hookKind, hookLogKind], endpoints: hookEndpoints, jobs: { [DELIVER_WEBHOOK]: deliverWebhookJob } },
  returnsModule,
  { endpoints: [...controlEndpoints, ...visitorEndpoints], jobs: { [EXPIRE_TENANT]: expireTenantJob } },
  { endpoints: docsEndpoints },
];
