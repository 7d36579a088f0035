import type { CatalogRecord } from '../../platform/kits/catalog/catalog.model';
import { moduleRegistry, type TargetSource } from '../../platform/core/module/module';
import { NotFoundError } from '../../platform/core/errors';

export type { TargetSource };

// Records a user can save or review, by type: each catalog module declares its own (`targets` in its definition,
// with a lazily loaded source that answers which ids are active and who manages a record). Favorites and reviews
// read them from the module registry, so they import no catalog module.
export type TargetType = string;

/** The target types of the module list, in module order (read on first use: the composition root installs them). */
export const targetTypes = (): readonly TargetType[] => moduleRegistry().targets;

export function targetSource(type: TargetType): TargetSource {
  const target = moduleRegistry().target(type);
  if (!target) throw new NotFoundError(`No target type ${type}`);
  return target.load();
}

/** What a list shows of a saved or reviewed record. */
export function targetSummary(record: CatalogRecord<unknown>) {
  return {
    id: record.id,
    name: record.name,
    address: record.address,
    location: { lat: record.lat, lng: record.lng },
    photoUrl: record.photos[0]?.url ?? null,
    rating: { average: record.ratingAvg, count: record.ratingCount },
  };
}
