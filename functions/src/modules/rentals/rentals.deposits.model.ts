import { z } from 'zod';
import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { defineMachine } from '../../platform/kits/state-machine/state-machine';
import { iso } from '../../platform/kits/time/time';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { actorLabel } from '../bookings';
import { RENTAL_DEPOSIT_QUEUE } from './rentals.collections';

// A rental deposit: the tenant's money set aside in their wallet (a payments hold, HELD in the ledger) until the lease
// is signed. The tenant confirming the lease RELEASES it to the landlord (captured, less the commission); the landlord
// declining, the tenant withdrawing within the free window, or the lease window running out REFUNDS it (the hold
// released); the tenant withdrawing later FORFEITS it to the landlord. An administrator settles disputes either way.

export const DEPOSIT_STATUSES = ['HELD', 'RELEASED', 'REFUNDED', 'FORFEITED'] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];
export type DepositAction = 'confirmLease' | 'withdraw' | 'forfeit' | 'decline' | 'expire' | 'adminRelease' | 'adminRefund';
export type DepositActor = 'TENANT' | 'LANDLORD' | 'ADMIN' | 'SYSTEM';

export const depositMachine = defineMachine<DepositStatus, DepositAction, DepositActor>({
  entity: 'deposit',
  states: DEPOSIT_STATUSES,
  moves: {
    confirmLease: { from: 'HELD', to: 'RELEASED', by: 'TENANT' },
    withdraw: { from: 'HELD', to: 'REFUNDED', by: 'TENANT' },
    forfeit: { from: 'HELD', to: 'FORFEITED', by: 'TENANT' },
    decline: { from: 'HELD', to: 'REFUNDED', by: 'LANDLORD' },
    expire: { from: 'HELD', to: 'REFUNDED', by: 'SYSTEM' },
    adminRelease: { from: 'HELD', to: 'RELEASED', by: 'ADMIN' },
    adminRefund: { from: 'HELD', to: 'REFUNDED', by: 'ADMIN' },
  },
  codes: { transition: 'RENTAL_DEPOSIT_TRANSITION', actor: 'RENTAL_DEPOSIT_NOT_ALLOWED' },
});

export interface DepositRecord {
  id: string;
  status: DepositStatus;
  listingId: string;
  listingName: string;
  /** The landlord (a partner): its owner is paid a released or forfeited deposit. */
  partnerId: string;
  consumerId: string;
  amountVnd: number;
  /** The payments hold in the tenant's wallet. */
  paymentId: string;
  /** Withdrawn by then, it is refunded; later, forfeited to the landlord. */
  freeWithdrawUntil: number;
  /** Still HELD then (no lease), it is refunded. */
  leaseBy: number;
  /** Whether the hold was captured (released, forfeited) or given back (refunded): set once the money moved. */
  settled: boolean;
  outcome: { by: string; reason: string | null } | null;
  createdAt: number;
  updatedAt: number;
}

export const DEPOSIT_EXPIRED_BY = 'system:rental-deposit-expiry';

/** A HELD deposit past its lease window is refunded: its task at `leaseBy`, or the lazy check of a read or move. */
export const depositDeadline = defineDeadline({
  entity: 'rental deposit',
  queue: RENTAL_DEPOSIT_QUEUE,
  idField: 'depositId',
  taskId: (id) => `deposit-${id}`,
  dueAt: (d: DepositRecord) => (d.status === 'HELD' ? d.leaseBy : null),
  expiry: {
    machine: depositMachine,
    action: 'expire',
    by: DEPOSIT_EXPIRED_BY,
    apply: (d, to, at) => ({ ...d, status: to, outcome: { by: DEPOSIT_EXPIRED_BY, reason: 'No lease within the window' }, updatedAt: at }),
  },
});

export const DepositSchema = z
  .object({
    id: z.string(),
    status: z.enum(DEPOSIT_STATUSES),
    listingId: z.string(),
    listingName: z.string(),
    partnerId: z.string(),
    consumerId: z.string(),
    amountVnd: z.number().int(),
    paymentId: z.string(),
    freeWithdrawUntil: IsoTimeSchema.describe('Withdrawn until then: refunded; later: forfeited to the landlord'),
    leaseBy: IsoTimeSchema.describe('Still HELD then: refunded'),
    settled: z.boolean().describe('The money has moved (captured to the landlord, or back in the wallet)'),
    outcome: z.object({ by: z.string(), reason: z.string().nullable() }).nullable(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'RentalDeposit' });

/** What the tenant sees of who ended it: themselves, the system, or STAFF (never a landlord's or administrator's id). */
export function depositView(d: DepositRecord, audience: 'TENANT' | 'LANDLORD' | 'ADMIN'): z.infer<typeof DepositSchema> {
  const by = (who: string) => actorLabel(who, d.consumerId, audience === 'TENANT' ? 'CONSUMER' : 'ADMIN');
  return {
    ...d,
    freeWithdrawUntil: iso(d.freeWithdrawUntil),
    leaseBy: iso(d.leaseBy),
    outcome: d.outcome && { by: by(d.outcome.by), reason: d.outcome.reason },
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
  };
}
