import { z } from 'zod';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { writtenText } from '../../platform/kits/text/text.schemas';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';
import { TICKET_STATUSES } from './support.machine';
import { MAX_ATTACHMENTS, TICKET_CATEGORIES, TICKET_SURFACES, TICKET_LINK_TYPES, TICKET_PRIORITIES, TICKET_SOURCES } from './support.model';

const Category = z.enum(TICKET_CATEGORIES);
const Priority = z.enum(TICKET_PRIORITIES);
const Status = z.enum(TICKET_STATUSES);
const Attachments = z
  .array(DocumentIdSchema)
  .max(MAX_ATTACHMENTS)
  .default([])
  .describe(`Ids of your own READY media items (POST /upload/image, /upload/single or /upload/presign), at most ${MAX_ATTACHMENTS}`);
const LinkSchema = z
  .object({ type: z.enum(TICKET_LINK_TYPES), id: DocumentIdSchema })
  .meta({ id: 'TicketLink' })
  .describe('A ride, order, booking or payment of yours the ticket is about (checked: someone else’s is 422 TICKET_LINK_NOT_FOUND)');

export const TicketOpenSchema = z
  .object({
    category: Category,
    subject: writtenText(120, 3),
    description: writtenText(4000, 1),
    attachments: Attachments,
    link: LinkSchema.nullable().optional(),
    surface: z.enum(TICKET_SURFACES).default('CON').describe('The app it is opened from (consumer, driver, partner): its notices open there'),
  })
  .meta({ id: 'TicketOpen' });

export const MessageBodySchema = z.object({ body: writtenText(4000, 1), attachments: Attachments }).meta({ id: 'TicketMessageBody' });

export const StaffMessageBodySchema = z
  .object({
    body: writtenText(4000, 1).optional().describe('The reply (or note); with `cannedReplyId` alone, the canned text in the owner’s language'),
    cannedReplyId: DocumentIdSchema.optional(),
    attachments: Attachments,
    internal: z.boolean().default(false).describe('A note for staff only: never shown or notified to the owner'),
    awaitUser: z.boolean().default(false).describe('Ask the owner something: the ticket waits for them (WAITING_USER)'),
  })
  .refine((b) => b.body !== undefined || b.cannedReplyId !== undefined, { message: 'body or cannedReplyId is required', path: ['body'] })
  .meta({ id: 'TicketStaffMessageBody' });

export const NoteBodySchema = z.object({ note: writtenText(1000).optional().describe('Why (kept in the ticket’s history)') }).meta({ id: 'TicketMoveBody' });

export const RatingBodySchema = z.object({ score: z.number().int().min(1).max(5), comment: writtenText(1000).optional() }).meta({ id: 'TicketRatingBody' });

export const AssignBodySchema = z
  .object({ assigneeId: DocumentIdSchema.nullable().describe('An administrator holding support.manage; null unassigns') })
  .meta({ id: 'TicketAssignBody' });

export const TicketPatchSchema = z
  .object({ priority: Priority.optional(), category: Category.optional().describe('A new category keeps the ticket’s service-level times') })
  .refine((b) => b.priority !== undefined || b.category !== undefined, { message: 'priority or category is required' })
  .meta({ id: 'TicketPatch' });

export const MyTicketsQuerySchema = PageQuerySchema.extend({ status: Status.optional() });
export const QueueQuerySchema = PageQuerySchema.extend({
  status: Status.optional(),
  category: Category.optional(),
  priority: Priority.optional(),
  assignee: z.string().min(1).max(128).optional().describe('An administrator’s id, `me`, or `none` for unassigned tickets'),
  order: z.enum(['newest', 'due']).default('newest').describe('`due`: the earliest resolution due first'),
});

const AttachmentView = z.object({ id: z.string(), kind: z.string(), mimeType: z.string(), url: z.string() }).meta({ id: 'TicketAttachment' });
const RatingView = z.object({ score: z.number().int(), comment: z.string().nullable(), at: IsoTimeSchema }).meta({ id: 'TicketRating' });

export const TicketSchema = z
  .object({
    id: z.string(),
    category: Category,
    subject: z.string(),
    description: z.string(),
    attachments: z.array(AttachmentView),
    link: LinkSchema.nullable(),
    status: Status,
    replyExpectedBy: IsoTimeSchema.nullable().describe('When staff’s first answer is due (null once they answered)'),
    reopenableUntil: IsoTimeSchema.nullable().describe('A RESOLVED ticket closes by itself then; until then POST …/reopen'),
    resolvedAt: IsoTimeSchema.nullable(),
    closedAt: IsoTimeSchema.nullable(),
    lastMessageAt: IsoTimeSchema,
    rating: RatingView.nullable(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
    allowed: z.array(z.string()).describe('The moves the caller may make now'),
  })
  .meta({ id: 'Ticket' });

export const StaffTicketSchema = TicketSchema.extend({
  ownerId: z.string(),
  priority: Priority,
  source: z.enum(TICKET_SOURCES),
  assigneeId: z.string().nullable(),
  firstResponseDue: IsoTimeSchema,
  resolveDue: IsoTimeSchema,
  firstResponseAt: IsoTimeSchema.nullable(),
  overdue: z.object({ firstResponse: z.boolean(), resolution: z.boolean() }).describe('Past a service-level time, now'),
  messageCount: z.number().int(),
}).meta({ id: 'StaffTicket' });

export const TicketPageSchema = z.object({ items: z.array(TicketSchema), nextCursor: z.string().nullable() }).meta({ id: 'TicketPage' });
export const StaffTicketPageSchema = z.object({ items: z.array(StaffTicketSchema), nextCursor: z.string().nullable() }).meta({ id: 'StaffTicketPage' });

export const TicketMessageSchema = z
  .object({
    id: z.string(),
    from: z.enum(['USER', 'STAFF', 'SYSTEM']),
    body: z.string().describe('Plain text, never HTML'),
    attachments: z.array(AttachmentView),
    createdAt: IsoTimeSchema,
  })
  .meta({ id: 'TicketMessage' });
export const StaffTicketMessageSchema = TicketMessageSchema.extend({ authorId: z.string(), internal: z.boolean() }).meta({ id: 'StaffTicketMessage' });
export const TicketMessagePageSchema = z.object({ items: z.array(TicketMessageSchema), nextCursor: z.string().nullable() }).meta({ id: 'TicketMessagePage' });
export const StaffTicketMessagePageSchema = z
  .object({ items: z.array(StaffTicketMessageSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'StaffTicketMessagePage' });
export const PostedMessageSchema = z.object({ message: TicketMessageSchema, ticket: TicketSchema }).meta({ id: 'TicketMessagePosted' });
export const StaffPostedMessageSchema = z.object({ message: StaffTicketMessageSchema, ticket: StaffTicketSchema }).meta({ id: 'StaffTicketMessagePosted' });

export const TicketHistorySchema = z
  .object({
    items: z.array(
      z.object({ action: z.string(), from: z.string().nullable(), to: z.string(), by: z.string(), at: IsoTimeSchema, reason: z.string().nullable() }),
    ),
  })
  .meta({ id: 'TicketHistory' });

export const CategoriesSchema = z
  .object({
    items: z.array(
      z.object({
        category: Category,
        title: z.object({ vi: z.string(), en: z.string() }),
        firstResponseHours: z.number().int(),
        resolveHours: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'TicketCategories' });

const CannedFields = {
  title: writtenText(120, 2),
  body: z.object({ vi: writtenText(4000), en: writtenText(4000) }),
  category: Category.nullable().default(null).describe('Offered for tickets of this category (null: all)'),
};
export const CannedReplyBodySchema = z.object(CannedFields).meta({ id: 'CannedReplyBody' });
export const CannedReplyPatchSchema = z
  .object({ title: CannedFields.title.optional(), body: CannedFields.body.optional(), category: Category.nullable().optional() })
  .meta({ id: 'CannedReplyPatch' });
export const CannedReplySchema = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.object({ vi: z.string(), en: z.string() }),
    category: Category.nullable(),
    createdBy: z.string(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'CannedReply' });
export const CannedReplyPageSchema = z.object({ items: z.array(CannedReplySchema), nextCursor: z.string().nullable() }).meta({ id: 'CannedReplyPage' });
export const CannedQuerySchema = PageQuerySchema.extend({ category: Category.optional() });
