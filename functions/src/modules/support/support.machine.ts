import { defineMachine } from '../../platform/kits/state-machine/state-machine';

// A ticket is OPEN until staff take it up (IN_PROGRESS), may wait for its owner's answer (WAITING_USER: the owner's
// reply brings it back), is RESOLVED by staff or its owner, reopened by the owner before it closes, and CLOSED by
// either of them or by itself SUPPORT_AUTO_CLOSE_SEC after its resolution.
export const TICKET_STATUSES = ['OPEN', 'IN_PROGRESS', 'WAITING_USER', 'RESOLVED', 'CLOSED'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type TicketAction = 'start' | 'awaitUser' | 'userReplied' | 'resolve' | 'reopen' | 'close' | 'autoClose';
export type TicketActor = 'OWNER' | 'STAFF' | 'SYSTEM';

const ACTIVE: TicketStatus[] = ['OPEN', 'IN_PROGRESS', 'WAITING_USER'];

export const ticketMachine = defineMachine<TicketStatus, TicketAction, TicketActor>({
  entity: 'ticket',
  states: TICKET_STATUSES,
  moves: {
    start: { from: ['OPEN', 'WAITING_USER'], to: 'IN_PROGRESS', by: 'STAFF' },
    awaitUser: { from: ['OPEN', 'IN_PROGRESS'], to: 'WAITING_USER', by: 'STAFF' },
    userReplied: { from: 'WAITING_USER', to: 'IN_PROGRESS', by: 'OWNER' },
    resolve: { from: ACTIVE, to: 'RESOLVED', by: ['STAFF', 'OWNER'] },
    reopen: { from: 'RESOLVED', to: 'IN_PROGRESS', by: 'OWNER' },
    close: { from: [...ACTIVE, 'RESOLVED'], to: 'CLOSED', by: ['STAFF', 'OWNER'] },
    autoClose: { from: 'RESOLVED', to: 'CLOSED', by: 'SYSTEM' },
  },
  codes: { transition: 'TICKET_TRANSITION', actor: 'TICKET_NOT_ALLOWED' },
});
