import { foldText } from '../../platform/kits/text/text';
import type { Lang } from './assistant.retrieval';

// Deterministic intent rules: what a message asks for (a ride's status, a refund…), the record ids and the period
// it names, and its language. No model: the same message always gives the same intent, and any text is safe input
// (the identity rule, whose records a user may see, is enforced by the tools, not here).

export const INTENTS = [
  'greeting',
  'thanks',
  'ride_status',
  'order_status',
  'bookings',
  'payment_status',
  'refund_status',
  'wallet_balance',
  'ticket_status',
  'human',
  'faq',
] as const;
export type IntentName = (typeof INTENTS)[number];
export type PeriodLabel = 'today' | 'tomorrow' | 'this_week' | 'next_week' | 'this_month';
export interface Period {
  from: number;
  to: number;
  label: PeriodLabel;
}
export interface Intent {
  name: IntentName;
  ids: string[];
  period: Period | null;
  lang: Lang;
}

// Only the start of a long message is read: rules need a sentence, and the cost stays bounded for any input.
export const MAX_CLASSIFIED_CHARS = 4000;
export const MAX_IDS = 3;

interface Word {
  raw: string;
  folded: string;
  /** Written without diacritics. */
  plain: boolean;
}
type Phrase = readonly Word[];

function wordsOf(text: string): Word[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((raw) => {
      const folded = foldText(raw);
      return { raw, folded, plain: folded === raw };
    });
}

// A phrase word written with diacritics matches the same word with them, or a word typed without any ("vi" for
// "ví"), but not another accented word that folds alike: "vì" (because) is not "ví" (wallet), "chuyện" (talk) not
// "chuyến" (trip). A plain phrase word (English) matches on folded text.
function wordMatches(word: Word, phraseWord: Word): boolean {
  if (phraseWord.plain) return word.folded === phraseWord.folded;
  return word.raw === phraseWord.raw || (word.plain && word.folded === phraseWord.folded);
}

function phraseAt(words: readonly Word[], phrase: Phrase, at: number): boolean {
  if (at + phrase.length > words.length) return false;
  return phrase.every((p, i) => wordMatches(words[at + i], p));
}

interface Rule<Name extends string> {
  name: Name;
  phrases: readonly Phrase[];
  /** Phrases that start with a rule phrase but mean something else ("ví dụ": for example). */
  except: readonly Phrase[];
}

const rule = <Name extends string>(name: Name, phrases: string[], except: string[] = []): Rule<Name> => ({
  name,
  phrases: phrases.map(wordsOf),
  except: except.map(wordsOf),
});

function matches<Name extends string>(words: readonly Word[], r: Rule<Name>): boolean {
  for (let at = 0; at < words.length; at += 1) {
    if (r.except.some((e) => phraseAt(words, e, at))) continue;
    if (r.phrases.some((p) => phraseAt(words, p, at))) return true;
  }
  return false;
}

// In priority order: asking for a person wins; money questions name the money (a refund of a ride is about the
// refund); a greeting or thanks only when nothing specific is asked.
const RULES: readonly Rule<IntentName>[] = [
  rule('human', [
    'gặp nhân viên',
    'nói chuyện với người',
    'nhân viên hỗ trợ',
    'nhân viên tư vấn',
    'tổng đài viên',
    'người thật',
    'talk to a human',
    'human',
    'agent',
    'support staff',
    'real person',
    'customer service',
    'operator',
  ]),
  rule('ticket_status', ['yêu cầu hỗ trợ', 'phiếu hỗ trợ', 'khiếu nại', 'ticket', 'tickets', 'complaint', 'support request']),
  rule('refund_status', ['hoàn tiền', 'hoàn lại', 'trả lại tiền', 'refund', 'refunds', 'refunded', 'money back']),
  rule('payment_status', [
    'thanh toán',
    'trừ tiền',
    'bị trừ',
    'giao dịch',
    'hóa đơn',
    'hoá đơn',
    'payment',
    'payments',
    'paid',
    'pay',
    'charge',
    'charged',
    'transaction',
    'invoice',
  ]),
  rule('wallet_balance', ['số dư', 'ví', 'balance', 'wallet'], ['ví dụ']),
  rule('ride_status', ['chuyến xe', 'chuyến đi', 'cuốc xe', 'tài xế', 'xe của tôi', 'xe tới', 'xe đến', 'ride', 'rides', 'trip', 'driver', 'taxi']),
  rule('order_status', ['đơn hàng', 'đơn đồ ăn', 'đơn của tôi', 'giao hàng', 'đồ ăn', 'món ăn', 'order', 'orders', 'food', 'delivery', 'parcel']),
  rule('bookings', ['đặt phòng', 'đặt chỗ', 'đặt lịch', 'lịch hẹn', 'booking', 'bookings', 'reservation', 'reservations', 'appointment']),
  rule('thanks', ['cảm ơn', 'cám ơn', 'thanks', 'thank you', 'thank', 'thx', 'tks']),
  rule('greeting', ['xin chào', 'chào', 'alo', 'hello', 'hi', 'hey', 'good morning']),
];

const PERIOD_RULES: readonly Rule<PeriodLabel>[] = [
  rule('today', ['hôm nay', 'today']),
  rule('tomorrow', ['ngày mai', 'tomorrow']),
  rule('this_week', ['tuần này', 'this week']),
  rule('next_week', ['tuần sau', 'tuần tới', 'next week']),
  rule('this_month', ['tháng này', 'this month']),
];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
// Asia/Ho_Chi_Minh is UTC+7 all year (no daylight saving time).
const LOCAL_OFFSET_MS = 7 * HOUR_MS;

/** The period a label names around `now`, in Vietnam's local days (a week starts on Monday), as epoch ms [from, to). */
export function periodOf(label: PeriodLabel, now: number): Period {
  // Local midnight of today, read as UTC fields.
  const localToday = Math.floor((now + LOCAL_OFFSET_MS) / DAY_MS) * DAY_MS;
  const today = localToday - LOCAL_OFFSET_MS;
  const monday = today - ((new Date(localToday).getUTCDay() + 6) % 7) * DAY_MS;
  const local = new Date(localToday);
  const monthStart = (monthsAhead: number) => Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + monthsAhead, 1) - LOCAL_OFFSET_MS;
  const span: Record<PeriodLabel, [number, number]> = {
    today: [today, today + DAY_MS],
    tomorrow: [today + DAY_MS, today + 2 * DAY_MS],
    this_week: [monday, monday + 7 * DAY_MS],
    next_week: [monday + 7 * DAY_MS, monday + 14 * DAY_MS],
    this_month: [monthStart(0), monthStart(1)],
  };
  const [from, to] = span[label];
  return { from, to, label };
}

// Letters Vietnamese has and English, French or Spanish text rarely has: đ, hook above, dot below, horn, breve,
// tilde. The other marks (grave, acute, circumflex) also occur in borrowed words ("café"), so they only count as votes.
const VIETNAMESE_MARK = /[\u0303\u0309\u0323\u031B\u0306đ]/i;
const SHARED_MARK = /[\u0300\u0301\u0302]/;
const VIETNAMESE_WORDS = new Set(
  'toi cua chuyen don hoan tien vi dat xe khong gi nao dau duoc cho va co ban minh em anh oi nhe xin chao cam sao lam thanh toan bao gio hom nay mai tuan thang nhan vien ho tro yeu cau du tai phong lich hen roi chua nhu'.split(
    ' ',
  ),
);
// "t", "s", "ll"… are what an apostrophe leaves of "don't", "it's": English, although "don" is also Vietnamese (đơn).
const ENGLISH_WORDS = new Set(
  'the a an is are was were my i you your me we our it this that to of and or how what where when why who which do does did can could will would should for in on at with from be have has please hello hi hey thanks thank yes no not ride order refund payment wallet balance booking bookings ticket driver status help want need get know talk human agent week today tomorrow month next t s ll re ve m d'.split(
    ' ',
  ),
);

/** Vietnamese when the text has Vietnamese diacritics or more Vietnamese than English words; `fallback` on a tie. */
export function detectLanguage(text: string, fallback: Lang): Lang {
  const decomposed = text.slice(0, MAX_CLASSIFIED_CHARS).normalize('NFD').toLowerCase();
  if (VIETNAMESE_MARK.test(decomposed)) return 'vi';
  let vietnamese = 0;
  let english = 0;
  for (const word of decomposed.split(/[^\p{L}\p{M}\p{N}]+/u)) {
    if (SHARED_MARK.test(word)) vietnamese += 1;
    else if (VIETNAMESE_WORDS.has(word)) vietnamese += 1;
    else if (ENGLISH_WORDS.has(word)) english += 1;
  }
  if (vietnamese === english) return fallback;
  return vietnamese > english ? 'vi' : 'en';
}

/**
 * Tokens that look like record ids, in order, at most MAX_IDS: 16–40 characters of [A-Za-z0-9_-] with a letter and a
 * digit (Firestore's automatic ids are 20 letters and digits; a word of the message has no digit).
 */
export function idsIn(text: string): string[] {
  const ids = text.split(/[^A-Za-z0-9_-]+/).filter((token) => token.length >= 16 && token.length <= 40 && /[0-9]/.test(token) && /[A-Za-z]/.test(token));
  return [...new Set(ids)].slice(0, MAX_IDS);
}

/** What a message asks for; 'faq' when no rule matches. Never throws. */
export function classify(text: string, opts: { fallbackLang: Lang; now: number }): Intent {
  const bounded = text.slice(0, MAX_CLASSIFIED_CHARS);
  const words = wordsOf(bounded);
  const periodLabel = PERIOD_RULES.find((r) => matches(words, r))?.name;
  return {
    name: RULES.find((r) => matches(words, r))?.name ?? 'faq',
    ids: idsIn(bounded),
    period: periodLabel === undefined ? null : periodOf(periodLabel, opts.now),
    lang: detectLanguage(bounded, opts.fallbackLang),
  };
}
