import type { AppConfig } from '../../platform/core/config';
import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import { notificationHub, type Hub } from '../notifications';
import { callDocument, calleeNotice, type CallRecord } from './calls.model';
import { directConversationId } from './conversations.model';
import { serverConversations } from './conversations.service';

// A call that just became MISSED (no answer, or settled late) or was created DECLINED because the
// callee was busy: the callee gets the missed-call notice.
export function missedCallOf(before: CallRecord | undefined, after: CallRecord | undefined): CallRecord | undefined {
  if (!after || before?.status === after.status) return undefined;
  const missed = after.status === 'MISSED' || (after.status === 'DECLINED' && after.endReason === 'busy');
  return missed ? after : undefined;
}

/**
 * Trigger on `calls/{callId}` writes. Delivered at least once: the hub's notification id is derived
 * from the event, the call and the callee, so a repeated delivery creates nothing and pushes nothing.
 * A failing hub throws, and the trigger (retry: true) is delivered again.
 */
export async function onCallWritten(
  change: { before?: CallRecord; after?: CallRecord },
  hub: Pick<Hub, 'dispatch'>,
  thread: { postSystemMessage: typeof serverConversations.postSystemMessage } = serverConversations,
): Promise<'notified' | 'duplicate' | 'ignored'> {
  const call = missedCallOf(change.before, change.after);
  if (!call) return 'ignored';
  // The thread of the two shows the missed call too (when they have one); its id derives from the call.
  await thread.postSystemMessage(call.conversationId ?? directConversationId(call.callerId, call.calleeId), {
    id: `call_${call.id}_missed`,
    event: 'call.missed',
    text: call.type === 'video' ? 'Missed video call' : 'Missed call',
    userIds: [call.callerId, call.calleeId],
  });
  const [report] = await hub.dispatch(calleeNotice(call, 'call.missed'));
  return report?.duplicate ? 'duplicate' : 'notified';
}

/** The `callStatusChanged` trigger's work. */
export const onCallDocumentWritten = typedTrigger(collectionRecords<CallRecord>(callDocument), async (change, config: Readonly<AppConfig>) =>
  onCallWritten(change, notificationHub(config)),
);
