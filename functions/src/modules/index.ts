import type { ApiModule } from '../platform/http/module';
import { healthModule } from './health/health.routes';

// Every feature module mounted under /api/v1, one per API tag.
export const apiModules: ApiModule[] = [healthModule];
