import { iso, isoOrNull } from '../../platform/kits/time/time';
import { ticketMachine, type TicketActor } from './support.machine';
import type { CannedReplyRecord, MessageRecord, TicketRecord } from './support.model';

const OWNER: readonly TicketActor[] = ['OWNER'];
const STAFF: readonly TicketActor[] = ['STAFF'];
/** The moves each side makes by a route of its own (a reply moves a ticket too, by posting a message). */
const OWNER_ROUTES: readonly string[] = ['resolve', 'reopen', 'close'];
const STAFF_ROUTES: readonly string[] = ['start', 'awaitUser', 'resolve', 'close'];

/** The ticket as its owner reads it: no priority, assignee or staff-only times. */
export function ownerTicketView(r: TicketRecord) {
  return {
    id: r.id,
    category: r.category,
    subject: r.subject,
    description: r.description,
    attachments: r.attachments,
    link: r.link,
    status: r.status,
    replyExpectedBy: r.firstResponseAt === null ? iso(r.firstResponseDue) : null,
    reopenableUntil: isoOrNull(r.status === 'RESOLVED' ? r.closeAt : null),
    resolvedAt: isoOrNull(r.resolvedAt),
    closedAt: isoOrNull(r.closedAt),
    lastMessageAt: iso(r.lastMessageAt),
    rating: r.rating && { ...r.rating, at: iso(r.rating.at) },
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    allowed: ticketMachine.allowed(r.status, OWNER).filter((a) => OWNER_ROUTES.includes(a)),
  };
}

/** The ticket as staff read it, with its service levels measured at `now`. */
export function staffTicketView(r: TicketRecord, now: number) {
  const open = r.status !== 'RESOLVED' && r.status !== 'CLOSED';
  return {
    ...ownerTicketView(r),
    allowed: ticketMachine.allowed(r.status, STAFF).filter((a) => STAFF_ROUTES.includes(a)),
    ownerId: r.ownerId,
    priority: r.priority,
    source: r.source,
    assigneeId: r.assigneeId,
    firstResponseDue: iso(r.firstResponseDue),
    resolveDue: iso(r.resolveDue),
    firstResponseAt: isoOrNull(r.firstResponseAt),
    overdue: { firstResponse: r.firstResponseAt === null && open && now > r.firstResponseDue, resolution: open && now > r.resolveDue },
    messageCount: r.messageCount,
  };
}

export function ownerMessageView(m: MessageRecord) {
  return { id: m.id, from: m.from, body: m.body, attachments: m.attachments, createdAt: iso(m.createdAt) };
}

export function staffMessageView(m: MessageRecord) {
  return { ...ownerMessageView(m), authorId: m.authorId, internal: m.internal };
}

export function cannedView(r: CannedReplyRecord) {
  return { ...r, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) };
}

/** A ticket's history as its reader sees it: `by` as `label` names it, each move's reason, and notes (`from` = `to`). */
export const historyItems = (
  moves: Array<{ action: string; from?: string | null; to: string; by: string; at: number; reason?: string | null }>,
  by: (id: string) => string,
) => ({
  items: moves.map((m) => ({ action: m.action, from: m.from ?? null, to: m.to, by: by(m.by), at: iso(m.at), reason: m.reason ?? null })),
});
