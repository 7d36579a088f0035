import { perConfig, type AppConfig } from '../../platform/config';
import { enqueue } from '../../platform/tasks/tasks';
import { attachableMedia } from '../media';
import { mutedConversations, notificationHub } from '../notifications';
import { createConversationsService } from './conversations.service';
import { createCallsService, type RingScheduler } from './calls.service';
import { RING_TIMEOUT_QUEUE } from './calls.model';

// Services of the chat module, built once per configuration; routes, tasks and triggers take them from here.

// One task per call (its id), so a retried start does not queue a second timeout.
const ringScheduler: RingScheduler = {
  schedule: (callId, delaySec) => enqueue(RING_TIMEOUT_QUEUE, { callId }, { id: `ring-${callId}`, delaySec }),
};

export const callsServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createCallsService({ hub: notificationHub(config), scheduler: ringScheduler, ringTimeoutSec: config.CALL_RING_TIMEOUT_SEC }),
);

export const conversationsServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createConversationsService({ attachableMedia, mutedConversations, defaultGroupAdds: config.CHAT_GROUP_ADDS_DEFAULT }),
);
