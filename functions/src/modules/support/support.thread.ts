import type { z } from 'zod';
import { ConflictError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { transition } from '../../platform/kits/state-machine/state-machine';
import { attachmentsOf, noSuchCanned, noSuchTicket, type SupportDeps } from './support.context';
import { ticketMachine, type TicketAction, type TicketActor } from './support.machine';
import { MAX_MESSAGES_PER_TICKET, type MessageRecord, type TicketRecord } from './support.model';
import { supportRepo as repo } from './support.repo';
import type { MessageBodySchema, StaffMessageBodySchema } from './support.schemas';
import type { Tickets } from './support.tickets';

const closed = () => new ConflictError('This ticket is closed: open a new one').withCode('TICKET_CLOSED');
const threadFull = () => new ConflictError('This ticket holds its most messages: open a new one').withCode('TICKET_THREAD_FULL');

/** The move a message makes: the owner's answer to a waiting or resolved ticket, staff's first answer or question. */
export function moveOfMessage(r: TicketRecord, from: 'USER' | 'STAFF', opts: { internal?: boolean; awaitUser?: boolean } = {}): TicketAction | null {
  if (from === 'USER') return r.status === 'WAITING_USER' ? 'userReplied' : r.status === 'RESOLVED' ? 'reopen' : null;
  if (opts.internal || r.status === 'RESOLVED') return null;
  if (opts.awaitUser) return r.status === 'WAITING_USER' ? null : 'awaitUser';
  return r.status === 'OPEN' ? 'start' : null;
}

// The thread of a ticket: the owner and staff write in turn, staff also write notes only staff read. A message and the
// move it makes (a reply to a waiting ticket brings it back) are one transaction; a closed ticket takes nothing more.
export function createThread(deps: SupportDeps, tickets: Tickets) {
  const { now } = deps;

  async function post(
    ticketId: string,
    author: { id: string; from: 'USER' | 'STAFF'; roles: readonly TicketActor[] },
    draft: Omit<MessageRecord, 'id' | 'ticketId' | 'ownerId' | 'from' | 'authorId' | 'createdAt'>,
    opts: { awaitUser?: boolean; ownerOnly?: boolean },
  ) {
    const t = now();
    return inTransaction(async (tx) => {
      const found = await repo.get(ticketId, tx);
      if (!found || (opts.ownerOnly && found.ownerId !== author.id)) throw noSuchTicket();
      const r = tickets.settle(found, t);
      if (r.status === 'CLOSED') throw closed();
      // Only the owner is held back by a full thread: staff can always answer it (and close it).
      if (author.from === 'USER' && r.messageCount >= MAX_MESSAGES_PER_TICKET) throw threadFull();
      const message: MessageRecord = {
        ...draft,
        id: repo.newMessageId(ticketId),
        ticketId,
        ownerId: r.ownerId,
        from: author.from,
        authorId: author.id,
        createdAt: t,
      };
      const staffAnswer = author.from === 'STAFF' && !draft.internal;
      // An internal note changes nothing the owner sees (not even when the ticket last changed).
      const touch = (x: TicketRecord): TicketRecord =>
        draft.internal
          ? { ...x, noteCount: x.noteCount + 1 }
          : {
              ...x,
              lastMessageAt: t,
              messageCount: x.messageCount + 1,
              updatedAt: t,
              firstResponseAt: staffAnswer ? (x.firstResponseAt ?? t) : x.firstResponseAt,
              // Staff's first answer takes an unassigned ticket.
              assigneeId: staffAnswer ? (x.assigneeId ?? author.id) : x.assigneeId,
            };
      const action = moveOfMessage(r, author.from, { internal: draft.internal, awaitUser: opts.awaitUser });
      if (!action) {
        repo.putMessage(tx, message);
        repo.put(tx, touch(found));
        return { message, ticket: touch(found) };
      }
      const base = tickets.request(action, author.id, author.roles, t, true);
      const moved = await transition(
        ticketMachine,
        repo.store(ticketId, (inner) => repo.putMessage(inner, message)),
        { ...base, apply: (x, to) => touch(base.apply(x, to, undefined)) },
        tx,
      );
      return { message, ticket: moved.after };
    });
  }

  return {
    async ownerPost(ownerId: string, ticketId: string, body: z.output<typeof MessageBodySchema>) {
      const attachments = await attachmentsOf(deps, ownerId, body.attachments);
      return post(ticketId, { id: ownerId, from: 'USER', roles: ['OWNER'] }, { body: body.body, attachments, internal: false }, { ownerOnly: true });
    },

    async staffPost(adminId: string, ticketId: string, body: z.output<typeof StaffMessageBodySchema>) {
      const attachments = await attachmentsOf(deps, adminId, body.attachments);
      let text = body.body;
      if (text === undefined) {
        const [canned, ticket] = await Promise.all([repo.canned.get(body.cannedReplyId!), repo.get(ticketId)]);
        if (!ticket) throw noSuchTicket();
        if (!canned) throw noSuchCanned();
        text = canned.body[await deps.localeOf(ticket.ownerId)];
      }
      return post(
        ticketId,
        { id: adminId, from: 'STAFF', roles: ['STAFF'] },
        { body: text, attachments, internal: body.internal },
        { awaitUser: body.awaitUser },
      );
    },

    list: (ticketId: string, withInternal: boolean, page: { limit: number; cursor?: string }, caller: string) =>
      repo.messages(ticketId, withInternal, { ...page, query: `support:messages:${ticketId}:${withInternal ? 'all' : 'public'}`, caller }),
  };
}
