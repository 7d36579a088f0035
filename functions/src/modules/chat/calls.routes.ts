import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { CallHistoryQuerySchema, CallHistorySchema, CallIdParamsSchema, CallSchema, StartCallBodySchema } from './calls.schemas';
import { callsServiceFor } from './chat.wiring';
import { CHAT_RATE_LIMITS } from './conversations.model';

export function callsRoutes({ config }: AppContext): AnyRoute[] {
  const calls = () => callsServiceFor(config);
  const action = (name: 'answer' | 'decline' | 'cancel' | 'end', summary: string, description: string): AnyRoute =>
    defineRoute({
      method: 'post',
      path: `/chat/calls/:id/${name}`,
      operationId: `${name}Call`,
      tag: 'chat',
      summary,
      description: `${description} Illegal moves are 409; a ringing call past its deadline is MISSED.`,
      auth: [],
      errors: [404],
      codes: name === 'answer' ? ['CALL_NOT_ALLOWED', 'CALL_TRANSITION', 'CHAT_BLOCKED'] : ['CALL_NOT_ALLOWED', 'CALL_TRANSITION'],
      request: { params: CallIdParamsSchema },
      response: { description: 'The call.', schema: CallSchema },
      handler: ({ params, auth }) => calls()[name](auth!.userId, params.id),
    });
  return [
    defineRoute({
      method: 'post',
      path: '/chat/calls',
      operationId: 'startCall',
      tag: 'chat',
      summary: 'Start a call (RINGING)',
      description: `The callee gets call:ring (realtime), an inbox CALL_INCOMING item and a high-priority push even with notifications off. Unanswered within CALL_RING_TIMEOUT_SEC (default 30 s) it becomes MISSED (inbox CALL_MISSED, push, call:ended). A callee already in an ACTIVE call makes it DECLINED with endReason busy. Calling again while your call rings returns it (so a repeat without an Idempotency-Key rings once); being in another call is 409. With an Idempotency-Key a retry replays the first answer. Not while either of you blocks the other (403 CHAT_BLOCKED), which also refuses answering a call that was ringing when the block came.`,
      auth: [],
      errors: [404],
      codes: ['CALL_BUSY', 'CHAT_BLOCKED'],
      idempotent: true,
      rateLimit: CHAT_RATE_LIMITS.call,
      request: { body: StartCallBodySchema },
      response: { status: 201, description: 'The call.', schema: CallSchema },
      handler: ({ body, auth }) => calls().start(auth!.userId, body),
    }),
    action('answer', 'Answer a ringing call (callee) → ACTIVE', 'Callee only.'),
    action('decline', 'Decline a ringing call (callee) → DECLINED', 'Callee only.'),
    action('cancel', 'Cancel a ringing call (caller) → CANCELLED', 'Caller only.'),
    action('end', 'Hang up an active call → ENDED', 'Either participant.'),
    defineRoute({
      method: 'get',
      path: '/chat/calls',
      operationId: 'listMyCalls',
      tag: 'chat',
      summary: 'My call history (newest first)',
      auth: [],
      request: { query: CallHistoryQuerySchema },
      response: { description: 'A page of calls.', schema: CallHistorySchema },
      handler: ({ query, auth }) => calls().history(auth!.userId, query),
    }),
  ];
}
