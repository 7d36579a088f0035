import { formatterFor } from '../../platform/kits/i18n';
import type { Lang } from './assistant.retrieval';
import type { BookingFacts, OrderFacts, PaymentFacts, RideFacts, TicketFacts } from './assistant.tools';

// The offline assistant's sentences, Vietnamese and English: each fact comes from a record of the caller's; nothing
// of what the user wrote is repeated back except what they asked to search.

type Pair = { vi: string; en: string };
const STATUS: Record<string, Pair> = {
  SEARCHING: { vi: 'đang tìm tài xế', en: 'looking for a driver' },
  CONFIRMED: { vi: 'đã có tài xế, đang đến điểm đón', en: 'confirmed: your driver is on the way to the pickup' },
  ARRIVED: { vi: 'tài xế đã đến điểm đón', en: 'your driver has arrived at the pickup' },
  IN_PROGRESS: { vi: 'đang trong chuyến đi', en: 'in progress' },
  COMPLETED: { vi: 'đã hoàn thành', en: 'completed' },
  CANCELLED: { vi: 'đã huỷ', en: 'cancelled' },
  NO_DRIVER: { vi: 'không tìm được tài xế', en: 'no driver was found' },
  EXPIRED: { vi: 'đã hết hạn', en: 'expired' },
  AWAITING_PAYMENT: { vi: 'đang chờ thanh toán', en: 'awaiting payment' },
  PLACED: { vi: 'đã đặt, chờ cửa hàng xác nhận', en: 'placed, waiting for the store to confirm' },
  PREPARING: { vi: 'cửa hàng đang chuẩn bị', en: 'being prepared' },
  READY: { vi: 'đã sẵn sàng, chờ tài xế lấy', en: 'ready for pickup' },
  PICKED_UP: { vi: 'tài xế đang giao', en: 'on its way to you' },
  DELIVERED: { vi: 'đã giao', en: 'delivered' },
  REJECTED: { vi: 'bị từ chối', en: 'rejected' },
  HELD: { vi: 'đang giữ chỗ', en: 'held' },
  REQUESTED: { vi: 'đang chờ đối tác xác nhận', en: 'waiting for the partner to confirm' },
  NO_SHOW: { vi: 'vắng mặt', en: 'marked as a no-show' },
  PENDING: { vi: 'đang chờ xử lý', en: 'pending' },
  AUTHORIZED: { vi: 'đã tạm giữ tiền', en: 'authorized (the money is held)' },
  SUCCEEDED: { vi: 'thành công', en: 'successful' },
  FAILED: { vi: 'thất bại', en: 'failed' },
  REFUNDED: { vi: 'đã hoàn tiền toàn bộ', en: 'fully refunded' },
  PARTIALLY_REFUNDED: { vi: 'đã hoàn tiền một phần', en: 'partly refunded' },
  OPEN: { vi: 'đang chờ nhân viên hỗ trợ', en: 'waiting for our support team' },
  WAITING_USER: { vi: 'đang chờ bạn trả lời', en: 'waiting for your answer' },
  RESOLVED: { vi: 'đã được giải quyết', en: 'resolved' },
  CLOSED: { vi: 'đã đóng', en: 'closed' },
};
const statusOf = (status: string, lang: Lang) => STATUS[status]?.[lang] ?? status.toLowerCase().replace(/_/g, ' ');
const money = (amount: number, lang: Lang) => formatterFor(lang).vnd(amount);
const when = (iso: string, lang: Lang) => formatterFor(lang).dateTime(Date.parse(iso));
const say = (lang: Lang, p: Pair) => p[lang];

export const ASSISTANT_TEXTS = {
  greeting: (lang: Lang) =>
    say(lang, {
      vi: 'Xin chào! Mình có thể xem giúp bạn chuyến xe, đơn hàng, lịch đặt chỗ, thanh toán, ví và yêu cầu hỗ trợ của bạn.',
      en: 'Hello! I can look up your rides, orders, bookings, payments, wallet and support tickets.',
    }),
  thanks: (lang: Lang) => say(lang, { vi: 'Rất vui được giúp bạn!', en: 'Glad to help!' }),
  noneFound: (lang: Lang, what: 'ride' | 'order' | 'booking' | 'payment' | 'ticket', named: boolean) => {
    const vi = { ride: 'chuyến xe', order: 'đơn hàng', booking: 'lịch đặt chỗ', payment: 'giao dịch thanh toán', ticket: 'yêu cầu hỗ trợ' }[what];
    const en = { ride: 'ride', order: 'order', booking: 'booking', payment: 'payment', ticket: 'support ticket' }[what];
    return named
      ? say(lang, { vi: `Mình không tìm thấy ${vi} nào của bạn với mã đó.`, en: `I couldn't find a ${en} of yours with that id.` })
      : say(lang, { vi: `Bạn chưa có ${vi} nào.`, en: `You have no ${en}s yet.` });
  },
  ride: (r: RideFacts, lang: Lang) => {
    const route = r.from && r.to ? say(lang, { vi: ` từ ${r.from} đến ${r.to}`, en: ` from ${r.from} to ${r.to}` }) : '';
    const driver = r.driver
      ? say(lang, { vi: ` Tài xế: ${r.driver}${r.plate ? ` (${r.plate})` : ''}.`, en: ` Driver: ${r.driver}${r.plate ? ` (${r.plate})` : ''}.` })
      : '';
    const eta =
      r.etaToPickupSec !== null && r.status === 'CONFIRMED'
        ? say(lang, {
            vi: ` Dự kiến đến trong ${Math.max(1, Math.round(r.etaToPickupSec / 60))} phút.`,
            en: ` About ${Math.max(1, Math.round(r.etaToPickupSec / 60))} min away.`,
          })
        : '';
    const fare = r.fareVnd !== null ? say(lang, { vi: ` Cước: ${money(r.fareVnd, lang)}.`, en: ` Fare: ${money(r.fareVnd, lang)}.` }) : '';
    return say(lang, { vi: `Chuyến xe${route} ${statusOf(r.status, lang)}.`, en: `Your ride${route} is ${statusOf(r.status, lang)}.` }) + driver + eta + fare;
  },
  order: (o: OrderFacts, lang: Lang) => {
    const store = o.store ? say(lang, { vi: ` từ ${o.store}`, en: ` from ${o.store}` }) : '';
    const total = o.totalVnd !== null ? say(lang, { vi: ` Tổng: ${money(o.totalVnd, lang)}.`, en: ` Total: ${money(o.totalVnd, lang)}.` }) : '';
    return say(lang, { vi: `Đơn hàng${store} ${statusOf(o.status, lang)}.`, en: `Your order${store} is ${statusOf(o.status, lang)}.` }) + total;
  },
  bookings: (list: BookingFacts[], lang: Lang, period: string | null) => {
    const head = say(lang, {
      vi: `Bạn có ${list.length} lịch đặt chỗ${period ? ` ${period}` : ''}:`,
      en: `You have ${list.length} booking${list.length === 1 ? '' : 's'}${period ? ` ${period}` : ''}:`,
    });
    const lines = list.map((b) => `• ${[b.what, b.where].filter(Boolean).join(', ')}: ${when(b.startsAt, lang)} (${statusOf(b.status, lang)})`);
    return [head, ...lines].join('\n');
  },
  noBookings: (lang: Lang, period: string | null) =>
    say(lang, { vi: `Bạn không có lịch đặt chỗ nào${period ? ` ${period}` : ''}.`, en: `You have no bookings${period ? ` ${period}` : ''}.` }),
  payment: (p: PaymentFacts, lang: Lang) => {
    const what = p.description ?? p.purpose.toLowerCase();
    const refund =
      p.refundedVnd > 0
        ? say(lang, { vi: ` Đã hoàn ${money(p.refundedVnd, lang)}.`, en: ` ${money(p.refundedVnd, lang)} has been refunded.` })
        : p.refundsPending > 0
          ? say(lang, { vi: ' Yêu cầu hoàn tiền đang được xử lý.', en: ' A refund is being processed.' })
          : '';
    return (
      say(lang, {
        vi: `Thanh toán ${money(p.amountVnd, lang)} (${what}) ngày ${when(p.createdAt, lang)}: ${statusOf(p.status, lang)}.`,
        en: `Your payment of ${money(p.amountVnd, lang)} (${what}) on ${when(p.createdAt, lang)} is ${statusOf(p.status, lang)}.`,
      }) + refund
    );
  },
  noRefund: (p: PaymentFacts, lang: Lang) =>
    say(lang, {
      vi: `Giao dịch gần nhất (${money(p.amountVnd, lang)}, ${statusOf(p.status, lang)}) chưa được hoàn tiền. Nếu bạn cần hoàn tiền, hãy tạo yêu cầu hỗ trợ.`,
      en: `Your latest payment (${money(p.amountVnd, lang)}, ${statusOf(p.status, lang)}) has not been refunded. If you need a refund, open a support ticket.`,
    }),
  wallet: (balance: number, held: number, lang: Lang) =>
    say(lang, {
      vi: `Số dư ví của bạn: ${money(balance, lang)}${held > 0 ? ` (đang tạm giữ ${money(held, lang)})` : ''}.`,
      en: `Your wallet balance is ${money(balance, lang)}${held > 0 ? ` (${money(held, lang)} on hold)` : ''}.`,
    }),
  ticket: (t: TicketFacts, lang: Lang) =>
    say(lang, { vi: `Yêu cầu "${t.subject}" ${statusOf(t.status, lang)}.`, en: `Your ticket "${t.subject}" is ${statusOf(t.status, lang)}.` }),
  human: (lang: Lang) =>
    say(lang, {
      vi: 'Mình có thể chuyển cuộc trò chuyện này cho nhân viên hỗ trợ: bấm "Tạo yêu cầu hỗ trợ".',
      en: 'I can hand this conversation to our support team: tap "Open a support ticket".',
    }),
  speaker: (role: 'user' | 'assistant', lang: Lang) => (role === 'user' ? say(lang, { vi: 'Bạn', en: 'You' }) : say(lang, { vi: 'Trợ lý', en: 'Assistant' })),
  handoffSubject: (lang: Lang) => say(lang, { vi: 'Trò chuyện với trợ lý', en: 'Assistant conversation' }),
  handedOff: (subject: string, lang: Lang) =>
    say(lang, {
      vi: `Mình đã tạo yêu cầu hỗ trợ "${subject}". Nhân viên sẽ trả lời bạn sớm.`,
      en: `I've opened the support ticket "${subject}". Our team will answer you soon.`,
    }),
  faqIntro: (title: string, lang: Lang) => say(lang, { vi: `Theo trang "${title}":`, en: `From "${title}":` }),
  unknown: (lang: Lang) =>
    say(lang, {
      vi: 'Xin lỗi, mình chưa hiểu câu hỏi. Bạn có thể hỏi về chuyến xe, đơn hàng, lịch đặt chỗ, thanh toán, ví, hoặc gặp nhân viên hỗ trợ.',
      en: "Sorry, I didn't get that. You can ask about your rides, orders, bookings, payments or wallet, or talk to our support team.",
    }),
  period: (label: string, lang: Lang) =>
    ({
      today: { vi: 'hôm nay', en: 'today' },
      tomorrow: { vi: 'ngày mai', en: 'tomorrow' },
      this_week: { vi: 'tuần này', en: 'this week' },
      next_week: { vi: 'tuần sau', en: 'next week' },
      this_month: { vi: 'tháng này', en: 'this month' },
    })[label]?.[lang] ?? null,
  quick: {
    ride: { vi: 'Chuyến xe của tôi đâu?', en: 'Where is my ride?' },
    refund: { vi: 'Tình trạng hoàn tiền', en: 'Refund status of my last payment' },
    bookings: { vi: 'Lịch đặt chỗ tuần này', en: 'My bookings this week' },
    wallet: { vi: 'Số dư ví', en: 'My wallet balance' },
    handoff: { vi: 'Tạo yêu cầu hỗ trợ', en: 'Open a support ticket' },
    order: { vi: 'Đơn hàng của tôi', en: 'Where is my order?' },
  },
};
