import type { ApiModule } from '../platform/http/module';
import { authModule } from './auth/auth.routes';
import { healthModule } from './health/health.routes';
import { usersModule } from './users/users.routes';
import { driverModule } from './driver/driver.routes';
import { kycModule } from './kyc/kyc.routes';
import { mediaModule } from './media/media.routes';
import { notificationsModule } from './notifications/notifications.routes';
import { chatModule } from './chat/calls.routes';
import { partnersModule } from './partners/partners.routes';

// Every feature module mounted under /api/v1, one per API tag.
export const apiModules: ApiModule[] = [healthModule, authModule, usersModule, kycModule, driverModule, partnersModule, mediaModule, notificationsModule, chatModule];
