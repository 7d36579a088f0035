import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The support module's error codes (code: [the status it comes with, what it means]).
export const SUPPORT_ERROR_CODES = defineErrorCodes({
  TICKET_TRANSITION: [409, 'The ticket is not in a status that allows this (`details.status`, `details.allowed`).'],
  TICKET_NOT_ALLOWED: [409, 'The caller may not make this move on this ticket.'],
  TICKET_CLOSED: [409, 'The ticket is CLOSED: nothing more is added to it (open a new one).'],
  TICKET_THREAD_FULL: [409, 'The ticket holds its most messages (500): open a new one.'],
  TICKET_LINK_NOT_FOUND: [422, 'The ride, order, booking or payment the ticket links to is not one of yours.'],
  TICKET_ATTACHMENT_INVALID: [422, 'An attachment is not one of your uploaded, ready media items (`details.mediaId`).'],
  TICKET_ASSIGNEE_INVALID: [422, 'The assignee is not an active administrator holding the support permission.'],
  TICKET_RATING_NOT_ALLOWED: [409, 'Only a RESOLVED or CLOSED ticket is rated, once, by its owner.'],
  SUPPORT_CANNED_NOT_FOUND: [404, 'No such canned reply.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof SUPPORT_ERROR_CODES> {}
}
