// Public face of the assistant module: its collections (nothing else of it is used by other modules).
export { ASSISTANT_CONVERSATIONS, ASSISTANT_MESSAGES } from './assistant.collections';
