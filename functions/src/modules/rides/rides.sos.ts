import { NotFoundError } from '../../platform/core/errors/app-error';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import type { LatLng } from '../../platform/kits/geo/geo';
import { stableId } from '../../platform/kits/ids/stable-id';
import { defineReportQueue, OPEN, type Moderator, type Report, type ReportLayout } from '../../platform/kits/moderation/moderation';
import { iso } from '../../platform/kits/time/time';
import { RIDE_SOS } from './rides.model';
import type { SosRecord } from './rides.repo';
import type { RidesCore, VisibleRide } from './rides.context';

// SOS: a rider or driver raises an alert on a ride (once per key); administrators see the queue and resolve alerts.
// The queue is platform/kits/moderation's, over the documents `ride_sos/{id}` as they were stored before it.

type SosDetail = Pick<SosRecord, 'role' | 'message' | 'location'>;
type SosReport = Report<SosDetail, 'RESOLVED'>;

/** `ride_sos` documents: the ride and who raised it at the top, the resolution note in `note`. */
const sosLayout: ReportLayout<SosDetail, 'RESOLVED'> = {
  targetField: 'rideId',
  statusOf: (outcome) => outcome ?? OPEN,
  toDocument: (r) => ({
    rideId: r.targetId,
    raisedBy: r.reporterId,
    role: r.detail.role,
    message: r.detail.message,
    location: r.detail.location,
    status: r.resolution?.outcome ?? OPEN,
    note: r.resolution?.note ?? null,
    resolvedBy: r.resolution?.by ?? null,
    resolvedAt: r.resolution?.at ?? null,
    createdAt: r.createdAt,
  }),
  fromDocument: (id, d) => ({
    id,
    targetId: d.rideId,
    reporterId: d.raisedBy,
    createdAt: d.createdAt,
    resolution: d.status === 'RESOLVED' ? { outcome: 'RESOLVED', by: d.resolvedBy, at: d.resolvedAt, note: d.note ?? null } : null,
    detail: { role: d.role, message: d.message ?? null, location: d.location ?? null },
  }),
};

const sosView = (r: SosReport) => ({
  id: r.id,
  rideId: r.targetId,
  raisedBy: r.reporterId,
  ...r.detail,
  status: r.resolution ? r.resolution.outcome : ('OPEN' as const),
  note: r.resolution?.note ?? null,
  resolvedBy: r.resolution?.by ?? null,
  resolvedAt: r.resolution ? iso(r.resolution.at) : null,
  createdAt: iso(r.createdAt),
});

export function createRideSos({ now }: RidesCore, visible: VisibleRide) {
  const queue = defineReportQueue<SosDetail, 'RESOLVED'>({
    name: 'rides:sos',
    collection: RIDE_SOS,
    outcomes: ['RESOLVED'],
    permission: 'rides.manage',
    order: 'desc',
    layout: sosLayout,
    // The ids alerts had before the kit: 'S' + hex sha256 of ride, user and Idempotency-Key.
    reportId: (rideId, userId, key) => stableId({ scope: rideId, caller: userId, key: key ?? '', prefix: 'S', encoding: 'hex' }),
    clock: now,
  });

  async function sos(
    actor: { userId: string; admin: boolean },
    id: string,
    input: { message?: string | null; location?: LatLng | null },
    idempotencyKey: string,
  ) {
    const ride = await visible(id, actor);
    const detail: SosDetail = { role: ride.riderId === actor.userId ? 'RIDER' : 'DRIVER', message: input.message ?? null, location: input.location ?? null };
    const { report, created } = await queue.file({ targetId: id, reporterId: actor.userId, key: idempotencyKey, detail });
    return { ...sosView(report), created };
  }

  async function sosQueue(filter: { status?: 'OPEN' | 'RESOLVED' }, page: Pick<PageRequest, 'limit' | 'cursor'>, admin: Moderator) {
    const result = await queue.list(admin, { status: filter.status, limit: page.limit, cursor: page.cursor });
    return { items: result.items.map(sosView), nextCursor: result.nextCursor };
  }

  async function resolveSos(admin: Moderator, id: string, note: string | null) {
    try {
      return sosView((await queue.resolve(admin, id, 'RESOLVED', { note })).report);
    } catch (err) {
      if (err instanceof NotFoundError) throw new NotFoundError('No such alert');
      throw err;
    }
  }

  return { sos, sosQueue, resolveSos };
}
