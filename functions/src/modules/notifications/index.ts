// Public face of the notifications module: the hub every module notifies through, and the commands other
// modules need for the data it owns (push tokens).
import { notificationsRepo } from './notifications.repo';

export type { Hub, DispatchInput } from './hub';
export type { DeepLinkTarget, EventPolicy, KnownEvent, Surface } from './events';
export { defineEvents, HOUR, link } from './events';
export { notificationHub } from './notifications.wiring';

/** Drops the push tokens registered by these sessions (sign-out, revocation): they must not get pushes. */
export function removeSessionDevices(sessionIds: string[]): Promise<number> {
  return notificationsRepo.deleteTokensOfSessions(sessionIds);
}
