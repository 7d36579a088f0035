import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The assistant module's error codes (code: [the status it comes with, what it means]).
export const ASSISTANT_ERROR_CODES = defineErrorCodes({
  ASSISTANT_MESSAGE_NOT_FOUND: [404, 'No such message in your conversation.'],
  ASSISTANT_NOTHING_TO_HAND_OFF: [409, 'The conversation has no question of yours to hand to support.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof ASSISTANT_ERROR_CODES> {}
}
