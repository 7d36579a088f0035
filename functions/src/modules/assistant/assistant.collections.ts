// Names only: the module definition (loaded at every cold start) needs nothing else.
/** `assistant_conversations/{userId}`: one conversation per user (API only). */
export const ASSISTANT_CONVERSATIONS = 'assistant_conversations';
/** `assistant_conversations/{userId}/messages/{id}`: its questions and answers. */
export const ASSISTANT_MESSAGES = 'messages';
