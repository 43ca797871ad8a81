import type { SandboxModule } from '../../http/module.js';
import { COLLECT_COLLECTION, collectCollectionJob } from '../../domain/collections/lifecycle.js';
import { TOP_UP_SCHEDULE, topUpScheduleJob } from '../../domain/collections/schedules.js';
import { collectionCreateEndpoint } from './collection-create.js';
import { collectionKind } from './collection-kind.js';
import { collectionRpcEndpoints } from './collection-rpc.js';
import { collectionScheduleEndpoints, collectionScheduleKind } from './collection-schedules.js';
import { collectionSlotEndpoints, collectionTimeSlotKind } from './collection-slots.js';
import { collectionWriteEndpoints } from './collection-writes.js';
import { collectionEndpoints } from './collections.js';
import { manifestKind } from './manifest-kinds.js';
import { manifestEndpoints } from './manifests.js';

/** Collections (pick-ups) of shipments, their time slots and schedules, and the manifests they produce. */
export const collectionsModule: SandboxModule = {
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
};
