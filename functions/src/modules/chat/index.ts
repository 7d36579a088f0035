// Public face of the chat module (calls today; conversations and messages come with the chat issue).
export { CALL_STATUSES, type CallStatus } from './calls.model';
