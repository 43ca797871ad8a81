import type { SandboxModule } from '../../http/module.js';
import { REGISTER_SHIPMENT, registerShipmentJob } from '../../domain/shipments/registration.js';
import { WALK_SHIPMENT, walkShipmentJob } from '../../domain/shipments/walk.js';
import { combineFileEndpoints } from './combine-files.js';
import { consolidationEndpoints } from './consolidation.js';
import { deliveryDateEndpoints } from './delivery-dates.js';
import { fileEndpoints } from './files.js';
import { filesKind } from './files-kind.js';
import { multiColliShipmentEndpoints } from './multi-colli-shipments.js';
import { registeredShipmentEndpoints } from './registered-shipments.js';
import { shipmentKind, shipmentStatusKind } from './shipment-kinds.js';
import { shipmentRpcEndpoints } from './shipment-rpc.js';
import { shipmentStatusEndpoints } from './shipment-statuses.js';
import { shipmentSurchargeEndpoints, shipmentSurchargeKind } from './shipment-surcharges.js';
import { shipmentWriteEndpoints } from './shipment-writes.js';
import { shipmentReadEndpoints } from './shipments.js';
import { trackingPageEndpoints } from './tracking-page.js';
import { trackingRpcEndpoints } from './tracking-rpc.js';

/** Shipments from creation to label and delivery, their statuses, surcharges, files and tracking. */
export const shipmentsModule: SandboxModule = {
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
};
