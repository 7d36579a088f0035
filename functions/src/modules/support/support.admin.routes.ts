import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { DeletedSchema, IdParamsSchema } from '../../platform/core/http/ids';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import {
  AssignBodySchema,
  CannedQuerySchema,
  CannedReplyBodySchema,
  CannedReplyPageSchema,
  CannedReplyPatchSchema,
  CannedReplySchema,
  NoteBodySchema,
  QueueQuerySchema,
  StaffMessageBodySchema,
  StaffPostedMessageSchema,
  StaffTicketMessagePageSchema,
  StaffTicketPageSchema,
  StaffTicketSchema,
  TicketHistorySchema,
  TicketPatchSchema,
} from './support.schemas';
import type { StaffAction } from './support.tickets';
import { cannedView, historyItems, staffMessageView, staffTicketView } from './support.views';
import { supportServicesFor } from './support.wiring';

const MOVE_PATHS: Record<StaffAction, string> = { start: 'start', awaitUser: 'await-user', resolve: 'resolve', close: 'close' };

// Staff's side of the help desk (ADMIN holding support.manage): the queue, a ticket with its internal notes, replies
// (canned or not), assignment, priority and category, status moves, and the canned replies themselves.
export function supportAdminRoutes({ config }: AppContext): AnyRoute[] {
  const services = () => supportServicesFor(config);
  const admin = { tag: 'support' as const, auth: ['ADMIN'] as const, permission: 'support.manage' as const };
  const view = (r: Parameters<typeof staffTicketView>[0]) => staffTicketView(r, Date.now());
  const staffMove = (action: StaffAction, summary: string, description: string) =>
    defineRoute({
      ...admin,
      method: 'post',
      path: `/support/admin/tickets/:id/${MOVE_PATHS[action]}`,
      operationId: `admin${action.charAt(0).toUpperCase()}${action.slice(1)}Ticket`,
      summary,
      description,
      errors: [404, 409],
      codes: ['TICKET_TRANSITION', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema, body: NoteBodySchema },
      response: { description: 'The ticket after the move.', schema: StaffTicketSchema },
      handler: async ({ auth, params, body }) => view(await services().tickets.staffMove(auth!.userId, params.id, action, body.note ?? null)),
    });
  return [
    defineRoute({
      ...admin,
      method: 'get',
      path: '/support/admin/tickets',
      operationId: 'adminListTickets',
      summary: 'The support queue (ADMIN, support.manage)',
      description:
        'Filters combine freely (`assignee`: an id, `me` or `none`); `order=due` puts the earliest resolution due first. Each ticket says whether it is past a service-level time now.',
      codes: ['PERMISSION_REQUIRED'],
      request: { query: QueueQuerySchema },
      response: { description: 'A page of tickets.', schema: StaffTicketPageSchema },
      handler: async ({ auth, query }) => {
        const s = services();
        const page = await s.desk.queue(auth!.userId, query);
        const t = Date.now();
        return { items: page.items.map((r) => staffTicketView(s.tickets.settle(r, t), t)), nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      ...admin,
      method: 'get',
      path: '/support/admin/tickets/:id',
      operationId: 'adminGetTicket',
      summary: 'One ticket with its owner, priority, assignee and service levels (ADMIN, support.manage)',
      errors: [404],
      codes: ['PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema },
      response: { description: 'The ticket.', schema: StaffTicketSchema },
      handler: async ({ params }) => view(await services().tickets.read(params.id, 'staff')),
    }),
    defineRoute({
      ...admin,
      method: 'get',
      path: '/support/admin/tickets/:id/messages',
      operationId: 'adminListTicketMessages',
      summary: 'The whole thread, internal notes included, oldest first (ADMIN, support.manage)',
      errors: [404],
      codes: ['PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema, query: PageQuerySchema },
      response: { description: 'A page of the thread.', schema: StaffTicketMessagePageSchema },
      handler: async ({ auth, params, query }) => {
        await services().tickets.read(params.id, 'staff');
        const page = await services().thread.list(params.id, true, query, auth!.userId);
        return { items: page.items.map(staffMessageView), nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      ...admin,
      method: 'post',
      path: '/support/admin/tickets/:id/messages',
      operationId: 'adminPostTicketMessage',
      summary: 'Reply to a ticket, or add an internal note (ADMIN, support.manage)',
      description:
        'A reply to an OPEN ticket starts it (IN_PROGRESS) and assigns it to you when unassigned; `awaitUser` asks the owner (WAITING_USER). `cannedReplyId` alone sends that canned text in the owner’s language. The owner is notified of replies, never of internal notes, which change nothing the owner sees. A CLOSED ticket: 409 TICKET_CLOSED. A move’s `note` (below) is for staff: the owner’s history leaves it out.',
      idempotent: true,
      errors: [404, 409, 422],
      codes: ['TICKET_CLOSED', 'TICKET_ATTACHMENT_INVALID', 'SUPPORT_CANNED_NOT_FOUND', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema, body: StaffMessageBodySchema },
      response: { status: 201, description: 'The message and the ticket after it.', schema: StaffPostedMessageSchema },
      handler: async ({ auth, params, body }) => {
        const posted = await services().thread.staffPost(auth!.userId, params.id, body);
        return { message: staffMessageView(posted.message), ticket: view(posted.ticket) };
      },
    }),
    defineRoute({
      ...admin,
      method: 'get',
      path: '/support/admin/tickets/:id/history',
      operationId: 'adminGetTicketHistory',
      summary: 'The status moves of a ticket with who made them (ADMIN, support.manage)',
      errors: [404],
      codes: ['PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema },
      response: { description: 'Each move.', schema: TicketHistorySchema },
      handler: async ({ params }) => {
        await services().tickets.read(params.id, 'staff');
        return historyItems(await services().tickets.history(params.id), (by) => by);
      },
    }),
    defineRoute({
      ...admin,
      method: 'post',
      path: '/support/admin/tickets/:id/assign',
      operationId: 'adminAssignTicket',
      summary: 'Assign a ticket to an administrator, or unassign it (ADMIN, support.manage)',
      errors: [404, 422],
      codes: ['TICKET_ASSIGNEE_INVALID', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema, body: AssignBodySchema },
      response: { description: 'The ticket.', schema: StaffTicketSchema },
      handler: async ({ auth, params, body }) => view(await services().desk.assign(auth!.userId, params.id, body.assigneeId)),
    }),
    defineRoute({
      ...admin,
      method: 'patch',
      path: '/support/admin/tickets/:id',
      operationId: 'adminUpdateTicket',
      summary: 'Change a ticket’s priority or category (ADMIN, support.manage)',
      errors: [404],
      codes: ['PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema, body: TicketPatchSchema },
      response: { description: 'The ticket.', schema: StaffTicketSchema },
      handler: async ({ auth, params, body }) => view(await services().desk.patch(auth!.userId, params.id, body)),
    }),
    staffMove('start', 'Take up a ticket (ADMIN, support.manage)', 'OPEN or WAITING_USER → IN_PROGRESS.'),
    staffMove(
      'awaitUser',
      'Wait for the owner (ADMIN, support.manage)',
      'OPEN or IN_PROGRESS → WAITING_USER; the owner is notified. Their reply brings it back.',
    ),
    staffMove(
      'resolve',
      'Resolve a ticket (ADMIN, support.manage)',
      'OPEN, IN_PROGRESS or WAITING_USER → RESOLVED; the owner is notified and may reopen it for SUPPORT_AUTO_CLOSE_SEC (7 days), then it closes by itself.',
    ),
    staffMove('close', 'Close a ticket (ADMIN, support.manage)', 'Any status but CLOSED → CLOSED; the owner is notified.'),
    defineRoute({
      ...admin,
      method: 'get',
      path: '/support/admin/canned-replies',
      operationId: 'adminListCannedReplies',
      summary: 'Canned replies by title (ADMIN, support.manage)',
      codes: ['PERMISSION_REQUIRED'],
      request: { query: CannedQuerySchema },
      response: { description: 'A page of canned replies.', schema: CannedReplyPageSchema },
      handler: async ({ auth, query }) => {
        const page = await services().desk.canned.list(auth!.userId, query);
        return { items: page.items.map(cannedView), nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      ...admin,
      method: 'post',
      path: '/support/admin/canned-replies',
      operationId: 'adminCreateCannedReply',
      summary: 'Write a canned reply in Vietnamese and English (ADMIN, support.manage)',
      idempotent: true,
      codes: ['PERMISSION_REQUIRED'],
      request: { body: CannedReplyBodySchema },
      response: { status: 201, description: 'The canned reply.', schema: CannedReplySchema },
      handler: async ({ auth, body }) => cannedView(await services().desk.canned.create(auth!.userId, body)),
    }),
    defineRoute({
      ...admin,
      method: 'get',
      path: '/support/admin/canned-replies/:id',
      operationId: 'adminGetCannedReply',
      summary: 'One canned reply (ADMIN, support.manage)',
      errors: [404],
      codes: ['SUPPORT_CANNED_NOT_FOUND', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema },
      response: { description: 'The canned reply.', schema: CannedReplySchema },
      handler: async ({ params }) => cannedView(await services().desk.canned.get(params.id)),
    }),
    defineRoute({
      ...admin,
      method: 'patch',
      path: '/support/admin/canned-replies/:id',
      operationId: 'adminUpdateCannedReply',
      summary: 'Change a canned reply (ADMIN, support.manage)',
      errors: [404],
      codes: ['SUPPORT_CANNED_NOT_FOUND', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema, body: CannedReplyPatchSchema },
      response: { description: 'The canned reply.', schema: CannedReplySchema },
      handler: async ({ params, body }) => cannedView(await services().desk.canned.update(params.id, body)),
    }),
    defineRoute({
      ...admin,
      method: 'delete',
      path: '/support/admin/canned-replies/:id',
      operationId: 'adminDeleteCannedReply',
      summary: 'Delete a canned reply (ADMIN, support.manage)',
      description: 'Replies sent with it keep their text.',
      errors: [404],
      codes: ['SUPPORT_CANNED_NOT_FOUND', 'PERMISSION_REQUIRED'],
      request: { params: IdParamsSchema },
      response: { description: 'Deleted.', schema: DeletedSchema },
      handler: async ({ params }) => {
        await services().desk.canned.remove(params.id);
        return { deleted: true as const };
      },
    }),
  ];
}
