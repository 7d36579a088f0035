import { perConfig, type AppConfig } from '../../platform/core/config';
import { accounts, localeOf } from '../users';
import { createAssistant } from './assistant.service';

/** The assistant of a configuration. */
export const assistantFor = perConfig((config: Readonly<AppConfig>) =>
  createAssistant({ config, now: Date.now, localeOf: async (userId) => localeOf(await accounts.get(userId)) }),
);
