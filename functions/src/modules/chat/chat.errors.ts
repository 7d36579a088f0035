import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The chat module's error codes (code: [the status it comes with, what it means]); the API's table is the platform's
// general codes and every module's own, and `ErrorCode` takes these through the declaration below.
export const CHAT_ERROR_CODES = defineErrorCodes({
  CALL_BUSY: [409, 'The caller is already in a call.'],
  CALL_NOT_ALLOWED: [409, 'Only the callee answers or declines, only the caller cancels.'],
  CALL_TRANSITION: [409, 'The call is no longer in a status that allows this (`details.status`).'],
  CHAT_SELF_CONVERSATION: [400, 'A direct conversation needs another person.'],
  CHAT_BLOCKED: [403, 'One of the two blocks the other (in a group: someone in it); `details.userIds` names only those you block.'],
  CHAT_NOT_OWNER: [403, 'Only the group owner adds and removes members.'],
  CHAT_NOT_SENDER: [403, 'Only the sender edits or deletes a message.'],
  CHAT_NOT_GROUP: [409, 'Only a group conversation has a title and changing members.'],
  CHAT_GROUP_FULL: [409, 'A group holds at most 100 members.'],
  CHAT_ALREADY_MEMBER: [409, 'The account is a member already (`details.userIds`).'],
  CHAT_CLOSED: [409, 'The ride, order or booking of this conversation is closed: it is read-only.'],
  CHAT_EDIT_WINDOW: [409, 'Messages are edited or deleted within 15 minutes of sending, and not after deletion.'],
  CHAT_NOT_EDITABLE: [409, 'Only text messages are edited.'],
  CHAT_ATTACHMENT_INVALID: [422, 'The media item is not one of your READY uploads of the message type.'],
  CHAT_REPLY_NOT_FOUND: [422, 'replyToId (or upToMessageId, before, after) is not a message of this conversation.'],
  CHAT_OWN_MESSAGE: [422, 'You cannot report your own message.'],
  CHAT_INVITATION_DECLINED: [409, 'The account declined an invitation to this group (`details.userIds`): it is not invited again.'],
  CHAT_INVITATION_TRANSITION: [409, 'The invitation is no longer pending (`details.status`).'],
  CHAT_BLOCKS_FULL: [409, 'You block as many people as one account can (1,000): unblock someone first.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof CHAT_ERROR_CODES> {}
}
