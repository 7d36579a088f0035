import { perConfig, type AppConfig } from '../../platform/core/config';
import { attachableMedia } from '../media';
import { mutedConversations, notificationHub } from '../notifications';
import { createConversationsService } from './conversations.service';
import { createCallsService } from './calls.service';
import { RING_DEADLINE } from './calls.model';

// Services of the chat module, built once per configuration; routes, tasks and triggers take them from here.

export const callsServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createCallsService({ hub: notificationHub(config), scheduler: RING_DEADLINE.scheduler, ringTimeoutSec: config.CALL_RING_TIMEOUT_SEC }),
);

export const conversationsServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createConversationsService({ attachableMedia, mutedConversations, defaultGroupAdds: config.CHAT_GROUP_ADDS_DEFAULT }),
);
