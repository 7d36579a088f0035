import { AppError, NotFoundError } from '../../platform/core/errors/app-error';
import { defineReportQueue, OPEN, type Moderator, type Report, type ReportLayout } from '../../platform/kits/moderation/moderation';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import type { ConversationsCommon } from './conversations.common';
import { CHAT_REPORTS, previewOf } from './conversations.model';
import { conversationsRepo as repo } from './conversations.repo';
import type { REPORT_REASONS } from './conversations.schemas';

// Reported messages: the moderation kit's queue over `chat_reports`, whose documents keep the fields and ids they
// had before the kit (`{messageId}_{reporterId}`, the outcome in `status`), so reports filed earlier still count
// as the first report of their reporter.

const OUTCOMES = ['DISMISSED', 'ACTIONED'] as const;
type Outcome = (typeof OUTCOMES)[number];
type Reason = (typeof REPORT_REASONS)[number];

interface MessageReportDetail {
  conversationId: string;
  /** Who sent the reported message. */
  senderId: string;
  reason: Reason;
  note: string | null;
  /** The message as it was when reported. */
  excerpt: string;
}
type MessageReport = Report<MessageReportDetail, Outcome>;

const layout: ReportLayout<MessageReportDetail, Outcome> = {
  targetField: 'messageId',
  statusOf: (outcome) => outcome ?? OPEN,
  toDocument: (r) => ({
    messageId: r.targetId,
    conversationId: r.detail.conversationId,
    reporterId: r.reporterId,
    senderId: r.detail.senderId,
    reason: r.detail.reason,
    note: r.detail.note,
    excerpt: r.detail.excerpt,
    status: r.resolution?.outcome ?? OPEN,
    createdAt: r.createdAt,
    resolvedAt: r.resolution?.at ?? null,
    resolvedBy: r.resolution?.by ?? null,
  }),
  fromDocument: (id, d) => ({
    id,
    targetId: d.messageId,
    reporterId: d.reporterId,
    createdAt: d.createdAt,
    resolution: d.status === OPEN ? null : { outcome: d.status, by: d.resolvedBy, at: d.resolvedAt, note: null },
    detail: { conversationId: d.conversationId, senderId: d.senderId, reason: d.reason, note: d.note ?? null, excerpt: d.excerpt },
  }),
};

export const messageReports = defineReportQueue<MessageReportDetail, Outcome>({
  name: 'chat:reports',
  collection: CHAT_REPORTS,
  outcomes: OUTCOMES,
  permission: 'moderation',
  order: 'desc',
  layout,
  reportId: (messageId, reporterId) => `${messageId}_${reporterId}`,
});

const toReport = (r: MessageReport) => ({
  id: r.id,
  messageId: r.targetId,
  conversationId: r.detail.conversationId,
  reporterId: r.reporterId,
  senderId: r.detail.senderId,
  reason: r.detail.reason,
  note: r.detail.note,
  excerpt: r.detail.excerpt,
  status: layout.statusOf(r.resolution?.outcome ?? null) as Outcome | typeof OPEN,
  createdAt: iso(r.createdAt),
  resolvedAt: isoOrNull(r.resolution?.at ?? null),
  resolvedBy: r.resolution?.by ?? null,
});

export function reportsPart(shared: ConversationsCommon) {
  const { memberView } = shared;
  return {
    /** Reports a message of a conversation I am in; one report per message and reporter (a repeat returns it, 200). */
    async report(callerId: string, messageId: string, body: { reason: Reason; note?: string }, setStatus: (code: number) => void) {
      const message = await repo.messageById(messageId);
      if (!message) throw new NotFoundError('No such message');
      const detail: MessageReportDetail = {
        conversationId: message.conversationId,
        senderId: message.senderId,
        reason: body.reason,
        note: body.note ?? null,
        excerpt: message.deleted ? previewOf(message) : (message.text ?? previewOf(message)),
      };
      const { report, created } = await messageReports.file({ targetId: messageId, reporterId: callerId, detail }, async (tx) => {
        await memberView(callerId, message.conversationId, tx).catch(() => {
          throw new NotFoundError('No such message');
        });
        if (message.senderId === callerId) throw new AppError(422, 'You cannot report your own message').withCode('CHAT_OWN_MESSAGE');
      });
      if (!created) setStatus(200);
      return toReport(report);
    },
    async reports(caller: Moderator, query: { status: string; limit: number; cursor?: string }) {
      const { items, nextCursor } = await messageReports.list(caller, query);
      return { items: items.map(toReport), nextCursor };
    },
    async resolveReport(caller: Moderator, reportId: string, status: Outcome) {
      const { report } = await messageReports.resolve(caller, reportId, status);
      return toReport(report);
    },
  };
}
