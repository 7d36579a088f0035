import { defineMessages, notice } from '../../platform/kits/i18n';
import type { TicketStatus } from './support.machine';

type Moved = Exclude<TicketStatus, 'OPEN'>;
const STATUS_VI: Record<Moved, string> = {
  IN_PROGRESS: 'đang được xử lý',
  WAITING_USER: 'đang chờ bạn trả lời',
  RESOLVED: 'đã được giải quyết',
  CLOSED: 'đã đóng',
};
const STATUS_EN: Record<Moved, string> = {
  IN_PROGRESS: 'is being handled',
  WAITING_USER: 'is waiting for your answer',
  RESOLVED: 'has been resolved',
  CLOSED: 'has been closed',
};

// The support module's texts for people (push and inbox). A reply's preview is staff's words, cut short.
export const SUPPORT_TEXTS = defineMessages({
  'support.ticket.reply': notice<{ subject: string; preview: string }>({
    example: { subject: 'Trừ tiền hai lần', preview: 'Chúng tôi đã kiểm tra và hoàn lại 65.000 ₫.' },
    vi: (p) => ({ title: `Hỗ trợ đã trả lời: ${p.subject}`, body: p.preview }),
    en: (p) => ({ title: `Support replied: ${p.subject}`, body: p.preview }),
  }),
  'support.ticket.status': notice<{ subject: string; status: Moved }>({
    example: { subject: 'Trừ tiền hai lần', status: 'RESOLVED' },
    vi: (p) => ({ title: 'Yêu cầu hỗ trợ', body: `Yêu cầu "${p.subject}" ${STATUS_VI[p.status]}` }),
    en: (p) => ({ title: 'Support request', body: `Your request "${p.subject}" ${STATUS_EN[p.status]}` }),
  }),
});
