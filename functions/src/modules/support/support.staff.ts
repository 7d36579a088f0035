import type { z } from 'zod';
import { UnprocessableError } from '../../platform/core/errors/app-error';
import { recordNote } from '../../platform/kits/state-machine/state-machine';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { noSuchCanned, noSuchTicket, type SupportDeps } from './support.context';
import type { CannedReplyRecord, TicketRecord } from './support.model';
import { supportRepo as repo, type QueueFilter } from './support.repo';
import type { CannedReplyBodySchema, CannedReplyPatchSchema, QueueQuerySchema, TicketPatchSchema } from './support.schemas';
import type { Tickets } from './support.tickets';

// What only staff do: the queue, assignment, priority and category, canned replies. Each change of a ticket reads and
// writes it in one transaction (two staff changing one ticket at once never undo each other).
export function createStaffDesk(deps: SupportDeps, tickets: Tickets) {
  const { now } = deps;

  /** A change of the ticket that moves no status, with a line in its history saying who made it. */
  async function change(
    id: string,
    note: { action: 'assign' | 'triage'; by: string; reason: string },
    edit: (r: TicketRecord) => TicketRecord,
  ): Promise<TicketRecord> {
    const t = now();
    return inTransaction(async (tx) => {
      const found = await repo.get(id, tx);
      if (!found) throw noSuchTicket();
      const next = { ...edit(found), updatedAt: t };
      repo.put(tx, next);
      recordNote(tx, repo.ticketRef(id), { ...note, status: found.status, at: t });
      return tickets.settle(next, t);
    });
  }

  return {
    queue(adminId: string, q: z.output<typeof QueueQuerySchema>) {
      const filter: QueueFilter = { status: q.status, category: q.category, priority: q.priority, assignee: q.assignee === 'me' ? adminId : q.assignee };
      return repo.queue(filter, q.order, { limit: q.limit, cursor: q.cursor, query: `support:queue:${JSON.stringify(filter)}:${q.order}`, caller: adminId });
    },

    async assign(adminId: string, id: string, assigneeId: string | null) {
      if (assigneeId !== null && !(await deps.isSupportStaff(assigneeId)))
        throw new UnprocessableError('The assignee is not an active administrator with support.manage').withCode('TICKET_ASSIGNEE_INVALID');
      return change(id, { action: 'assign', by: adminId, reason: `assignee: ${assigneeId ?? 'none'}` }, (r) => ({ ...r, assigneeId }));
    },

    patch: (adminId: string, id: string, body: z.output<typeof TicketPatchSchema>) =>
      change(
        id,
        {
          action: 'triage',
          by: adminId,
          reason: [body.priority && `priority: ${body.priority}`, body.category && `category: ${body.category}`].filter(Boolean).join(', '),
        },
        (r) => ({ ...r, priority: body.priority ?? r.priority, category: body.category ?? r.category }),
      ),

    canned: {
      async create(adminId: string, body: z.output<typeof CannedReplyBodySchema>): Promise<CannedReplyRecord> {
        const t = now();
        const record: CannedReplyRecord = { id: repo.canned.newId(), ...body, createdBy: adminId, createdAt: t, updatedAt: t };
        await repo.canned.create(record);
        return record;
      },
      async get(id: string) {
        const found = await repo.canned.get(id);
        if (!found) throw noSuchCanned();
        return found;
      },
      async update(id: string, body: z.output<typeof CannedReplyPatchSchema>) {
        const t = now();
        return inTransaction(async (tx) => {
          const found = await repo.canned.get(id, tx);
          if (!found) throw noSuchCanned();
          const next: CannedReplyRecord = {
            ...found,
            title: body.title ?? found.title,
            body: body.body ?? found.body,
            category: body.category === undefined ? found.category : body.category,
            updatedAt: t,
          };
          repo.canned.put(tx, next);
          return next;
        });
      },
      async remove(id: string) {
        if (!(await repo.canned.get(id))) throw noSuchCanned();
        await repo.canned.remove(id);
      },
      list: (adminId: string, q: { category?: CannedReplyRecord['category'] & string; limit: number; cursor?: string }) =>
        repo.canned.list(q.category, { limit: q.limit, cursor: q.cursor, query: `support:canned:${q.category ?? ''}`, caller: adminId }),
    },
  };
}
