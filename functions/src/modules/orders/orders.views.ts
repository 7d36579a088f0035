import { iso, isoOrNull } from '../../platform/kits/time/time';
import type { OrderSettings } from './orders.config';
import { isFinal, orderMachine, type OrderAction, type OrderActor, type OrderStatus } from './orders.machine';
import type { OrderRecord, RatingRecord } from './orders.model';
import { splitOf } from './orders.money';

// An order as each party sees it: the consumer its delivery code and its rating, the store its payout and its
// stars, the courier what to collect and earn, an administrator everything but the code.

export type Audience = 'CONSUMER' | 'STORE' | 'COURIER' | 'ADMIN';

export const audienceOf = (roles: readonly OrderActor[]): Audience =>
  roles.includes('CONSUMER') ? 'CONSUMER' : roles.includes('STORE') ? 'STORE' : roles.includes('COURIER') ? 'COURIER' : 'ADMIN';

/** What the caller may do now: the machine's moves for their roles (the store's `cancel` is its storeCancel). */
export function allowedOf(status: OrderStatus, roles: readonly OrderActor[]): string[] {
  const names: Partial<Record<OrderAction, string>> = { storeCancel: 'cancel', adminCancel: 'cancel', giveUpBeforeReady: 'giveUp' };
  const moves = orderMachine.allowed(status, roles).filter((a) => a !== 'pay' && a !== 'payFail' && a !== 'assign' && a !== 'expire');
  return [...new Set(moves.map((a) => names[a] ?? a))];
}

export interface ViewExtras {
  handoverCode?: string | null;
  rating?: RatingRecord | null;
  prescriptionUrl?: string | null;
}

export function orderView(r: OrderRecord, roles: readonly OrderActor[], settings: OrderSettings, extras: ViewExtras = {}) {
  const audience = audienceOf(roles);
  const split = splitOf(r, settings);
  const sees = (...who: Audience[]) => who.includes(audience);
  const rating = extras.rating ?? null;
  return {
    id: r.id,
    status: r.status,
    consumerId: r.consumerId,
    partnerId: r.partnerId,
    seller: { kind: r.seller.kind, id: r.seller.id, name: r.sellerName },
    pickup: r.pickup,
    dropoff: r.dropoff,
    distanceM: r.distanceM,
    lines: r.lines,
    pricing: r.pricing,
    voucher: r.voucher ? { code: r.voucher.code } : null,
    payment: { ...r.payment, settled: r.settlement.payment },
    prescriptionMediaId: sees('CONSUMER', 'STORE', 'ADMIN') ? r.prescriptionMediaId : null,
    prescriptionUrl: sees('CONSUMER', 'STORE', 'ADMIN') ? (extras.prescriptionUrl ?? null) : null,
    note: r.note,
    prepTimeMin: r.prepTimeMin,
    driverId: r.driverId,
    courier: r.courier,
    handoverCode: audience === 'CONSUMER' && !isFinal(r.status) ? (extras.handoverCode ?? null) : null,
    proof: r.proof,
    cancelledBy: r.cancelledBy,
    cancelReason: r.cancelReason,
    cancelReasonCode: r.cancelReasonCode,
    split: {
      storeVnd: sees('STORE', 'ADMIN') ? split.storeVnd : null,
      commissionVnd: sees('STORE', 'ADMIN') ? split.commissionVnd : null,
      courierVnd: sees('COURIER', 'ADMIN') ? split.courierVnd : null,
      collectVnd: sees('COURIER', 'ADMIN') ? split.collectVnd : null,
    },
    rating: rating
      ? {
          store: sees('CONSUMER', 'STORE', 'ADMIN') ? rating.store : null,
          courier: sees('CONSUMER', 'ADMIN') ? rating.courier : null,
          ratedAt: iso(rating.ratedAt),
        }
      : null,
    allowed: allowedOf(r.status, roles),
    confirmBy: isoOrNull(r.status === 'PLACED' ? r.confirmBy : null),
    placedAt: isoOrNull(r.placedAt),
    confirmedAt: isoOrNull(r.confirmedAt),
    preparingAt: isoOrNull(r.preparingAt),
    readyAt: isoOrNull(r.readyAt),
    assignedAt: isoOrNull(r.assignedAt),
    pickedUpAt: isoOrNull(r.pickedUpAt),
    deliveredAt: isoOrNull(r.deliveredAt),
    endedAt: isoOrNull(r.endedAt),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}
export type OrderView = ReturnType<typeof orderView>;

/** Who made a move, as a party sees it: the parties by role, staff and administrators as STAFF, the service as SYSTEM. */
export function actorLabel(by: string, order: Pick<OrderRecord, 'consumerId' | 'driverId' | 'formerDriverIds'>): string {
  if (by.startsWith('system:')) return 'SYSTEM';
  if (by === order.consumerId) return 'CONSUMER';
  if (by === order.driverId || (order.formerDriverIds ?? []).includes(by)) return 'COURIER';
  return 'STAFF';
}
