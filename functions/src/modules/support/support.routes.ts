import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { CATEGORY_POLICIES, TICKET_CATEGORIES } from './support.model';
import {
  CategoriesSchema,
  MessageBodySchema,
  MyTicketsQuerySchema,
  NoteBodySchema,
  PostedMessageSchema,
  RatingBodySchema,
  TicketHistorySchema,
  TicketMessagePageSchema,
  TicketOpenSchema,
  TicketPageSchema,
  TicketSchema,
} from './support.schemas';
import type { OwnerAction } from './support.tickets';
import { historyItems, ownerMessageView, ownerTicketView } from './support.views';
import { supportServicesFor } from './support.wiring';
import { SUPPORT_RATE_LIMITS } from './support.limits';

// The owner's side of the help desk: open a ticket, follow it, write in its thread, resolve, reopen, close, rate.
export function supportRoutes({ config }: AppContext): AnyRoute[] {
  const services = () => supportServicesFor(config);
  const tag = 'support' as const;
  const user = { tag, auth: [] as const };
  const ownerMove = (action: OwnerAction, summary: string, description: string) =>
    defineRoute({
      ...user,
      method: 'post',
      path: `/support/tickets/:id/${action}`,
      operationId: `${action}Ticket`,
      summary,
      description: `${description} A retry of a move already made answers the ticket as it is. Limit: \`support-move\`, 30 per user per hour.`,
      rateLimit: SUPPORT_RATE_LIMITS.move,
      errors: [404, 409],
      codes: ['TICKET_TRANSITION'],
      request: { params: IdParamsSchema, body: NoteBodySchema },
      response: { description: 'The ticket after the move.', schema: TicketSchema },
      handler: async ({ auth, params, body }) => ownerTicketView(await services().tickets.ownerMove(auth!.userId, params.id, action, body.note ?? null)),
    });
  return [
    defineRoute({
      ...user,
      method: 'get',
      path: '/support/categories',
      operationId: 'listTicketCategories',
      summary: 'What a ticket can be about, with the answer times staff keep',
      response: { description: 'Every category, its title and service levels (hours).', schema: CategoriesSchema },
      handler: () => ({
        items: TICKET_CATEGORIES.map((category) => {
          const p = CATEGORY_POLICIES[category];
          return { category, title: p.title, firstResponseHours: p.firstResponseHours, resolveHours: p.resolveHours };
        }),
      }),
    }),
    defineRoute({
      ...user,
      method: 'post',
      path: '/support/tickets',
      operationId: 'openTicket',
      summary: 'Open a support ticket',
      description:
        'OPEN, with the description as the thread’s first message. `link` names one of your rides, orders, bookings or payments (someone else’s or a missing one: 422 TICKET_LINK_NOT_FOUND); `attachments` your READY uploads (422 TICKET_ATTACHMENT_INVALID). Priority and service levels come from the category (GET /support/categories). With an Idempotency-Key a retry answers the same ticket. Limit: `support-open`, 10 per user per hour.',
      idempotent: true,
      rateLimit: SUPPORT_RATE_LIMITS.open,
      errors: [422],
      codes: ['TICKET_LINK_NOT_FOUND', 'TICKET_ATTACHMENT_INVALID'],
      request: { body: TicketOpenSchema },
      response: { status: 201, description: 'The OPEN ticket.', schema: TicketSchema },
      handler: async ({ auth, body }) => ownerTicketView(await services().tickets.open(auth!.userId, body)),
    }),
    defineRoute({
      ...user,
      method: 'get',
      path: '/support/tickets',
      operationId: 'listMyTickets',
      summary: 'My tickets, newest first',
      request: { query: MyTicketsQuerySchema },
      response: { description: 'A page of your tickets.', schema: TicketPageSchema },
      handler: async ({ auth, query }) => {
        const s = services();
        const t = Date.now();
        const page = await s.tickets.mine(auth!.userId, query);
        return { items: page.items.map((r) => ownerTicketView(s.tickets.settle(r, t))), nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      ...user,
      method: 'get',
      path: '/support/tickets/:id',
      operationId: 'getTicket',
      summary: 'One of my tickets',
      description: 'Someone else’s ticket is 404, as a missing one. A RESOLVED ticket past `reopenableUntil` reads CLOSED.',
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The ticket as it stands.', schema: TicketSchema },
      handler: async ({ auth, params }) => ownerTicketView(await services().tickets.read(params.id, { ownerId: auth!.userId })),
    }),
    defineRoute({
      ...user,
      method: 'get',
      path: '/support/tickets/:id/messages',
      operationId: 'listTicketMessages',
      summary: 'The thread of one of my tickets, oldest first',
      description: 'Your messages and staff’s replies; staff’s internal notes are never listed here.',
      errors: [404],
      request: { params: IdParamsSchema, query: PageQuerySchema },
      response: { description: 'A page of the thread.', schema: TicketMessagePageSchema },
      handler: async ({ auth, params, query }) => {
        await services().tickets.read(params.id, { ownerId: auth!.userId });
        const page = await services().thread.list(params.id, false, query, auth!.userId);
        return { items: page.items.map(ownerMessageView), nextCursor: page.nextCursor };
      },
    }),
    defineRoute({
      ...user,
      method: 'post',
      path: '/support/tickets/:id/messages',
      operationId: 'postTicketMessage',
      summary: 'Write in one of my tickets',
      description:
        'A ticket WAITING_USER goes back to IN_PROGRESS; a RESOLVED one is reopened (IN_PROGRESS). A CLOSED ticket takes nothing more (409 TICKET_CLOSED: open a new one), nor does a thread of 500 messages (409 TICKET_THREAD_FULL). With an Idempotency-Key a retry answers the same message. Limit: `support-message`, 60 per user per hour.',
      idempotent: true,
      rateLimit: SUPPORT_RATE_LIMITS.message,
      errors: [404, 409, 422],
      codes: ['TICKET_CLOSED', 'TICKET_THREAD_FULL', 'TICKET_ATTACHMENT_INVALID'],
      request: { params: IdParamsSchema, body: MessageBodySchema },
      response: { status: 201, description: 'The message and the ticket after it.', schema: PostedMessageSchema },
      handler: async ({ auth, params, body }) => {
        const posted = await services().thread.ownerPost(auth!.userId, params.id, body);
        return { message: ownerMessageView(posted.message), ticket: ownerTicketView(posted.ticket) };
      },
    }),
    defineRoute({
      ...user,
      method: 'get',
      path: '/support/tickets/:id/history',
      operationId: 'getTicketHistory',
      summary: 'The status moves of one of my tickets, oldest first',
      description: '`by` is `you`, `support` (staff, never named) or `system`; `reason` is shown for your own moves only.',
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'Each move.', schema: TicketHistorySchema },
      handler: async ({ auth, params }) => {
        await services().tickets.read(params.id, { ownerId: auth!.userId });
        const me = auth!.userId;
        // Status moves only; a reason is shown for the owner's own (staff's notes on a move, assignment and triage are staff's).
        const moves = (await services().tickets.history(params.id))
          .filter((m) => m.from !== m.to)
          .map((m) => ({ ...m, reason: m.by === me ? m.reason : null }));
        return historyItems(moves, (by) => (by === me ? 'you' : by.startsWith('system:') ? 'system' : 'support'));
      },
    }),
    ownerMove(
      'resolve',
      'My problem is solved: resolve my ticket',
      'OPEN, IN_PROGRESS or WAITING_USER → RESOLVED; it closes by itself after SUPPORT_AUTO_CLOSE_SEC (7 days) unless reopened.',
    ),
    ownerMove(
      'reopen',
      'Reopen my resolved ticket',
      'RESOLVED → IN_PROGRESS, until `reopenableUntil` (7 days after its resolution); later it is CLOSED (409 TICKET_TRANSITION): open a new one.',
    ),
    ownerMove('close', 'Close my ticket', 'Any status but CLOSED → CLOSED. Nothing more is added to it.'),
    defineRoute({
      ...user,
      method: 'post',
      path: '/support/tickets/:id/rating',
      operationId: 'rateTicket',
      summary: 'Rate how my resolved ticket was handled (1–5)',
      description:
        'Once, on a RESOLVED or CLOSED ticket (409 TICKET_RATING_NOT_ALLOWED otherwise; the same rating again answers the rated ticket). Limit: `support-move`, 30 per user per hour.',
      rateLimit: SUPPORT_RATE_LIMITS.move,
      errors: [404, 409],
      codes: ['TICKET_RATING_NOT_ALLOWED'],
      request: { params: IdParamsSchema, body: RatingBodySchema },
      response: { description: 'The rated ticket.', schema: TicketSchema },
      handler: async ({ auth, params, body }) => ownerTicketView(await services().tickets.rate(auth!.userId, params.id, body)),
    }),
  ];
}
