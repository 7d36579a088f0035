import { defineModule } from '../../platform/module/module';
import { MEDIA } from './media.model';

export const mediaModule = defineModule({
  name: 'media',
  uses: [],
  routes: (ctx) => (require('./media.routes') as typeof import('./media.routes')).mediaRoutes(ctx),
  collections: [{ name: MEDIA }],
});
