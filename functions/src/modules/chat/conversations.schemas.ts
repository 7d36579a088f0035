import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { LatLngBodySchema } from '../../platform/kits/geo/geo';
import { DocumentIdSchema, IdParamsSchema } from '../../platform/core/http/ids';
import { CHAT_LIMITS, CONTEXT_TYPES, CONVERSATION_TYPES, GROUP_ADD_MODES, INVITATION_STATUSES, MEMBER_ROLES, MESSAGE_TYPES } from './conversations.model';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

const Title = z.string().trim().min(1).max(CHAT_LIMITS.titleMax);

export const MessagePreviewSchema = z
  .object({ id: z.string(), senderId: z.string(), type: z.enum(MESSAGE_TYPES), preview: z.string(), createdAt: IsoTimeSchema })
  .meta({ id: 'ChatMessagePreview' });

export const ChatMemberSchema = z
  .object({
    userId: z.string(),
    name: z.string().nullable().describe('Display name (null for an account that no longer exists)'),
    role: z.enum(MEMBER_ROLES),
    readUpTo: IsoTimeSchema.nullable().describe('Time of the last message this member has read'),
    deliveredUpTo: IsoTimeSchema.nullable().describe("Time of the newest message this member's app has fetched"),
  })
  .meta({ id: 'ChatMember' });

const ConversationBase = {
  id: z.string(),
  type: z.enum(CONVERSATION_TYPES),
  title: z.string().nullable().describe('GROUP: its title; DIRECT: the other member’s name'),
  ownerId: z.string().nullable(),
  context: z.object({ type: z.enum(CONTEXT_TYPES), id: z.string() }).nullable(),
  closed: z.boolean().describe('CONTEXT: the ride, order or booking is closed; the conversation is read-only'),
  memberCount: z.number().int(),
  invitedIds: z.array(z.string()).describe('GROUP: accounts invited that have not answered yet (they become members when they accept)'),
  lastMessage: MessagePreviewSchema.nullable(),
  lastActivityAt: IsoTimeSchema,
  unreadCount: z.number().int(),
  muted: z.boolean(),
  createdAt: IsoTimeSchema,
};

export const ConversationSummarySchema = z
  .object({
    ...ConversationBase,
    members: z.array(z.object({ userId: z.string(), name: z.string().nullable() })).describe('Up to 5 members other than the caller'),
  })
  .meta({ id: 'ChatConversationSummary' });

export const ConversationSchema = z
  .object({ ...ConversationBase, members: z.array(ChatMemberSchema).describe('Every member, with read and delivered markers') })
  .meta({ id: 'ChatConversation', description: 'Members also listen to conversations/{id}/messages and their chat_memberships/{id}_{uid} in Firestore.' });

export const ConversationListQuerySchema = PageQuerySchema;
export const ConversationListSchema = z
  .object({ items: z.array(ConversationSummarySchema), nextCursor: z.string().nullable() })
  .meta({ id: 'ChatConversationList' });

export const CreateConversationBodySchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('DIRECT'), userId: DocumentIdSchema.describe('The other member') }).strict(),
    z
      .object({
        type: z.literal('GROUP'),
        title: Title,
        memberIds: z
          .array(DocumentIdSchema)
          .min(1)
          .max(CHAT_LIMITS.groupMembersMax - 1)
          .describe(`Members besides the caller (the owner); ${CHAT_LIMITS.groupMembersMin}–${CHAT_LIMITS.groupMembersMax} in all`),
      })
      .strict(),
  ])
  .meta({ id: 'CreateChatConversationBody' });

export const PatchConversationBodySchema = z.object({ title: Title }).strict().meta({ id: 'PatchChatConversationBody' });
export const AddMembersBodySchema = z
  .object({
    userIds: z
      .array(DocumentIdSchema)
      .min(1)
      .max(CHAT_LIMITS.groupMembersMax - 1),
  })
  .strict()
  .meta({ id: 'AddChatMembersBody' });

export const ConversationParamsSchema = IdParamsSchema;
export const MemberParamsSchema = z.object({ id: DocumentIdSchema, userId: DocumentIdSchema });
export const MessageParamsSchema = z.object({ id: DocumentIdSchema, messageId: DocumentIdSchema });

export const MessageSchema = z
  .object({
    id: z.string(),
    conversationId: z.string(),
    senderId: z.string().describe('"system" for SYSTEM messages'),
    type: z.enum(MESSAGE_TYPES),
    text: z.string().nullable(),
    media: z.object({ id: z.string(), mimeType: z.string(), url: z.string() }).nullable(),
    location: z.object({ lat: z.number(), lng: z.number() }).nullable(),
    replyTo: z.object({ id: z.string(), senderId: z.string(), preview: z.string() }).nullable(),
    system: z.object({ event: z.string(), userIds: z.array(z.string()) }).nullable(),
    createdAt: IsoTimeSchema,
    editedAt: IsoTimeSchema.nullable(),
    deleted: z.boolean().describe('A tombstone: text, media and location are gone'),
  })
  .meta({ id: 'ChatMessage' });

const ReplyTo = { replyToId: DocumentIdSchema.optional().describe('A message of this conversation to reply to') };
export const SendMessageBodySchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('TEXT'), text: z.string().trim().min(1).max(CHAT_LIMITS.textMax), ...ReplyTo }).strict(),
    z.object({ type: z.literal('AUDIO'), mediaId: DocumentIdSchema.describe('A READY media item of the sender (POST /media/upload)'), ...ReplyTo }).strict(),
    z.object({ type: z.literal('IMAGE'), mediaId: DocumentIdSchema.describe('A READY image of the sender (POST /upload/image)'), ...ReplyTo }).strict(),
    z.object({ type: z.literal('LOCATION'), location: LatLngBodySchema, ...ReplyTo }).strict(),
  ])
  .meta({ id: 'SendChatMessageBody', description: 'SYSTEM messages are written by the server only.' });
export type SendMessageBody = z.output<typeof SendMessageBodySchema>;

export const EditMessageBodySchema = z
  .object({ text: z.string().trim().min(1).max(CHAT_LIMITS.textMax) })
  .strict()
  .meta({ id: 'EditChatMessageBody' });

export const MessageListQuerySchema = PageQuerySchema.extend({
  before: DocumentIdSchema.optional().describe('Only messages older than this message'),
  after: DocumentIdSchema.optional().describe('Only messages newer than this message (catching up after a reconnect)'),
});
export const MessageListSchema = z.object({ items: z.array(MessageSchema), nextCursor: z.string().nullable() }).meta({ id: 'ChatMessageList' });

export const ReadBodySchema = z.object({ upToMessageId: DocumentIdSchema }).strict().meta({ id: 'ChatReadBody' });
export const ReadStateSchema = z
  .object({ conversationId: z.string(), readUpToId: z.string().nullable(), readUpTo: IsoTimeSchema.nullable(), unreadCount: z.number().int() })
  .meta({ id: 'ChatReadState' });

export const UnreadTotalSchema = z
  .object({ unreadCount: z.number().int(), conversations: z.number().int().describe('Conversations with unread messages') })
  .meta({ id: 'ChatUnreadTotal' });

export const BlockParamsSchema = z.object({ userId: DocumentIdSchema });
export const BlockSchema = z.object({ userId: z.string(), createdAt: IsoTimeSchema }).meta({ id: 'ChatBlock' });
export const BlockListSchema = z.object({ items: z.array(BlockSchema), nextCursor: z.string().nullable() }).meta({ id: 'ChatBlockList' });

export const REPORT_REASONS = ['SPAM', 'ABUSE', 'HARASSMENT', 'ILLEGAL', 'OTHER'] as const;
export const REPORT_STATUSES = ['OPEN', 'DISMISSED', 'ACTIONED'] as const;
export const ReportBodySchema = z
  .object({ reason: z.enum(REPORT_REASONS), note: z.string().trim().max(1000).optional() })
  .strict()
  .meta({ id: 'ChatReportBody' });
export const ReportSchema = z
  .object({
    id: z.string(),
    messageId: z.string(),
    conversationId: z.string(),
    reporterId: z.string(),
    senderId: z.string(),
    reason: z.enum(REPORT_REASONS),
    note: z.string().nullable(),
    excerpt: z.string().describe('The message as it was when reported'),
    status: z.enum(REPORT_STATUSES),
    createdAt: IsoTimeSchema,
    resolvedAt: IsoTimeSchema.nullable(),
    resolvedBy: z.string().nullable(),
  })
  .meta({ id: 'ChatReport' });
export const ReportListQuerySchema = PageQuerySchema.extend({ status: z.enum(REPORT_STATUSES).default('OPEN') });
export const ReportListSchema = z.object({ items: z.array(ReportSchema), nextCursor: z.string().nullable() }).meta({ id: 'ChatReportList' });
export const ResolveReportBodySchema = z
  .object({ status: z.enum(['DISMISSED', 'ACTIONED']) })
  .strict()
  .meta({ id: 'ResolveChatReportBody' });

export const InvitationSchema = z
  .object({
    id: z.string(),
    conversationId: z.string(),
    title: z.string().nullable().describe('PENDING: the group’s title now (null once the group is gone); otherwise the title when the invitation was made'),
    invitedBy: z.object({ id: z.string(), name: z.string().nullable() }),
    status: z.enum(INVITATION_STATUSES),
    createdAt: IsoTimeSchema,
    respondedAt: IsoTimeSchema.nullable(),
  })
  .meta({ id: 'ChatInvitation' });
export const InvitationListQuerySchema = PageQuerySchema.extend({ status: z.enum(INVITATION_STATUSES).default('PENDING') });
export const InvitationListSchema = z.object({ items: z.array(InvitationSchema), nextCursor: z.string().nullable() }).meta({ id: 'ChatInvitationList' });

export const ChatPreferencesSchema = z
  .object({
    groupAdds: z
      .enum(GROUP_ADD_MODES)
      .describe('INVITATION (default): being added to a group makes an invitation I accept or decline; DIRECT: I become a member at once'),
  })
  .meta({ id: 'ChatPreferences' });
export const ChatPreferencesBodySchema = ChatPreferencesSchema.strict().meta({ id: 'ChatPreferencesBody' });
