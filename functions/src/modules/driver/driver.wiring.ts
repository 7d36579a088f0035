import { perConfig, type AppConfig } from '../../platform/config';
import { authServicesFor } from '../auth';
import { kycServiceFor } from '../kyc';
import { createDriverService } from './driver.service';

// Services of the driver module, built once per configuration.
export const driverServiceFor = perConfig((config: Readonly<AppConfig>) => {
  const { otp, messages, mailer } = authServicesFor(config);
  return createDriverService({ kyc: kycServiceFor(config), otp, messages, mailer });
});
