import { perConfig, type AppConfig } from '../../platform/core/config';
import { attachableImage } from '../media';
import { paymentCommands } from '../payments';
import { deliverySettings } from './delivery.config';
import { handoverBeforeKit } from './delivery.handover';
import type { JobPoolPort } from './delivery.ports';
import { quoteKeyOf } from './delivery.pricing';
import { createDeliveryService } from './delivery.service';

// Binds the delivery service's ports to its neighbours' faces, once per configuration.
// - jobs: the driver module's `jobPool` (issue 32's couriers branch), read from the face on first use; after the
//   merge this is `import { jobPool } from '../driver'` and `jobs: jobPool`.
// - handover: the handover kit's functions (platform/kits/handover, same branch) once merged; until then the port's
//   own binding in delivery.handover.ts.
// - photos: the media face's `attachableImage`; payments: the payments face.
const jobPool = (): JobPoolPort => (require('../driver') as { jobPool: JobPoolPort }).jobPool;
const jobs: JobPoolPort = {
  nearbyAvailable: (center, radiusM, capability, limit, at) => jobPool().nearbyAvailable(center, radiusM, capability, limit, at),
  txRead: (tx, driverId) => jobPool().txRead(tx, driverId),
  txClaim: (tx, loc, job) => jobPool().txClaim(tx, loc, job),
  txShareWithCustomer: (tx, loc, jobId, at) => jobPool().txShareWithCustomer(tx, loc, jobId, at),
  txRelease: (tx, loc, jobId, at) => jobPool().txRelease(tx, loc, jobId, at),
  currentJob: (driverId) => jobPool().currentJob(driverId),
};

export const deliveryServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createDeliveryService({
    jobs,
    handover: handoverBeforeKit,
    photos: attachableImage,
    payments: paymentCommands(config),
    settings: deliverySettings(config),
    quoteKey: quoteKeyOf(config.JWT_SECRET),
  }),
);
