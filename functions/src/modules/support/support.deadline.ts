import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { TICKET_AUTO_CLOSE_QUEUE } from './support.collections';
import { ticketMachine, type TicketAction, type TicketStatus } from './support.machine';
import type { TicketRecord } from './support.model';

export const AUTO_CLOSED_BY = 'system:ticket-auto-close';

// A RESOLVED ticket its owner does not reopen closes at `closeAt`: its task at that time, or the lazy check of a read
// or move (so a lost task never leaves it reopenable for ever).
export const ticketDeadline = defineDeadline<TicketRecord, TicketStatus, TicketAction, 'ticketId'>({
  queue: TICKET_AUTO_CLOSE_QUEUE,
  idField: 'ticketId',
  // One task per resolution: a ticket reopened and resolved again gets a task of its own.
  taskId: (id, phase) => `close-${id}-${phase ?? 'end'}`,
  dueAt: (r) => (r.status === 'RESOLVED' ? r.closeAt : null),
  expiry: {
    machine: ticketMachine,
    action: 'autoClose',
    by: AUTO_CLOSED_BY,
    apply: (r, _to, at) => ({ ...r, updatedAt: at, closedAt: at, closeAt: null, lastMove: { action: 'autoClose', by: AUTO_CLOSED_BY, viaMessage: false } }),
  },
  entity: 'ticket',
});
