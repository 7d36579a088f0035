import { perConfig, type AppConfig } from '../../platform/core/config';
import { jobPool } from '../driver';
import { attachableImage } from '../media';
import { paymentCommands } from '../payments';
import { deliverySettings } from './delivery.config';
import { quoteKeyOf } from './delivery.pricing';
import { createDeliveryService } from './delivery.service';

// Binds the delivery service's ports to its neighbours' faces, once per configuration: the driver module's `jobPool`,
// the media face's `attachableImage` and the payments face.
export const deliveryServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createDeliveryService({
    jobs: jobPool,
    photos: attachableImage,
    payments: paymentCommands(config),
    settings: deliverySettings(config),
    quoteKey: quoteKeyOf(config.JWT_SECRET),
  }),
);
