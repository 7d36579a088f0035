import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { truncateText } from '../../platform/kits/text/text';
import { notificationHub, type Hub } from '../notifications';
import { accounts, localeOf } from '../users';
import { ticketDeadline } from './support.deadline';
import type { MessageRecord, TicketRecord } from './support.model';
import { supportRepo } from './support.repo';
import { SUPPORT_EVENTS } from './support.events';
import { SUPPORT_TEXTS } from './support.texts';

const PREVIEW_MAX = 120;

const recipient = async (r: Pick<TicketRecord, 'ownerId' | 'surface'>) => ({
  userId: r.ownerId,
  surface: r.surface,
  locale: localeOf(await accounts.get(r.ownerId)),
});

/**
 * A ticket written: arms its auto-close when it is RESOLVED (one task per resolution), and tells its owner of a
 * status move someone else made without a message (a message's notice says it: no second one). The notice's id
 * comes from the ticket and the move's time, so a redelivered event sends nothing twice.
 */
export const onTicketWritten = typedTrigger(
  collectionRecords<TicketRecord>(),
  async ({ before, after }, config: Readonly<AppConfig>, hub: Pick<Hub, 'dispatch'> = notificationHub(config)) => {
    if (!after || before?.status === after.status) return 'ignored';
    const due = ticketDeadline.dueAt(after);
    if (due !== null) await ticketDeadline.arm(ticketDeadline.scheduler, after, Date.now(), String(due));
    const move = after.lastMove;
    if (!move || move.viaMessage || move.by === after.ownerId || after.status === 'OPEN') return due !== null ? 'armed' : 'ignored';
    await hub.dispatch(
      SUPPORT_EVENTS.notice({
        event: 'support.ticket.status',
        recipients: [await recipient(after)],
        entityId: after.id,
        occurrence: `${after.status}@${after.updatedAt}`,
        text: SUPPORT_TEXTS.text('support.ticket.status', { subject: after.subject, status: after.status }),
        params: { ticketId: after.id },
      }),
    );
    return 'notified';
  },
);

/** Staff's reply (never an internal note) told to the ticket's owner; one notice per message. */
export const onTicketMessageCreated = typedTrigger(
  collectionRecords<MessageRecord>(),
  async ({ after: message }, config: Readonly<AppConfig>, hub: Pick<Hub, 'dispatch'> = notificationHub(config)) => {
    if (!message || message.from !== 'STAFF' || message.internal) return 'ignored';
    const ticket = await supportRepo.get(message.ticketId);
    if (!ticket) return 'ignored';
    await hub.dispatch(
      SUPPORT_EVENTS.notice({
        event: 'support.ticket.reply',
        recipients: [await recipient(ticket)],
        entityId: ticket.id,
        occurrence: message.id,
        text: SUPPORT_TEXTS.text('support.ticket.reply', { subject: ticket.subject, preview: truncateText(message.body, PREVIEW_MAX) }),
        params: { ticketId: ticket.id },
      }),
    );
    return 'notified';
  },
);
