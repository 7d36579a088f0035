import { perConfig, type AppConfig } from '../../platform/core/config';
import { authServicesFor } from '../auth';
import { kycServiceFor } from '../kyc';
import { createPartnersService } from './partners.service';

// Services of the partners module, built once per configuration (one mailer for the whole backend: auth's).
export const partnersServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createPartnersService({ kyc: kycServiceFor(config), mailer: authServicesFor(config).mailer }),
);
