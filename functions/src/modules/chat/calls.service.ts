import { inTransaction } from '../../platform/firebase/firebase';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors/app-error';
import { logger } from '../../platform/logging/logger';
import type { Hub } from '../notifications';
import { CALL_MACHINE, calleeNotice, callRolesOf, callView, type CallAction, type CallRecord } from './calls.model';
import { recordTransition } from '../../platform/state-machine/state-machine';
import { callsRepo } from './calls.repo';
import { conversationsRepo } from './conversations.repo';
import { localeOf } from '../users';

const END_REASON: Partial<Record<CallRecord['status'], CallRecord['endReason']>> = {
  DECLINED: 'declined',
  CANCELLED: 'cancelled',
  ENDED: 'hangup',
  MISSED: 'no_answer',
};

export interface RingScheduler {
  /** Asks for `onRingTimeout(callId)` after `delaySec` (Cloud Tasks); failures are tolerated (lazy expiry). */
  schedule(callId: string, delaySec: number): Promise<void>;
}

export function createCallsService(deps: { hub: Hub; scheduler: RingScheduler; ringTimeoutSec: number; now?: () => number }) {
  const now = deps.now ?? Date.now;

  // A ringing call past its deadline is MISSED, whoever looks at it first (the timeout task or a request).
  function settled(call: CallRecord, t: number): { call: CallRecord; expired: boolean } {
    if (call.status !== 'RINGING' || t < call.ringExpiresAt) return { call, expired: false };
    return { call: { ...call, status: 'MISSED', endReason: 'no_answer', endedAt: call.ringExpiresAt, updatedAt: t }, expired: true };
  }

  async function transition(callId: string, action: CallAction, actorId: string | null) {
    const t = now();
    const result = await inTransaction(async (tx) => {
      const stored = await callsRepo.get(callId, tx);
      if (!stored || (actorId !== null && !stored.participants.includes(actorId))) throw new NotFoundError('Call not found');
      const { call, expired } = settled(stored, t);
      const roles = callRolesOf(call, actorId);
      // The actor first (only the callee answers, whatever the status), then the status, after settling.
      CALL_MACHINE.checkActor(action, roles);
      // A block made while the call rang: the call cannot be taken (it may still be declined or cancelled).
      if (action === 'answer' && !expired && call.status === 'RINGING') {
        const blocks = await conversationsRepo.eitherBlocks(call.callerId, call.calleeId, tx);
        if (blocks.aBlocksB || blocks.bBlocksA) throw new ForbiddenError('You cannot take a call from this person').withCode('CHAT_BLOCKED');
      }
      if (expired) {
        callsRepo.txSave(tx, call);
        recordTransition(tx, callsRepo.ref(call.id), { action: 'timeout', from: 'RINGING', to: 'MISSED', by: 'system:ring-deadline', at: t });
      }
      if (action === 'timeout' && call.status !== 'RINGING') return { call, expired, changed: false };
      if (expired) return { call, expired, changed: false, refused: true };
      const to = CALL_MACHINE.check(action, call.status, roles);
      const next: CallRecord = {
        ...call,
        status: to,
        updatedAt: t,
        ...(to === 'ACTIVE' ? { answeredAt: t } : { endedAt: t, endedBy: actorId, endReason: END_REASON[to] ?? null }),
      };
      callsRepo.txSave(tx, next);
      recordTransition(tx, callsRepo.ref(call.id), { action, from: call.status, to, by: actorId ?? 'system:ring-timeout', at: t });
      return { call: next, expired, changed: true };
    });
    // The missed-call notice leaves from the trigger on the call's status change (calls.triggers).
    if ('refused' in result && result.refused) throw new ConflictError(`Cannot ${action} a call that is MISSED`, { status: 'MISSED' }).withCode('CALL_TRANSITION');
    return callView(result.call);
  }

  return {
    async start(callerId: string, body: { calleeId: string; type: 'audio' | 'video'; conversationId?: string }) {
      if (body.calleeId === callerId) throw new BadRequestError('You cannot call yourself', [{ field: 'body.calleeId', message: 'must be another user' }]);
      const t = now();
      const outcome = await inTransaction(async (tx) => {
        // One read for the account and both lines: this is the hot path of a ring.
        const [{ callee, callerCalls, calleeCalls }, blocks] = await Promise.all([callsRepo.txStartState(tx, callerId, body.calleeId), conversationsRepo.eitherBlocks(callerId, body.calleeId, tx)]);
        if (!callee || callee.disabled || callee.status !== 'ACTIVE') throw new NotFoundError('User not found');
        if (blocks.aBlocksB || blocks.bBlocksA) throw new ForbiddenError('You cannot call this person').withCode('CHAT_BLOCKED');
        // Rings past their deadline are settled here too, so a lost timeout task never blocks a line.
        const settledCalls = new Map([...callerCalls, ...calleeCalls].map((c) => [c.id, settled(c, t)]));
        const expired = [...settledCalls.values()].filter((s) => s.expired).map((s) => s.call);
        const live = (list: CallRecord[]) => list.map((c) => settledCalls.get(c.id)!.call).filter((c) => c.status === 'RINGING' || c.status === 'ACTIVE');
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
      });
      const { call } = outcome;
      if (outcome.created && call.status === 'RINGING') {
        // The timeout first: it must not depend on push. The ring itself committed with the call.
        await deps.scheduler.schedule(call.id, deps.ringTimeoutSec).catch((err: Error) => logger.error('ring timeout not scheduled; the call expires lazily', { callId: call.id, error: err.message }));
        await outcome.pushRing?.().catch((err: Error) => logger.error('ring push failed; the callee sees the ring in the inbox and realtime', { callId: call.id, error: err.message }));
      }
      // Busy and expired calls: their missed-call notices come from the trigger on the status change.
      return callView(call);
    },

    answer: (userId: string, id: string) => transition(id, 'answer', userId),
    decline: (userId: string, id: string) => transition(id, 'decline', userId),
    cancel: (userId: string, id: string) => transition(id, 'cancel', userId),
    end: (userId: string, id: string) => transition(id, 'end', userId),
    /** The ring-timeout task: idempotent (a repeated delivery finds the call settled). */
    timeout: (id: string) => transition(id, 'timeout', null),

    async history(userId: string, opts: { limit: number; cursor?: string }) {
      const page = await callsRepo.history(userId, opts);
      const t = now();
      return { calls: page.items.map((c) => callView(settled(c, t).call)), nextCursor: page.nextCursor };
    },
  };
}

export type CallsService = ReturnType<typeof createCallsService>;
