import type { z } from 'zod';
import { ConflictError, UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { transition, type TransitionRequest } from '../../platform/kits/state-machine/state-machine';
import { attachmentsOf, noSuchTicket, type SupportDeps } from './support.context';
import { AUTO_CLOSED_BY, ticketDeadline } from './support.deadline';
import { ticketMachine, type TicketAction, type TicketActor, type TicketStatus } from './support.machine';
import { CATEGORY_POLICIES, serviceLevelsOf, type MessageRecord, type TicketRecord, type TicketSource } from './support.model';
import { supportRepo as repo } from './support.repo';
import type { RatingBodySchema, TicketOpenSchema } from './support.schemas';

export type OwnerAction = 'resolve' | 'reopen' | 'close';
export type StaffAction = 'start' | 'awaitUser' | 'resolve' | 'close';

/** The record after a move to `to` at `at`: resolution times set or cleared. */
export function movedRecord(
  r: TicketRecord,
  to: TicketStatus,
  at: number,
  autoCloseSec: number,
  move: { action: TicketAction; by: string; viaMessage: boolean },
): TicketRecord {
  const resolved = to === 'RESOLVED';
  return {
    ...r,
    status: to,
    lastMove: move,
    updatedAt: at,
    resolvedAt: resolved ? at : to === 'CLOSED' ? r.resolvedAt : null,
    closeAt: resolved ? at + autoCloseSec * 1000 : null,
    closedAt: to === 'CLOSED' ? at : null,
  };
}

// A ticket's life: opened by its owner (with its first message, the description), moved through the machine in a
// transaction that first closes it when its reopen window has passed (a late or lost task never leaves it open).
export function createTickets(deps: SupportDeps) {
  const { now } = deps;
  const autoCloseSec = () => deps.config.SUPPORT_AUTO_CLOSE_SEC;
  const request = (
    action: TicketAction,
    by: string,
    roles: readonly TicketActor[],
    at: number,
    viaMessage = false,
  ): TransitionRequest<TicketRecord, TicketStatus, TicketAction, TicketActor> => ({
    action,
    by,
    rolesOf: () => roles,
    apply: (r, to) => movedRecord(r, to, at, autoCloseSec(), { action, by, viaMessage }),
    now: at,
    missing: noSuchTicket,
    deadline: ticketDeadline.expiry(),
  });

  return {
    request,
    /**
     * Opens a ticket; `id` names it for a caller that must open it once (the assistant's hand-off): a repeat answers
     * the ticket stored under it.
     */
    async open(ownerId: string, body: z.output<typeof TicketOpenSchema>, source: TicketSource = 'APP', id: string = repo.newId()): Promise<TicketRecord> {
      const link = body.link ?? null;
      const [attachments, linked] = await Promise.all([
        attachmentsOf(deps, ownerId, body.attachments),
        link ? deps.ownRecord(link.type, ownerId, link.id) : Promise.resolve(true),
      ]);
      if (!linked) throw new UnprocessableError(`No ${link!.type.toLowerCase()} of yours has this id`).withCode('TICKET_LINK_NOT_FOUND');
      const t = now();
      const record: TicketRecord = {
        id,
        ownerId,
        category: body.category,
        priority: CATEGORY_POLICIES[body.category].priority,
        subject: body.subject,
        description: body.description,
        attachments,
        link,
        source,
        surface: body.surface,
        status: 'OPEN',
        lastMove: null,
        assigneeId: null,
        ...serviceLevelsOf(body.category, t),
        firstResponseAt: null,
        resolvedAt: null,
        closeAt: null,
        closedAt: null,
        lastMessageAt: t,
        messageCount: 1,
        noteCount: 0,
        rating: null,
        createdAt: t,
        updatedAt: t,
      };
      const first: MessageRecord = {
        id: repo.newMessageId(id),
        ticketId: id,
        ownerId,
        from: 'USER',
        authorId: ownerId,
        body: body.description,
        attachments,
        internal: false,
        createdAt: t,
      };
      return inTransaction(async (tx) => {
        const existing = await repo.get(id, tx);
        if (existing) {
          if (existing.ownerId !== ownerId) throw new ConflictError('This ticket id is taken').withCode('TICKET_TRANSITION');
          return existing;
        }
        repo.create(tx, record, first);
        return record;
      });
    },

    /** The ticket as it stands now (closed if its reopen window passed); its owner's only unless `staff`. */
    async read(id: string, reader: { ownerId: string } | 'staff'): Promise<TicketRecord> {
      const found = await repo.get(id);
      if (!found || (reader !== 'staff' && found.ownerId !== reader.ownerId)) throw noSuchTicket();
      return ticketDeadline.settle(found, now()).entity;
    },

    settle: (r: TicketRecord, at: number) => ticketDeadline.settle(r, at).entity,

    mine: (ownerId: string, q: { status?: TicketStatus; limit: number; cursor?: string }) =>
      repo.ofOwner(ownerId, q.status, { limit: q.limit, cursor: q.cursor, query: `support:mine:${q.status ?? ''}`, caller: ownerId }),

    history: (id: string) => repo.history(id),

    async ownerMove(ownerId: string, id: string, action: OwnerAction, note: string | null) {
      const t = now();
      return (
        await transition(ticketMachine, repo.store(id), {
          ...request(action, ownerId, ['OWNER'], t),
          visible: (r) => r.ownerId === ownerId,
          reason: note,
          // A retry after a lost answer finds the move made: the ticket as it is, not 409.
          tolerant: 'target',
        })
      ).after;
    },

    async staffMove(adminId: string, id: string, action: StaffAction, note: string | null) {
      const t = now();
      return (await transition(ticketMachine, repo.store(id), { ...request(action, adminId, ['STAFF'], t), reason: note, tolerant: 'target' })).after;
    },

    /** The owner's rating of a RESOLVED or CLOSED ticket: once (another rating after it: 409 TICKET_RATING_NOT_ALLOWED). */
    async rate(ownerId: string, id: string, body: z.output<typeof RatingBodySchema>) {
      const t = now();
      return inTransaction(async (tx) => {
        const found = await repo.get(id, tx);
        if (!found || found.ownerId !== ownerId) throw noSuchTicket();
        const r = ticketDeadline.settle(found, t).entity;
        // The same rating again (a retry) answers the ticket as rated.
        if (r.rating && r.rating.score === body.score && r.rating.comment === (body.comment ?? null)) return r;
        if ((r.status !== 'RESOLVED' && r.status !== 'CLOSED') || r.rating !== null)
          throw new ConflictError('Only a resolved ticket is rated, once', { status: r.status, rated: r.rating !== null }).withCode(
            'TICKET_RATING_NOT_ALLOWED',
          );
        const next = { ...found, rating: { score: body.score, comment: body.comment ?? null, at: t }, updatedAt: t };
        repo.put(tx, next);
        return { ...r, rating: next.rating, updatedAt: t };
      });
    },

    /** The auto-close task's move: tolerant (reopened or closed meanwhile: nothing), never before it is due. */
    async autoClose(id: string) {
      const t = now();
      return transition(ticketMachine, repo.store(id), {
        ...request('autoClose', AUTO_CLOSED_BY, ['SYSTEM'], t),
        guard: (r) => {
          if (ticketDeadline.dueAt(r) !== null && !ticketDeadline.isDue(r, t)) throw new ConflictError('Not due yet').withCode('TICKET_TRANSITION');
        },
        tolerant: 'refused',
      });
    },
  };
}
export type Tickets = ReturnType<typeof createTickets>;
