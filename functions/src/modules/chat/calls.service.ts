import { inTransaction } from '../../platform/core/firebase/firebase';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/core/errors/app-error';
import { logger } from '../../platform/core/logging/logger';
import type { DeadlineScheduler } from '../../platform/kits/deadlines/deadlines';
import type { Hub } from '../notifications';
import { CALL_MACHINE, calleeNotice, callRolesOf, callView, RING_DEADLINE, type CallAction, type CallRecord } from './calls.model';
import { transition } from '../../platform/kits/state-machine/state-machine';
import { callsRepo } from './calls.repo';
import { conversationsRepo } from './conversations.repo';
import { localeOf } from '../users';

const END_REASON: Partial<Record<CallRecord['status'], CallRecord['endReason']>> = {
  DECLINED: 'declined',
  CANCELLED: 'cancelled',
  ENDED: 'hangup',
  MISSED: 'no_answer',
};

/** Asks for the ring-timeout task of a call (Cloud Tasks); failures are tolerated (lazy expiry). */
export type RingScheduler = DeadlineScheduler;

export function createCallsService(deps: { hub: Hub; scheduler: RingScheduler; ringTimeoutSec: number; now?: () => number }) {
  const now = deps.now ?? Date.now;

  // One move of a call. A ringing call past its deadline is MISSED first, whoever looks at it first (the timeout task
  // or a request): the move is then refused, the MISSED kept. The task's `timeout` is tolerant: a call settled
  // meanwhile stays as it is (a repeated delivery changes nothing).
  async function moveCall(callId: string, action: CallAction, actorId: string | null) {
    const t = now();
    const { after } = await transition(
      CALL_MACHINE,
      { load: (tx) => callsRepo.get(callId, tx), save: (tx, next) => callsRepo.txSave(tx, next), ref: () => callsRepo.ref(callId) },
      {
        action,
        by: actorId ?? 'system:ring-timeout',
        now: t,
        missing: () => new NotFoundError('Call not found'),
        visible: (call) => actorId === null || call.participants.includes(actorId),
        rolesOf: (call) => callRolesOf(call, actorId),
        read: async (tx, call) =>
          action === 'answer' && call.status === 'RINGING' && call.calleeId === actorId
            ? conversationsRepo.eitherBlocks(call.callerId, call.calleeId, tx)
            : undefined,
        // A block made while the call rang: the call cannot be taken (it may still be declined or cancelled).
        guard: (call, blocks) => {
          if (call.status === 'RINGING' && blocks && (blocks.aBlocksB || blocks.bBlocksA))
            throw new ForbiddenError('You cannot take a call from this person').withCode('CHAT_BLOCKED');
        },
        apply: (call, to) => ({
          ...call,
          status: to,
          updatedAt: t,
          ...(to === 'ACTIVE' ? { answeredAt: t } : { endedAt: t, endedBy: actorId, endReason: END_REASON[to] ?? null }),
        }),
        deadline: RING_DEADLINE.expiry(),
        tolerant: action === 'timeout' ? 'refused' : undefined,
      },
    );
    // The missed-call notice leaves from the trigger on the call's status change (calls.triggers).
    return callView(after);
  }

  return {
    async start(callerId: string, body: { calleeId: string; type: 'audio' | 'video'; conversationId?: string }) {
      if (body.calleeId === callerId) throw new BadRequestError('You cannot call yourself', [{ field: 'body.calleeId', message: 'must be another user' }]);
      const t = now();
      const outcome = await inTransaction(
        async (tx) => {
          // One read for the account, both lines and the blocks (read together: the hot path of a ring).
          const [{ callee, callerCalls, calleeCalls }, blocks] = await Promise.all([
            callsRepo.txStartState(tx, callerId, body.calleeId),
            conversationsRepo.eitherBlocks(callerId, body.calleeId, tx),
          ]);
          if (!callee || callee.disabled || callee.status !== 'ACTIVE') throw new NotFoundError('User not found');
          if (blocks.aBlocksB || blocks.bBlocksA) throw new ForbiddenError('You cannot call this person').withCode('CHAT_BLOCKED');
          // Rings past their deadline are settled here too, so a lost timeout task never blocks a line.
          const settledCalls = new Map([...callerCalls, ...calleeCalls].map((c) => [c.id, RING_DEADLINE.settle(c, t)]));
          const expired = [...settledCalls.values()].filter((s) => s.expired).map((s) => s.entity);
          const live = (list: CallRecord[]) => list.map((c) => settledCalls.get(c.id)!.entity).filter((c) => c.status === 'RINGING' || c.status === 'ACTIVE');
          const mine = live(callerCalls);
          const same = mine.find((c) => c.status === 'RINGING' && c.callerId === callerId && c.calleeId === body.calleeId);
          if (same) return { call: same, created: false, expired: [], pushRing: undefined };
          if (mine.length > 0) throw new ConflictError('You are already in a call', { callId: mine[0].id }).withCode('CALL_BUSY');
          for (const call of expired) callsRepo.txSave(tx, call);
          const busy = live(calleeCalls).some((c) => c.status === 'ACTIVE');
          const call: CallRecord = {
            id: callsRepo.newId(),
            callerId,
            calleeId: body.calleeId,
            participants: [callerId, body.calleeId],
            type: body.type,
            conversationId: body.conversationId ?? null,
            status: busy ? 'DECLINED' : 'RINGING',
            endReason: busy ? 'busy' : null,
            endedBy: null,
            ringExpiresAt: t + deps.ringTimeoutSec * 1000,
            createdAt: t,
            answeredAt: null,
            endedAt: busy ? t : null,
            updatedAt: t,
          };
          callsRepo.txSave(tx, call);
          // The ring (call:ring and the CALL_INCOMING item) commits with the call: no ringing call without it. Its
          // text is in the callee's language, from the account this transaction read.
          const ring = calleeNotice(call, 'call.incoming');
          const pushRing =
            call.status === 'RINGING'
              ? deps.hub.dispatchInTransaction(tx, { ...ring, recipients: ring.recipients.map((r) => ({ ...r, locale: localeOf(callee) })) })
              : undefined;
          return { call, created: true, expired, pushRing };
        },
        { readsTogether: true },
      );
      const { call } = outcome;
      if (outcome.created && call.status === 'RINGING') {
        // The timeout first: it must not depend on push. The ring itself committed with the call.
        await RING_DEADLINE.arm(deps.scheduler, call, t);
        await outcome
          .pushRing?.()
          .catch((err: Error) => logger.error('ring push failed; the callee sees the ring in the inbox and realtime', { callId: call.id, error: err.message }));
      }
      // Busy and expired calls: their missed-call notices come from the trigger on the status change.
      return callView(call);
    },

    answer: (userId: string, id: string) => moveCall(id, 'answer', userId),
    decline: (userId: string, id: string) => moveCall(id, 'decline', userId),
    cancel: (userId: string, id: string) => moveCall(id, 'cancel', userId),
    end: (userId: string, id: string) => moveCall(id, 'end', userId),
    /** The ring-timeout task: idempotent (a repeated delivery finds the call settled). */
    timeout: (id: string) => moveCall(id, 'timeout', null),

    async history(userId: string, opts: { limit: number; cursor?: string }) {
      const page = await callsRepo.history(userId, opts);
      const t = now();
      return { calls: page.items.map((c) => callView(RING_DEADLINE.settle(c, t).entity)), nextCursor: page.nextCursor };
    },
  };
}

export type CallsService = ReturnType<typeof createCallsService>;
