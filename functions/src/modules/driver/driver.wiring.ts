import { perConfig, type AppConfig } from '../../platform/core/config';
import { authServicesFor } from '../auth';
import { kycServiceFor } from '../kyc';
import { notificationHub } from '../notifications';
import { createDispatchService } from './driver.dispatch';
import { createDriverService } from './driver.service';

// Services of the driver module, built once per configuration.
export const dispatchServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createDispatchService({ hub: notificationHub(config), maxSpeedKmh: config.DRIVER_MAX_SPEED_KMH }),
);

export const driverServiceFor = perConfig((config: Readonly<AppConfig>) => {
  const { otp, messages, mailer } = authServicesFor(config);
  return createDriverService({ kyc: kycServiceFor(config), otp, messages, mailer, dispatch: dispatchServiceFor(config) });
});
