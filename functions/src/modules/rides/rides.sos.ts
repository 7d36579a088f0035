import { NotFoundError } from '../../platform/core/errors/app-error';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import type { LatLng } from '../../platform/kits/geo/geo';
import { stableId } from '../../platform/kits/ids/stable-id';
import { iso } from '../../platform/kits/time/time';
import { ridesRepo, type SosRecord } from './rides.repo';
import type { RidesCore, VisibleRide } from './rides.context';

// SOS: a rider or driver raises an alert on a ride (once per key); administrators see the queue and resolve alerts.

const sosView = (s: SosRecord) => ({ ...s, resolvedAt: s.resolvedAt === null ? null : iso(s.resolvedAt), createdAt: iso(s.createdAt) });

export function createRideSos({ now }: RidesCore, visible: VisibleRide) {
  async function sos(
    actor: { userId: string; admin: boolean },
    id: string,
    input: { message?: string | null; location?: LatLng | null },
    idempotencyKey: string,
  ) {
    const ride = await visible(id, actor);
    const sosId = stableId({ scope: id, caller: actor.userId, key: idempotencyKey, prefix: 'S', encoding: 'hex' });
    const record: SosRecord = {
      id: sosId,
      rideId: id,
      raisedBy: actor.userId,
      role: ride.riderId === actor.userId ? 'RIDER' : 'DRIVER',
      message: input.message ?? null,
      location: input.location ?? null,
      status: 'OPEN',
      note: null,
      resolvedBy: null,
      resolvedAt: null,
      createdAt: now(),
    };
    const created = await ridesRepo.createSos(record);
    return { ...sosView(record), created };
  }

  async function sosQueue(filter: { status?: 'OPEN' | 'RESOLVED' }, page: Pick<PageRequest, 'limit' | 'cursor'>, adminId: string) {
    const result = await ridesRepo.listSos(filter, { ...page, query: `rides:sos:${filter.status ?? ''}`, caller: adminId });
    return { items: result.items.map(sosView), nextCursor: result.nextCursor };
  }

  async function resolveSos(adminId: string, id: string, note: string | null) {
    const found = await ridesRepo.resolveSos(id, adminId, note, now());
    if (!found) throw new NotFoundError('No such alert');
    return sosView(found);
  }

  return { sos, sosQueue, resolveSos };
}
