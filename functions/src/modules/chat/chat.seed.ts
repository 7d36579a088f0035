import type { SeedContext } from '../../platform/core/module/maintenance';
import { storedFields } from '../../platform/kits/firestore/documents';
import {
  CHAT_MEMBERSHIPS,
  CONVERSATIONS,
  MESSAGES,
  conversationDocument,
  directConversationId,
  membershipAfterMessage,
  membershipDocument,
  messageDocument,
  newMembership,
  type MessageRecord,
} from './conversations.model';

// The two demo consumers' conversation (emulator only): messages already fanned out (no trigger runs while
// seeding), so each membership carries the counters the message trigger would have set. Stored as the API stores
// them: times as Firestore Timestamps (the model's schema).
export async function seedChat(ctx: SeedContext): Promise<void> {
  const [lan, minh] = (ctx.fixtures as { DEMO_USERS: Array<{ id: string }> }).DEMO_USERS;
  const now = ctx.now;
  const conversationId = directConversationId(lan.id, minh.id);
  const script: Array<[{ id: string }, string]> = [
    [lan, 'Chào anh Minh! Cuối tuần này anh có ra Sài Gòn không?'],
    [minh, 'Chào Lan, thứ Bảy anh bay vào, khoảng 10 giờ tới Tân Sơn Nhất.'],
    [lan, 'Tuyệt quá, em đặt xe đón anh nhé.'],
  ];
  const messages: MessageRecord[] = script.map(([sender, text], i) => ({
    id: `seed-msg-${i + 1}`,
    conversationId,
    senderId: sender.id,
    type: 'TEXT',
    text,
    media: null,
    location: null,
    replyTo: null,
    system: null,
    createdAt: now + (i + 1) * 60_000,
    editedAt: null,
    deleted: false,
    fannedOut: true,
    counted: true,
  }));
  const memberships = [lan, minh].map((u) => {
    let member = newMembership(conversationId, u.id, 'MEMBER', now);
    for (const m of messages) member = { ...member, ...membershipAfterMessage(member, m) };
    return member;
  });
  const conversation = { type: 'DIRECT', title: null, ownerId: null, memberIds: [lan.id, minh.id], context: null, closed: false, createdBy: lan.id };
  await ctx.write(CONVERSATIONS, { [conversationId]: storedFields(conversationDocument, { ...conversation, createdAt: now, updatedAt: now }) });
  await ctx.write(`${CONVERSATIONS}/${conversationId}/${MESSAGES}`, Object.fromEntries(messages.map((m) => [m.id, storedFields(messageDocument, m)])));
  await ctx.write(CHAT_MEMBERSHIPS, Object.fromEntries(memberships.map((m) => [`${conversationId}_${m.userId}`, storedFields(membershipDocument, m)])));
}
