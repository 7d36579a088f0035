import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { notificationHub, type DispatchInput, type Hub } from '../notifications';
import { accounts, localeOf, type UserRecord } from '../users';
import { WALLET_EVENTS } from './wallet.events';
import { WALLET_TEXTS } from './wallet.texts';
import { withdrawalDocument, type P2pRecord, type WithdrawalRecord } from './wallet.model';

/**
 * The recipient's notice of a P2P transfer; its entity is the ledger transfer (GET /wallet/transactions/{id}).
 * It names the sender and the amount only: the note is the sender's free text, so it is never pushed (a lock
 * screen would show it as if from us); the app shows it, as plain text, on the transaction (`memo`).
 */
export function transferNotice(p2p: Pick<P2pRecord, 'toUserId' | 'transferId' | 'amount'>, senderName: string | null): DispatchInput {
  return WALLET_EVENTS.notice({
    event: 'wallet.transfer.received',
    recipients: [{ userId: p2p.toUserId, surface: 'CON' as const }],
    entityId: p2p.transferId,
    text: WALLET_TEXTS.text('wallet.transfer.received', { sender: senderName, amount: p2p.amount }),
    params: { transferId: p2p.transferId },
  });
}

/** The owner's notice of a decided withdrawal, in the app they earn with (driver or partner). */
export function withdrawalNotice(
  before: WithdrawalRecord | undefined,
  after: WithdrawalRecord | undefined,
  owner: Pick<UserRecord, 'roles' | 'locale'> | undefined,
): DispatchInput | undefined {
  if (!after || before?.status === after.status || (after.status !== 'APPROVED' && after.status !== 'REJECTED')) return undefined;
  const approved = after.status === 'APPROVED';
  return WALLET_EVENTS.notice({
    event: approved ? 'wallet.withdrawal.approved' : 'wallet.withdrawal.rejected',
    recipients: [{ userId: after.userId, surface: owner?.roles.includes('DRIVER') ? ('DRV' as const) : ('PAR' as const), locale: localeOf(owner) }],
    entityId: after.id,
    text: approved
      ? WALLET_TEXTS.text('wallet.withdrawal.approved', { amount: after.amount })
      : WALLET_TEXTS.text('wallet.withdrawal.rejected', { amount: after.amount, reason: after.reason }),
    params: { withdrawalId: after.id },
  });
}

// Triggers run at least once: the hub derives notification ids from event, entity and recipient, so a second
// delivery creates nothing and pushes nothing.
export const onTransferCreated = typedTrigger(
  collectionRecords<P2pRecord>(),
  async ({ after: p2p }, config: Readonly<AppConfig>, hub: Pick<Hub, 'dispatch'> = notificationHub(config)) => {
    if (!p2p) return 'ignored';
    const sender = await accounts.get(p2p.fromUserId);
    await hub.dispatch(transferNotice(p2p, sender?.name ?? null));
    return 'notified';
  },
);

export const onWithdrawalWritten = typedTrigger(
  collectionRecords<WithdrawalRecord>(withdrawalDocument),
  async ({ before, after }, config: Readonly<AppConfig>, hub: Pick<Hub, 'dispatch'> = notificationHub(config)) => {
    if (!after) return 'ignored';
    const owner = await accounts.get(after.userId);
    const notice = withdrawalNotice(before, after, owner);
    if (!notice) return 'ignored';
    await hub.dispatch(notice);
    return 'notified';
  },
);
