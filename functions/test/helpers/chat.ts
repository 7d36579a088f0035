import { db } from '../../src/platform/core/firebase/firebase';
import type { Tokens } from './accounts';
import { call } from './api';
import { CHAT_PREFERENCES } from '../../src/modules/chat/chat.collections';

/** Lets others add these people to groups at once (the default is an invitation they accept first). */
export async function allowDirectAdds(...people: Tokens[]): Promise<void> {
  for (const who of people) {
    const res = await call('PUT', '/chat/preferences', { token: who.accessToken, body: { groupAdds: 'DIRECT' } });
    if (res.status !== 200) throw new Error(`PUT /chat/preferences answered ${res.status}`);
  }
}

/** The same for accounts written straight to Firestore (no tokens). */
export async function allowDirectAddsOf(userIds: string[]): Promise<void> {
  const batch = db().batch();
  for (const userId of userIds) batch.set(db().collection(CHAT_PREFERENCES).doc(userId), { userId, groupAdds: 'DIRECT', updatedAt: Date.now() });
  await batch.commit();
}

/** POST /chat/conversations: a DIRECT conversation of `from` with `toUserId` (the existing one if there is one). */
export const openDirect = (from: Tokens, toUserId: string) =>
  call('POST', '/chat/conversations', { token: from.accessToken, body: { type: 'DIRECT', userId: toUserId } });

/** The id of the DIRECT conversation of `a` and `b`. */
export async function directBetween(a: Tokens, b: Tokens): Promise<string> {
  return (await openDirect(a, b.user.id)).body.id;
}

/** A TEXT message from `who` in the conversation. */
export const sendText = (who: Tokens, conversationId: string, text: string) =>
  call('POST', `/chat/conversations/${conversationId}/messages`, { token: who.accessToken, body: { type: 'TEXT', text } });
