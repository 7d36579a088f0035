import { perConfig, type AppConfig } from '../../platform/core/config';
import { createAdminService } from './admin.service';

// Services of the admin module, built once per configuration.
export const adminServiceFor = perConfig((_config: Readonly<AppConfig>) => createAdminService());
