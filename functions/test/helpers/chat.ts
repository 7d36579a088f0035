import { db } from '../../src/platform/core/firebase/firebase';
import type { Tokens } from './accounts';
import { call } from './api';

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
  for (const userId of userIds) batch.set(db().collection('chat_preferences').doc(userId), { userId, groupAdds: 'DIRECT', updatedAt: Date.now() });
  await batch.commit();
}
