import type { AppConfig } from '../../platform/core/config';
import { NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import type { TicketAttachment, TicketLinkType } from './support.model';

/** What the support services need from other modules (their public faces, wired in support.wiring.ts). */
export interface SupportDeps {
  config: Readonly<AppConfig>;
  now: () => number;
  /** One of the user's own records of a type, as their API reads it; undefined when not theirs or not there. */
  ownRecord(type: TicketLinkType, userId: string, id: string): Promise<unknown | undefined>;
  /** One of the user's READY media items. */
  attachable(ownerId: string, mediaId: string): Promise<TicketAttachment | undefined>;
  /** Whether the account is an active administrator holding support.manage. */
  isSupportStaff(userId: string): Promise<boolean>;
  /** The owner's language for texts we write for them (canned replies). */
  localeOf(userId: string): Promise<'vi' | 'en'>;
}

export const noSuchTicket = () => new NotFoundError('No such ticket');
export const noSuchCanned = () => new NotFoundError('No such canned reply').withCode('SUPPORT_CANNED_NOT_FOUND');

/** The caller's own READY media items, in order; one that is not (someone else's, missing, not ready) is 422. */
export async function attachmentsOf(deps: SupportDeps, ownerId: string, ids: readonly string[]): Promise<TicketAttachment[]> {
  const unique = [...new Set(ids)];
  const found = await Promise.all(unique.map((id) => deps.attachable(ownerId, id)));
  const missing = unique.find((_, i) => !found[i]);
  if (missing !== undefined)
    throw new UnprocessableError('An attachment is not one of your ready uploads', { mediaId: missing }).withCode('TICKET_ATTACHMENT_INVALID');
  return found as TicketAttachment[];
}
