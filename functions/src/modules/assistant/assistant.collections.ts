// Names only: the module definition (loaded at every cold start) needs nothing else.
/** `assistant_conversations/{userId}`: one conversation per user (API only). */
export const ASSISTANT_CONVERSATIONS = 'assistant_conversations';
/** `assistant_conversations/{userId}/assistant_messages/{id}`: its questions and answers (not `messages`: chat's name). */
export const ASSISTANT_MESSAGES = 'assistant_messages';
