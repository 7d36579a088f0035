import * as z from 'zod/mini';
import { describe, lazySchema, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';
import type { Identified } from '../../platform/kits/firestore/records';
import { iso, isoOrNull, timestampOf } from '../../platform/kits/time/time';
import type { DispatchInput } from '../notifications';
import { CHAT_EVENTS } from './chat.events';
import { CHAT_TEXTS } from './chat.texts';
import { defineMachine } from '../../platform/kits/state-machine/state-machine';
import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { RING_TIMEOUT_QUEUE } from './chat.collections';

export { CALL_LINES, CALLS, RING_TIMEOUT_QUEUE } from './chat.collections';

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

// The ring's deadline: a call still RINGING at `ringExpiresAt` is MISSED, by the `callRingTimeout` task (one per call)
// or by whoever reads or moves it first. The task waits in its worker for a ring due within 90 s (below the task
// function's 120 s timeout), since the Tasks emulator delivers at once.
export const RING_DEADLINE = defineDeadline({
  entity: 'call',
  queue: RING_TIMEOUT_QUEUE,
  idField: 'callId',
  taskId: (callId) => `ring-${callId}`,
  dueAt: (call: CallRecord) => (call.status === 'RINGING' ? call.ringExpiresAt : null),
  expiry: {
    machine: CALL_MACHINE,
    action: 'timeout',
    by: 'system:ring-deadline',
    apply: (call: CallRecord, to: CallStatus, at: number): CallRecord => ({
      ...call,
      status: to,
      endReason: 'no_answer',
      endedAt: call.ringExpiresAt,
      updatedAt: at,
    }),
  },
  maxWaitMs: 90_000,
});

/** The roles of an actor for a call (null: the system, i.e. the ring-timeout task). */
export function callRolesOf(call: Pick<CallRecord, 'callerId' | 'calleeId'>, actorId: string | null): CallRole[] {
  if (actorId === null) return ['system'];
  return [...(call.callerId === actorId ? (['caller'] as const) : []), ...(call.calleeId === actorId ? (['callee'] as const) : [])];
}

// `calls/{id}`: the entity document both participants listen to.
export const callDocument = lazySchema(() =>
  describe(
    z.object({
      callerId: describe(z.string(), 'Who called.'),
      calleeId: describe(z.string(), 'Who was called.'),
      participants: describe(z.tuple([z.string(), z.string()]), 'Caller and callee: who may read this document (firestore.rules).'),
      type: describe(z.enum(['audio', 'video']), 'Audio or video.'),
      conversationId: describe(z.nullable(z.string()), 'The conversation the call was started from, if any.'),
      status: describe(z.enum(CALL_STATUSES), 'RINGING → ACTIVE → ENDED; or DECLINED, CANCELLED, MISSED.'),
      endReason: describe(
        z.nullable(z.enum(['busy', 'declined', 'cancelled', 'hangup', 'no_answer'])),
        'Why the call ended (busy: the callee was in another call).',
      ),
      endedBy: describe(z.nullable(z.string()), 'Who ended it (an account id); null when the system did.'),
      ringExpiresAt: timestamp('when an unanswered ring becomes MISSED.'),
      createdAt: timestamp('when the call started ringing.'),
      answeredAt: nullableTimestamp('when the callee answered.'),
      endedAt: nullableTimestamp('when the call ended.'),
      updatedAt: timestamp('last change.'),
    }),
    'A call, read live by its two participants for its status.',
  ),
);
export type CallRecord = Identified & RecordOf<typeof callDocument>;

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
      ? { callId: call.id, callerId: call.callerId, type: call.type, ringExpiresAt: timestampOf(call.ringExpiresAt) }
      : { callId: call.id, status: call.status, callerId: call.callerId },
  });
}
