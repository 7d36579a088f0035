import type { TicketAction, TicketStatus } from './support.machine';

export const TICKET_SURFACES = ['CON', 'DRV', 'PAR'] as const;
export type TicketSurface = (typeof TICKET_SURFACES)[number];

/** A media item of its author's, READY when attached (a screenshot, a receipt, a voice note). */
export interface TicketAttachment {
  id: string;
  kind: string;
  mimeType: string;
  url: string;
}

/** What a ticket is about; each has its default priority and service-level times (hours). */
export const TICKET_CATEGORIES = ['SAFETY', 'PAYMENT', 'RIDE', 'ORDER', 'BOOKING', 'ACCOUNT', 'OTHER'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_PRIORITIES = ['LOW', 'NORMAL', 'HIGH', 'URGENT'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

export interface CategoryPolicy {
  priority: TicketPriority;
  /** Hours until staff's first answer is due. */
  firstResponseHours: number;
  /** Hours until the ticket should be resolved. */
  resolveHours: number;
  title: { vi: string; en: string };
}

export const CATEGORY_POLICIES: Record<TicketCategory, CategoryPolicy> = {
  SAFETY: { priority: 'URGENT', firstResponseHours: 1, resolveHours: 24, title: { vi: 'An toàn', en: 'Safety' } },
  PAYMENT: { priority: 'HIGH', firstResponseHours: 4, resolveHours: 48, title: { vi: 'Thanh toán và hoàn tiền', en: 'Payments and refunds' } },
  RIDE: { priority: 'NORMAL', firstResponseHours: 4, resolveHours: 48, title: { vi: 'Chuyến xe', en: 'Rides' } },
  ORDER: { priority: 'NORMAL', firstResponseHours: 4, resolveHours: 48, title: { vi: 'Đơn hàng', en: 'Orders' } },
  BOOKING: { priority: 'NORMAL', firstResponseHours: 8, resolveHours: 72, title: { vi: 'Đặt chỗ', en: 'Bookings' } },
  ACCOUNT: { priority: 'NORMAL', firstResponseHours: 8, resolveHours: 72, title: { vi: 'Tài khoản', en: 'Account' } },
  OTHER: { priority: 'LOW', firstResponseHours: 24, resolveHours: 120, title: { vi: 'Khác', en: 'Other' } },
};

/** The records a ticket may link to (one of the owner's own, checked when it is opened). */
export const TICKET_LINK_TYPES = ['RIDE', 'ORDER', 'BOOKING', 'PAYMENT'] as const;
export type TicketLinkType = (typeof TICKET_LINK_TYPES)[number];

/** Who opened it from where: the app's help screen, or the assistant handing a conversation over. */
export const TICKET_SOURCES = ['APP', 'ASSISTANT'] as const;
export type TicketSource = (typeof TICKET_SOURCES)[number];

export const MAX_ATTACHMENTS = 5;
/** The owner's and staff's messages a thread holds at most: past it the owner's are refused (staff may still answer). */
export const MAX_MESSAGES_PER_TICKET = 500;

export interface TicketRecord {
  id: string;
  ownerId: string;
  category: TicketCategory;
  priority: TicketPriority;
  subject: string;
  description: string;
  attachments: TicketAttachment[];
  link: { type: TicketLinkType; id: string } | null;
  source: TicketSource;
  /** The app it was opened from: its notices go there. */
  surface: TicketSurface;
  status: TicketStatus;
  /** The last status move: who made it, and whether a message made it (its notice is the message's then). */
  lastMove: { action: TicketAction; by: string; viaMessage: boolean } | null;
  assigneeId: string | null;
  /** Service levels from the category at opening (epoch ms). */
  firstResponseDue: number;
  resolveDue: number;
  /** Staff's first reply the owner sees. */
  firstResponseAt: number | null;
  resolvedAt: number | null;
  /** A RESOLVED ticket closes by itself then, and may be reopened until then; null in other statuses. */
  closeAt: number | null;
  closedAt: number | null;
  /** The last message the owner sees (internal notes move neither this nor `updatedAt`). */
  lastMessageAt: number;
  /** Messages the owner sees. */
  messageCount: number;
  /** Staff's internal notes. */
  noteCount: number;
  rating: { score: number; comment: string | null; at: number } | null;
  createdAt: number;
  updatedAt: number;
}

export type MessageAuthor = 'USER' | 'STAFF' | 'SYSTEM';

export interface MessageRecord {
  id: string;
  ticketId: string;
  /** The ticket's owner, so a collection-group read never needs the ticket. */
  ownerId: string;
  from: MessageAuthor;
  authorId: string;
  body: string;
  attachments: TicketAttachment[];
  /** Staff's note to staff: never listed to the owner, never notified. */
  internal: boolean;
  createdAt: number;
}

export interface CannedReplyRecord {
  id: string;
  title: string;
  body: { vi: string; en: string };
  category: TicketCategory | null;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

const HOUR_MS = 3_600_000;

/** The service-level times of a ticket of `category` opened at `at`. */
export function serviceLevelsOf(category: TicketCategory, at: number) {
  const policy = CATEGORY_POLICIES[category];
  return { firstResponseDue: at + policy.firstResponseHours * HOUR_MS, resolveDue: at + policy.resolveHours * HOUR_MS };
}
