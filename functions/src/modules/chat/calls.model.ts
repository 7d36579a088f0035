import { iso, isoOrNull } from '../../platform/time';
import type { DispatchInput } from '../notifications';
import { CHAT_EVENTS } from './chat.events';
import { CHAT_TEXTS } from './chat.texts';
import { defineMachine } from '../../platform/state-machine/state-machine';
import { documentTaskQueue } from '../../platform/tasks/tasks';

// Firestore layout: `calls/{callId}` (members read their calls with the client SDK) and `call_lines/{userId}`:
// the ids of a user's live (ringing or active) calls, kept by every save. A busy check reads two of these by
// id instead of querying calls inside the transaction: point reads, one document per user to contend on.
export const CALLS = 'calls';
export const CALL_LINES = 'call_lines';

// The queue of the `callRingTimeout` task function.
export const RING_TIMEOUT_QUEUE = documentTaskQueue('callRingTimeout', 'callId');

// Call life cycle (spec: RINGING → ACTIVE on answer; the rest is ours):
//   RINGING → ACTIVE (callee answers) | DECLINED (callee declines, or busy) | CANCELLED (caller hangs up first)
//           | MISSED (nobody answered within the ring timeout)
//   ACTIVE  → ENDED (either side hangs up)
export const CALL_STATUSES = ['RINGING', 'ACTIVE', 'ENDED', 'DECLINED', 'CANCELLED', 'MISSED'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export type CallAction = 'answer' | 'decline' | 'cancel' | 'end' | 'timeout';

export type CallRole = 'caller' | 'callee' | 'system';

export const CALL_MACHINE = defineMachine({
  entity: 'call',
  states: CALL_STATUSES,
  moves: {
    answer: { from: 'RINGING', to: 'ACTIVE', by: 'callee' },
    decline: { from: 'RINGING', to: 'DECLINED', by: 'callee' },
    cancel: { from: 'RINGING', to: 'CANCELLED', by: 'caller' },
    end: { from: 'ACTIVE', to: 'ENDED', by: ['caller', 'callee'] },
    timeout: { from: 'RINGING', to: 'MISSED', by: 'system' },
  },
  codes: { transition: 'CALL_TRANSITION', actor: 'CALL_NOT_ALLOWED' },
});

/** The roles of an actor for a call (null: the system, i.e. the ring-timeout task). */
export function callRolesOf(call: Pick<CallRecord, 'callerId' | 'calleeId'>, actorId: string | null): CallRole[] {
  if (actorId === null) return ['system'];
  return [...(call.callerId === actorId ? (['caller'] as const) : []), ...(call.calleeId === actorId ? (['callee'] as const) : [])];
}

// `calls/{id}`: the entity document both participants listen to.
export interface CallRecord {
  id: string;
  callerId: string;
  calleeId: string;
  participants: [string, string];
  type: 'audio' | 'video';
  conversationId: string | null;
  status: CallStatus;
  endReason: 'busy' | 'declined' | 'cancelled' | 'hangup' | 'no_answer' | null;
  endedBy: string | null;
  ringExpiresAt: number;
  createdAt: number;
  answeredAt: number | null;
  endedAt: number | null;
  updatedAt: number;
}

export function callView(c: CallRecord) {
  return {
    id: c.id,
    callerId: c.callerId,
    calleeId: c.calleeId,
    type: c.type,
    conversationId: c.conversationId,
    status: c.status,
    endReason: c.endReason,
    endedBy: c.endedBy,
    ringExpiresAt: iso(c.ringExpiresAt),
    createdAt: iso(c.createdAt),
    answeredAt: isoOrNull(c.answeredAt),
    endedAt: isoOrNull(c.endedAt),
  };
}

// What the callee is told: the ring, or a missed call (no answer, or busy).
export function calleeNotice(call: CallRecord, event: 'call.incoming' | 'call.missed'): DispatchInput {
  const ring = event === 'call.incoming';
  return CHAT_EVENTS.notice({
    event,
    recipients: [{ userId: call.calleeId, surface: 'CON' as const }],
    entityId: call.id,
    text: ring ? CHAT_TEXTS.text('call.incoming', { video: call.type === 'video' }) : CHAT_TEXTS.text('call.missed', { busy: call.endReason === 'busy' }),
    conversationId: call.conversationId ?? undefined,
    realtimeData: ring
      ? { callId: call.id, callerId: call.callerId, type: call.type, ringExpiresAt: call.ringExpiresAt }
      : { callId: call.id, status: call.status, callerId: call.callerId },
  });
}

