import { documentTaskQueue } from '../../platform/kits/tasks/tasks';

// Collection names and the task queue, apart from the models: the module definition (loaded at every cold start)
// needs only these. calls.model.ts and conversations.model.ts re-export them.

// Firestore layout: `calls/{callId}` (members read their calls with the client SDK) and `call_lines/{userId}`:
// the ids of a user's live (ringing or active) calls, kept by every save. A busy check reads two of these by
// id instead of querying calls inside the transaction: point reads, one document per user to contend on.
export const CALLS = 'calls';
export const CALL_LINES = 'call_lines';

// The queue of the `callRingTimeout` task function.
export const RING_TIMEOUT_QUEUE = documentTaskQueue('callRingTimeout', 'callId');

// Firestore layout of conversations.
// `conversations/{id}`: members, title, owner, context. Cold: written on membership and title changes only.
// `conversations/{id}/messages/{messageId}`: messages; members listen to them.
// `chat_memberships/{conversationId}_{userId}`: one member's view: last message, unread count, read and
// delivered markers. Each message rewrites these (one document per member), never one shared document.
// `chat_blocks/{blockerId}_{blockedId}`: blocks.
// `chat_block_lists/{userId}`: the ids a user blocks, in one document, so a group's blocks are one read per person.
// `chat_reports/{messageId}_{reporterId}`: reported messages (the admin queue; the moderation kit, conversations.reports).
// `chat_invitations/{conversationId}_{userId}`: an invitation to a group, which the invitee accepts or declines.
// `chat_preferences/{userId}`: whether others may add the user to groups directly (default: by invitation).
export const CONVERSATIONS = 'conversations';
export const MESSAGES = 'messages';
export const CHAT_MEMBERSHIPS = 'chat_memberships';
export const CHAT_BLOCKS = 'chat_blocks';
export const CHAT_BLOCK_LISTS = 'chat_block_lists';
export const CHAT_REPORTS = 'chat_reports';
export const CHAT_INVITATIONS = 'chat_invitations';
export const CHAT_PREFERENCES = 'chat_preferences';
