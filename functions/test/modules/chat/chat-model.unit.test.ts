import { createHash } from 'node:crypto';
import {
  blockConflicts,
  CHAT_LIMITS,
  contextConversationId,
  directConversationId,
  membershipAfterMessage,
  messageIdFor,
  newMembership,
  previewOf,
  type MessageRecord,
} from '../../../src/modules/chat/conversations.model';

const message = (over: Partial<MessageRecord> = {}): MessageRecord => ({
  id: 'm1',
  conversationId: 'c1',
  senderId: 'alice',
  type: 'TEXT',
  text: 'hello',
  media: null,
  location: null,
  replyTo: null,
  system: null,
  createdAt: 1_000,
  editedAt: null,
  deleted: false,
  fannedOut: false,
  counted: false,
  ...over,
});

describe('chat ids', () => {
  it('one direct conversation per pair, whoever starts it; distinct pairs differ', () => {
    expect(directConversationId('a', 'b')).toBe(directConversationId('b', 'a'));
    expect(directConversationId('a', 'b')).not.toBe(directConversationId('a', 'c'));
    // No separator games: ("ab","c") and ("a","bc") are different pairs.
    expect(directConversationId('ab', 'c')).not.toBe(directConversationId('a', 'bc'));
  });
  it('a retried send names the same message; another key, sender or conversation another one', () => {
    const id = messageIdFor('c1', 'alice', 'k1');
    expect(messageIdFor('c1', 'alice', 'k1')).toBe(id);
    expect(new Set([messageIdFor('c1', 'alice', 'k2'), messageIdFor('c1', 'bob', 'k1'), messageIdFor('c2', 'alice', 'k1')]).has(id)).toBe(false);
  });
  it('one conversation per ride, order or booking', () => {
    expect(contextConversationId({ type: 'RIDE', id: 'r1' })).toBe(contextConversationId({ type: 'RIDE', id: 'r1' }));
    expect(contextConversationId({ type: 'RIDE', id: 'r1' })).not.toBe(contextConversationId({ type: 'ORDER', id: 'r1' }));
  });
});

describe('chat ids on stableId', () => {
  // The formulas the ids had before stableId: stored conversations and messages keep their ids.
  const before = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 24);
  it('are the ids of the former formulas', () => {
    expect(directConversationId('u2', 'u1')).toBe(`dm_${before('u1\u0000u2')}`);
    expect(contextConversationId({ type: 'RIDE', id: 'r1' })).toBe(`ctx_ride_${before('r1')}`);
    expect(messageIdFor('c1', 'alice', 'k1')).toBe(`m_${before('c1\u0000alice\u0000k1')}`);
  });
});

describe('previewOf', () => {
  it('shows text on one line, cut to the preview length without splitting an emoji', () => {
    expect(previewOf(message({ text: 'a\n\n  b' }))).toBe('a b');
    const long = previewOf(message({ text: '😀'.repeat(500) }));
    expect(Array.from(long)).toHaveLength(CHAT_LIMITS.previewMax);
    expect(long.endsWith('😀…')).toBe(true);
  });
  it('names media and tombstones', () => {
    expect(previewOf(message({ type: 'AUDIO', text: null }))).toBe('Voice message');
    expect(previewOf(message({ type: 'LOCATION', text: null }))).toBe('Location');
    expect(previewOf(message({ deleted: true }))).toBe('Message deleted');
  });
});

describe('membershipAfterMessage', () => {
  const bob = { ...newMembership('c1', 'bob', 'MEMBER', 0), readUpToAt: 500, unreadCount: 2 };
  it('another member: one more unread and the new last message', () => {
    expect(membershipAfterMessage(bob, message())).toMatchObject({
      unreadCount: 3,
      lastActivityAt: 1_000,
      lastMessage: { id: 'm1', preview: 'hello', senderId: 'alice' },
    });
  });
  it('the sender: read up to their own message, nothing unread', () => {
    const alice = { ...newMembership('c1', 'alice', 'MEMBER', 0), unreadCount: 4 };
    expect(membershipAfterMessage(alice, message())).toMatchObject({ unreadCount: 0, readUpToId: 'm1', readUpToAt: 1_000 });
  });
  it('a SYSTEM message, or one older than the read marker, is not unread', () => {
    expect(membershipAfterMessage(bob, message({ type: 'SYSTEM', senderId: 'system' })).unreadCount).toBeUndefined();
    expect(membershipAfterMessage(bob, message({ createdAt: 400 })).unreadCount).toBeUndefined();
  });
  it('a message older than the shown one (triggers out of order) leaves the last message alone', () => {
    const shown = { ...bob, lastActivityAt: 2_000, lastMessage: { id: 'm9', senderId: 'alice', type: 'TEXT' as const, preview: 'later', createdAt: 2_000 } };
    const change = membershipAfterMessage(shown, message());
    expect(change.lastMessage).toBeUndefined();
    expect(change.unreadCount).toBe(3);
  });
});

describe('blockConflicts', () => {
  const lists = (entries: Record<string, string[]>) => new Map(Object.entries(entries).map(([u, ids]) => [u, new Set(ids)] as const));
  it('refuses an added person who blocks, or is blocked by, anyone present or another added one', () => {
    expect(blockConflicts(lists({ x: ['m'] }), ['x'], ['o', 'm'])).toEqual(['x']);
    expect(blockConflicts(lists({ m: ['x'] }), ['x'], ['o', 'm'])).toEqual(['x']);
    expect(blockConflicts(lists({ x: ['y'] }), ['x', 'y', 'z'], ['o'])).toEqual(['x', 'y']);
  });
  it('ignores blocks among those already present and blocks of outsiders; nobody conflicts with themselves', () => {
    expect(blockConflicts(lists({ m: ['n'], x: ['stranger'] }), ['x'], ['o', 'm', 'n'])).toEqual([]);
    expect(blockConflicts(lists({}), ['x'], ['x', 'o'])).toEqual([]);
  });
});
