import { defineModule } from '../../platform/core/module/module';
import { VERSIONS } from '../../platform/kits/publishing/publishing.names';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { APP_CONFIG, CMS_APP_CONFIGS, CMS_AUDIT, CMS_BANNERS, CMS_PAGES, CMS_SECTIONS } from './cms.collections';
import { CMS_ERROR_CODES } from './cms.errors';

// What the operators publish to the apps: banners and home sections per surface (scheduled, targeted at cities),
// pages (terms, privacy, FAQ) in Vietnamese and English, and each app's config (public, also a listened document);
// drafts, versions, publish, rollback and an audit trail (platform/kits/publishing).
export const cmsModule = defineModule({
  name: 'cms',
  uses: ['media'],
  apiTags: { cms: 'Banners, home sections, pages and app config the operators publish.' },
  errorCodes: CMS_ERROR_CODES,
  permissions: ['cms.manage'],
  seed: { load: () => (require('./cms.seed') as typeof import('./cms.seed')).seedCms },
  routes: () => (require('./cms.routes') as typeof import('./cms.routes')).cmsRoutes(),
  collections: [
    ...[CMS_BANNERS, CMS_SECTIONS, CMS_PAGES, CMS_APP_CONFIGS].flatMap((name) => [{ name }, { name: VERSIONS, parent: name }, { name: EVENTS, parent: name }]),
    {
      name: APP_CONFIG,
      clientAccess: true,
      listened: {
        name: 'AppConfigDocument',
        path: `${APP_CONFIG}/{surface}`,
        readers: 'anyone, signed in or not',
        schema: () => (require('./cms.model') as typeof import('./cms.model')).appConfigDocument(),
      },
    },
    { name: CMS_AUDIT },
  ],
});
