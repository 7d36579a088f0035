import { perConfig, type AppConfig } from '../../platform/core/config';
import { createObjectStorage } from '../../platform/core/storage/storage';
import { createKycService, type KycService } from './kyc.service';

// Services of the kyc module, built once per configuration: the driver and partner modules review
// applications through the same service (index.ts).
export const kycServiceFor = perConfig((config: Readonly<AppConfig>): KycService =>
  createKycService({ storage: createObjectStorage(config), maxFileBytes: config.KYC_MAX_FILE_BYTES }),
);
