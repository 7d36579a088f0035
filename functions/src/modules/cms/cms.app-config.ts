import type { Transaction } from 'firebase-admin/firestore';
import { ValidationError } from '../../platform/core/errors/app-error';
import { plainCollection, readRecord } from '../../platform/kits/firestore/records';
import { createPublisher } from '../../platform/kits/publishing/publishing';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { APP_CONFIG, CMS_APP_CONFIGS, CMS_AUDIT } from './cms.collections';
import { CMS_CODES, defined, type Editor, type PublishedKind } from './cms.kinds';
import { appConfigDocument, type AppConfigDocument } from './cms.model';
import type { z } from 'zod';
import type { AppConfigContent, AppConfigPatchSchema, CmsSurface } from './cms.schemas';

// One app config per surface (CON, PAR, DRV): minimum and latest app versions, feature flags, a maintenance message.
// Edited and published like every cms record; publishing (or rolling back) also writes the public mirror
// `app_config/{surface}` in the same transaction, which apps read without signing in (GET /cms/config/{surface} or a
// snapshot listener: firestore.rules lets anyone read it).

export const DEFAULT_APP_CONFIG: AppConfigContent = {
  minVersion: '0.0.0',
  latestVersion: '0.0.0',
  flags: {},
  maintenance: { active: false, message: null, until: null },
};

const mirror = () => plainCollection<AppConfigDocument>(APP_CONFIG, appConfigDocument);

export const appConfigs = createPublisher<AppConfigContent>({
  kind: 'appConfig',
  collection: CMS_APP_CONFIGS,
  audit: CMS_AUDIT,
  codes: CMS_CODES,
  onLive(tx: Transaction, surface: string, live) {
    const ref = mirror().doc(surface);
    if (!live) {
      tx.delete(ref);
      return;
    }
    tx.set(ref, { surface: surface as CmsSurface, version: live.version, ...live.content, publishedAt: live.at });
  },
});

/** MAJOR.MINOR.PATCH compared as numbers. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

function checked(config: AppConfigContent): AppConfigContent {
  if (compareVersions(config.minVersion, config.latestVersion) > 0)
    throw new ValidationError('minVersion cannot be above latestVersion', [
      { field: 'body.minVersion', message: `must be at most latestVersion (${config.latestVersion})` },
    ]);
  if (config.maintenance.active && config.maintenance.message === null)
    throw new ValidationError('Active maintenance needs its message', [{ field: 'body.maintenance.message', message: 'required while active' }]);
  return config;
}

type Patch = z.output<typeof AppConfigPatchSchema>;

export const appConfigKind = {
  publisher: appConfigs,
  // Apps always have a config: no unpublish or archive (routes for publish and rollback only).
  moves: ['publish', 'rollback'],
  initial: () => DEFAULT_APP_CONFIG,
  toView: (c: AppConfigContent) => ({
    minVersion: c.minVersion,
    latestVersion: c.latestVersion,
    flags: c.flags,
    maintenance: { active: c.maintenance.active, message: c.maintenance.message, until: isoOrNull(c.maintenance.until) },
  }),
  edit: (editor: Editor, surface: CmsSurface, { revision, ...patch }: Patch, now: number) =>
    appConfigs.edit(surface, { by: editor.userId, now, revision, initial: () => DEFAULT_APP_CONFIG }, (draft) => checked({ ...draft, ...defined(patch) })),
} satisfies PublishedKind<AppConfigContent> & Record<string, unknown>;

/** What an app reads at start: the live config (the defaults, version 0, before the first publish). */
export async function publicAppConfig(surface: CmsSurface, appVersion: string | undefined, now: number) {
  const live = await readRecord(mirror().doc(surface));
  const config: AppConfigContent = live ?? DEFAULT_APP_CONFIG;
  const update =
    appVersion === undefined
      ? null
      : compareVersions(appVersion, config.minVersion) < 0
        ? ('REQUIRED' as const)
        : compareVersions(appVersion, config.latestVersion) < 0
          ? ('AVAILABLE' as const)
          : ('NONE' as const);
  const { maintenance } = config;
  return {
    surface,
    version: live?.version ?? 0,
    ...appConfigKind.toView(config),
    publishedAt: live ? iso(live.publishedAt) : null,
    maintenanceNow: maintenance.active && (maintenance.until === null || now < maintenance.until),
    update,
  };
}
