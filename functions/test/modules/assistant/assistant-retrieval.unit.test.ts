import type { PageContent } from '../../../src/modules/cms';
import {
  buildIndex,
  DEFAULT_MIN_SCORE,
  PASSAGE_MAX_CHARS,
  passagesOf,
  searchPassages,
  termsOf,
  type Passage,
} from '../../../src/modules/assistant/assistant.retrieval';

const text = (vi: string, en: string) => ({ vi, en });
const faq = (q: [string, string], a: [string, string]) => ({ question: text(...q), answer: text(...a) });
const page = (slug: string, content: Partial<PageContent>) => ({
  slug,
  version: 1,
  content: { title: text('', ''), body: text('', ''), faq: [], ...content } as PageContent,
});

const HELP = [
  page('payments-help', {
    title: text('Thanh toán', 'Payments'),
    body: text(
      'Bạn có thể thanh toán bằng tiền mặt, ví hoặc thẻ ngân hàng.\n\nGiao dịch bằng ví được xác nhận ngay.',
      'You can pay in cash, from the wallet or by bank card.\n\nWallet transactions are confirmed at once.',
    ),
    faq: [
      faq(
        ['Làm sao để được hoàn tiền?', 'How do I get a refund?'],
        ['Hoàn tiền về ví trong 3 ngày làm việc.', 'Refunds reach your wallet within 3 working days.'],
      ),
      faq(['Tôi đổi mật khẩu thế nào?', 'How do I change my password?'], ['Vào Cài đặt, chọn Bảo mật.', 'Open Settings, then Security.']),
    ],
  }),
  page('rides-help', {
    title: text('Đi xe', 'Rides'),
    body: text('Tài xế sẽ gọi cho bạn khi đến điểm đón.', 'The driver calls you when arriving at the pickup point.'),
    faq: [
      faq(
        ['Tôi quên đồ trên xe thì sao?', 'I left something in the car'],
        ['Liên hệ tài xế trong lịch sử chuyến đi.', 'Contact the driver from your ride history.'],
      ),
    ],
  }),
];

const ids = (hits: Array<{ passage: Passage }>) => hits.map((h) => h.passage.id);

describe('assistant retrieval: passages of the CMS pages', () => {
  it('makes one passage per FAQ entry and per paragraph, per language, with stable ids', () => {
    const passages = passagesOf(HELP);
    expect(passages.filter((p) => p.slug === 'payments-help').map((p) => p.id)).toEqual([
      'payments-help#faq0.vi',
      'payments-help#faq1.vi',
      'payments-help#p0.vi',
      'payments-help#p1.vi',
      'payments-help#faq0.en',
      'payments-help#faq1.en',
      'payments-help#p0.en',
      'payments-help#p1.en',
    ]);
    expect(passages.find((p) => p.id === 'payments-help#faq0.vi')).toEqual({
      id: 'payments-help#faq0.vi',
      slug: 'payments-help',
      lang: 'vi',
      title: 'Thanh toán',
      question: 'Làm sao để được hoàn tiền?',
      text: 'Hoàn tiền về ví trong 3 ngày làm việc.',
    });
    expect(passages.find((p) => p.id === 'payments-help#p1.en')?.text).toBe('Wallet transactions are confirmed at once.');
  });

  it('skips empty text and cuts long paragraphs into passages of at most the limit', () => {
    const sentence = 'Chính sách hoàn tiền áp dụng cho mọi đơn hàng đã thanh toán trong ứng dụng. ';
    const longWord = 'x'.repeat(PASSAGE_MAX_CHARS + 50);
    const passages = passagesOf([
      page('long', { title: text('Dài', ''), body: text(`${sentence.repeat(30)}\n\n   \n\n${longWord}`, '  '), faq: [faq(['Hỏi?', 'Asked?'], ['', ''])] }),
    ]);
    expect(passages.every((p) => p.lang === 'vi' && p.question === null)).toBe(true);
    expect(passages.length).toBeGreaterThanOrEqual(6);
    for (const p of passages) expect(Array.from(p.text).length).toBeLessThanOrEqual(PASSAGE_MAX_CHARS);
    expect(passages.map((p) => p.id)).toEqual(passages.map((_, i) => `long#p${i}.vi`));
    // Nothing lost but whitespace.
    expect(
      passages
        .map((p) => p.text)
        .join('')
        .replace(/\s/g, ''),
    ).toBe(`${sentence.repeat(30)}${longWord}`.replace(/\s/g, ''));
  });

  it('drops stopwords of the language and adds bigrams of adjacent words', () => {
    expect(termsOf('Làm sao để được hoàn tiền?', 'vi')).toEqual(['hoan', 'hoan_tien', 'tien']);
    expect(termsOf('How do I get a refund?', 'en')).toEqual(['get', 'refund']);
    // "ăn" is a Vietnamese word even though "an" is an English stopword.
    expect(termsOf('đồ ăn', 'vi')).toEqual(['do', 'do_an', 'an']);
  });
});

describe('assistant retrieval: BM25 search', () => {
  const index = buildIndex(passagesOf(HELP));

  it('finds the Vietnamese refund FAQ from "hoan tien", with or without diacritics', () => {
    for (const query of ['hoan tien', 'hoàn tiền của tôi', 'Làm sao để được HOÀN TIỀN']) {
      expect(ids(searchPassages(index, query, { lang: 'vi' }))[0]).toBe('payments-help#faq0.vi');
    }
  });

  it('finds the English refund FAQ from "refund"', () => {
    const hits = searchPassages(index, 'refund', { lang: 'en' });
    expect(ids(hits)[0]).toBe('payments-help#faq0.en');
    expect(hits[0].score).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
  });

  it('ranks by score, returns at most k, and only passages of the language when they match', () => {
    const hits = searchPassages(index, 'tài xế', { lang: 'vi', k: 5 });
    expect(hits.length).toBeGreaterThanOrEqual(2);
    expect(hits.every((h) => h.passage.lang === 'vi' && h.passage.slug === 'rides-help')).toBe(true);
    for (let i = 1; i < hits.length; i += 1) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
    expect(searchPassages(index, 'tài xế', { lang: 'vi', k: 1 })).toHaveLength(1);
  });

  it('returns nothing for a query with nothing in common, or only stopwords', () => {
    expect(searchPassages(index, 'kangaroo zebra quantum', {})).toEqual([]);
    expect(searchPassages(index, 'what is the', {})).toEqual([]);
    expect(searchPassages(index, 'là của tôi thì sao ạ', { lang: 'vi' })).toEqual([]);
    expect(searchPassages(index, '', {})).toEqual([]);
    expect(searchPassages(buildIndex([]), 'refund', {})).toEqual([]);
  });

  it('falls back to the other language only when nothing in the asked one reaches minScore', () => {
    const onlyEnglish = buildIndex(
      passagesOf([...HELP, page('loyalty', { faq: [faq(['', 'What are loyalty points?'], ['', 'Points earned on every ride.'])] })]),
    );
    const hits = searchPassages(onlyEnglish, 'loyalty points', { lang: 'vi' });
    expect(ids(hits)[0]).toBe('loyalty#faq0.en');
    // The asked language matching wins, even when the other scores higher.
    const vietnameseFirst = searchPassages(onlyEnglish, 'ví wallet', { lang: 'vi' });
    expect(vietnameseFirst.length).toBeGreaterThan(0);
    expect(vietnameseFirst.every((h) => h.passage.lang === 'vi')).toBe(true);
    // A threshold no Vietnamese passage reaches sends the search to English.
    const best = searchPassages(onlyEnglish, 'ví wallet', { lang: 'vi', k: 1 })[0].score;
    const strict = searchPassages(onlyEnglish, 'ví wallet', { lang: 'vi', minScore: best + 0.01 });
    expect(strict.length).toBeGreaterThan(0);
    expect(strict.every((h) => h.passage.lang === 'en' && h.score >= best + 0.01)).toBe(true);
  });

  it('drops matches under minScore (default 1): a word most passages share is not an answer', () => {
    const common = buildIndex(
      passagesOf(['a', 'b', 'c', 'd', 'e', 'f'].map((s) => page(s, { body: text('', `The app ${s === 'c' ? 'lists rare vouchers' : 'works'}.`) }))),
    );
    expect(searchPassages(common, 'app', {})).toEqual([]);
    expect(searchPassages(common, 'app', { minScore: 0, k: 10 }).length).toBe(6);
    expect(ids(searchPassages(common, 'vouchers', {}))).toEqual(['c#p0.en']);
  });

  it('orders ties by id, whatever the order of the corpus', () => {
    const twins = ['zeta', 'alpha', 'mid'].map((slug) => page(slug, { faq: [faq(['Đổi mật khẩu', 'Change password'], ['Vào Cài đặt.', 'Open Settings.'])] }));
    const forward = searchPassages(buildIndex(passagesOf(twins)), 'mật khẩu', { k: 3 });
    const backward = searchPassages(buildIndex(passagesOf([...twins].reverse())), 'mật khẩu', { k: 3 });
    expect(ids(forward)).toEqual(['alpha#faq0.vi', 'mid#faq0.vi', 'zeta#faq0.vi']);
    expect(forward).toEqual(backward);
    expect(new Set(forward.map((h) => h.score)).size).toBe(1);
  });

  it('stays correct over a 100-page corpus', () => {
    const topics = Array.from({ length: 100 }, (_, i) => `topic${i}`);
    const corpus = topics.map((topic, i) =>
      page(`page-${i}`, {
        title: text(`Trang ${i}`, `Page ${i}`),
        body: text(
          `Ứng dụng hỗ trợ ${topic} cho khách hàng.\n\nThông tin chung về dịch vụ.`,
          `The app supports ${topic} for customers.\n\nGeneral service information.`,
        ),
        faq: [faq([`Câu hỏi về ${topic}?`, `Question about ${topic}?`], [`Trả lời cho ${topic}.`, `Answer for ${topic}.`])],
      }),
    );
    const big = buildIndex(passagesOf(corpus));
    for (const i of [0, 37, 99]) {
      const hits = searchPassages(big, `topic${i}`, { lang: 'en' });
      expect(ids(hits)).toEqual([`page-${i}#faq0.en`, `page-${i}#p0.en`]);
    }
    expect(ids(searchPassages(big, 'câu hỏi topic42', { lang: 'vi', k: 1 }))).toEqual(['page-42#faq0.vi']);
  });
});
