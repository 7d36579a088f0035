import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import type { DeadlineScheduler } from '../../platform/kits/deadlines/deadlines';
import { notificationHub, type DispatchInput, type Hub } from '../notifications';
import { partnerMembers } from '../partners';
import { createRentalDeposits } from './rentals.deposits';
import { depositDeadline, type DepositRecord } from './rentals.deposits.model';
import { RENTAL_EVENTS } from './rentals.events';
import { RENTAL_TEXTS } from './rentals.texts';

export interface DepositTriggerWork {
  hub: Pick<Hub, 'dispatch'>;
  deadlines: DeadlineScheduler<{ depositId: string }>;
  members(partnerId: string): Promise<string[]>;
  settle(d: DepositRecord): Promise<unknown>;
  now: number;
}

const STEP = { HELD: 'held', RELEASED: 'released', REFUNDED: 'refunded', FORFEITED: 'forfeited' } as const;

/** The deposit's notices of one status: `rental.deposit.<step>` to its tenant and its landlord's members. */
export function depositNotices(d: DepositRecord, landlord: readonly string[]): DispatchInput[] {
  const step = STEP[d.status];
  const to = (forLandlord: boolean) =>
    forLandlord
      ? landlord.filter((id) => id !== d.consumerId).map((userId) => ({ userId, surface: 'PAR' as const }))
      : [{ userId: d.consumerId, surface: 'CON' as const }];
  return [false, true]
    .map((forLandlord) =>
      RENTAL_EVENTS.notice({
        event: `rental.deposit.${step}`,
        recipients: to(forLandlord),
        entityId: d.id,
        text: RENTAL_TEXTS.text(`deposit.${step}`, { listing: d.listingName, amount: d.amountVnd, forLandlord }),
        params: { depositId: d.id },
      }),
    )
    .filter((n) => n.recipients.length > 0);
}

/**
 * At least once, on every status change of a deposit: its lease window armed (HELD), its money settled (the hold
 * captured or released, once), then its tenant and landlord told (ids from the deposit and the event).
 */
export const onDepositWritten = typedTrigger(
  collectionRecords<DepositRecord>(),
  async ({ before, after }, config: Readonly<AppConfig>, work?: DepositTriggerWork) => {
    if (!after || before?.status === after.status) return 'nothing';
    const w: DepositTriggerWork = work ?? {
      hub: notificationHub(config),
      deadlines: depositDeadline.scheduler,
      members: async (partnerId) => (await partnerMembers(partnerId)).map((m) => m.userId),
      settle: (d) => createRentalDeposits(config).settle(d),
      now: Date.now(),
    };
    if (after.status === 'HELD') await depositDeadline.arm(w.deadlines, after, w.now);
    else await w.settle(after);
    const notices = depositNotices(after, await w.members(after.partnerId));
    for (const n of notices) await w.hub.dispatch(n);
    return `${after.status.toLowerCase()}, told ${notices.length}`;
  },
);
