import { defineModule } from '../../platform/core/module/module';
import { MEDIA_ERROR_CODES } from './media.errors';
import { MEDIA } from './media.model';
import { mediaSwitches } from './media.config';

export const mediaModule = defineModule({
  name: 'media',
  uses: [],
  apiTags: { media: 'Audio uploads (single, multiple, presigned) used for the sound pack.' },
  config: mediaSwitches,
  errorCodes: MEDIA_ERROR_CODES,
  routes: (ctx) => (require('./media.routes') as typeof import('./media.routes')).mediaRoutes(ctx),
  collections: [{ name: MEDIA }],
});
