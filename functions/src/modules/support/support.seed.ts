import type { SeedContext } from '../../platform/core/module/maintenance';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import { SUPPORT_CANNED_REPLIES, SUPPORT_TICKETS, TICKET_MESSAGES } from './support.collections';
import { serviceLevelsOf, type CannedReplyRecord, type MessageRecord, type TicketRecord } from './support.model';
import { queueKeysOf } from './support.repo';

// The help desk's demo data (emulator only): canned replies staff insert, and one ticket of Minh's that staff have
// answered with a question (WAITING_USER, its move in the history), so the queue and a thread are there to look at.
// Fixed ids: a second run rewrites them.

const text = (vi: string, en: string) => ({ vi, en });
/** A typed record as the seed writer takes it (a plain object of its fields). */
const fields = (record: object): Record<string, unknown> => Object.fromEntries(Object.entries(record));

export async function seedSupport(ctx: SeedContext): Promise<void> {
  const { DEV_ADMIN: admin, DEMO_USERS: users } = ctx.fixtures as { DEV_ADMIN: { id: string }; DEMO_USERS: Array<{ id: string }> };
  const minh = users[1];
  const t = ctx.now;
  const canned = (id: string, title: string, body: { vi: string; en: string }, category: CannedReplyRecord['category']) => [
    id,
    fields({ id, title, body, category, createdBy: admin.id, createdAt: t, updatedAt: t } satisfies CannedReplyRecord),
  ];
  await ctx.write(
    SUPPORT_CANNED_REPLIES,
    Object.fromEntries([
      canned(
        'seed-canned-refund',
        'Refund on its way',
        text('Chúng tôi đã hoàn tiền, bạn sẽ nhận trong 3–5 ngày làm việc.', 'We have refunded you: it arrives within 3–5 working days.'),
        'PAYMENT',
      ),
      canned(
        'seed-canned-receipt',
        'Ask for the receipt',
        text('Bạn vui lòng gửi ảnh biên lai hoặc mã giao dịch giúp chúng tôi.', 'Could you send us a photo of the receipt or the transaction id?'),
        null,
      ),
      canned(
        'seed-canned-driver',
        'Driver feedback noted',
        text('Cảm ơn bạn, chúng tôi đã ghi nhận và nhắc nhở tài xế.', 'Thank you: we have noted it and spoken to the driver.'),
        'RIDE',
      ),
    ]),
  );
  const id = 'seed-ticket-minh-late-driver';
  const asked = t - 3 * 3_600_000;
  const answered = t - 2 * 3_600_000;
  const ticket: TicketRecord = {
    id,
    ownerId: minh.id,
    category: 'RIDE',
    priority: 'NORMAL',
    subject: 'Tài xế đến muộn 20 phút',
    description: 'Tài xế đến muộn 20 phút và không gọi cho tôi.',
    attachments: [],
    link: null,
    source: 'APP',
    surface: 'CON',
    status: 'WAITING_USER',
    lastMove: { action: 'awaitUser', by: admin.id, viaMessage: true },
    assigneeId: admin.id,
    ...serviceLevelsOf('RIDE', asked),
    firstResponseAt: answered,
    resolvedAt: null,
    closeAt: null,
    closedAt: null,
    lastMessageAt: answered,
    messageCount: 2,
    noteCount: 0,
    rating: null,
    createdAt: asked,
    updatedAt: answered,
  };
  const message = (n: number, from: 'USER' | 'STAFF', authorId: string, body: string, at: number) => [
    `seed-message-${n}`,
    fields({
      id: `seed-message-${n}`,
      ticketId: id,
      ownerId: minh.id,
      from,
      authorId,
      body,
      attachments: [],
      internal: false,
      createdAt: at,
    } satisfies MessageRecord),
  ];
  await ctx.write(SUPPORT_TICKETS, { [id]: { ...ticket, queueKeys: queueKeysOf(ticket) } });
  await ctx.write(
    `${SUPPORT_TICKETS}/${id}/${TICKET_MESSAGES}`,
    Object.fromEntries([
      message(1, 'USER', minh.id, ticket.description, asked),
      message(2, 'STAFF', admin.id, 'Chúng tôi rất tiếc. Bạn cho biết mã chuyến xe để chúng tôi kiểm tra nhé.', answered),
    ]),
  );
  await ctx.write(`${SUPPORT_TICKETS}/${id}/${EVENTS}`, {
    'seed-event-1': { action: 'awaitUser', from: 'OPEN', to: 'WAITING_USER', by: admin.id, at: answered, reason: null },
  });
  ctx.log('seed: support: 3 canned replies, 1 ticket (Minh, WAITING_USER)');
}
