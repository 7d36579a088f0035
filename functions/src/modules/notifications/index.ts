// Public face of the notifications module: the hub every module notifies through, the event-table kit, and
// the commands other modules need for the data it owns (push tokens). The hub and the repo load on first use:
// module definitions import this face (through their events files), and the Cloud Functions entry loads those.
import type { AppConfig } from '../../platform/core/config';
import type { Hub } from './hub';

export type { Hub, DispatchInput, AggregatedDispatchInput } from './hub';
export type { AggregateInput } from './aggregate';
export type { DeepLinkTarget, EventPolicy, KnownEvent, Surface } from './events';
export { defineEvents, HOUR, link, SURFACES } from './events';

/** The hub of this configuration (push transport per PUSH_TRANSPORT). */
export function notificationHub(config: Readonly<AppConfig>): Hub {
  return (require('./notifications.wiring') as typeof import('./notifications.wiring')).notificationHub(config);
}

/** Drops the push tokens registered by these sessions (sign-out, revocation): they must not get pushes. */
export function removeSessionDevices(sessionIds: string[]): Promise<number> {
  return (require('./notifications.repo') as typeof import('./notifications.repo')).notificationsRepo.deleteTokensOfSessions(sessionIds);
}

/** The conversations this user muted (PUT /notifications/mutes/:conversationId): listed as muted, never pushed. */
export async function mutedConversations(userId: string): Promise<Set<string>> {
  const prefs = await (require('./notifications.repo') as typeof import('./notifications.repo')).notificationsRepo.preferences(userId);
  return new Set(Object.keys(prefs?.muted ?? {}));
}
