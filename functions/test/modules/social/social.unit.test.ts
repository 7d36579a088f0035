import { z } from 'zod';
import { SOCIAL_TEXTS } from '../../../src/modules/social/social.texts';
import { hashtagKey } from '../../../src/modules/social/social.engagement';
import { writtenText } from '../../../src/platform/kits/text/text.schemas';
import { blendScore, HANDLE_PATTERN, hashtagsOf, mentionedHandles } from '../../../src/modules/social/social.model';

// The social module's pure rules: what the server reads from a post's text, the handle rule, the feed's blend.
describe('social text', () => {
  it('reads hashtags folded and unique, decomposed accents included', () => {
    expect(hashtagsOf('Ăn #PhởHàNội rồi #pho, #PHO và #phở_bò!')).toEqual(['phohanoi', 'pho', 'pho_bo']);
    expect(hashtagsOf('#Pho\u031b\u0309HàNội'.normalize('NFD'))).toEqual(['phohanoi']);
    expect(hashtagsOf('no tags # here, #\u0301 either')).toEqual([]);
    expect(hashtagsOf(Array.from({ length: 40 }, (_, i) => `#t${i}`).join(' '))).toHaveLength(30);
  });

  it('reads @handles whole: an email, a longer word or a trailing dot are not someone else', () => {
    expect(mentionedHandles('hi @Lan_99 and @minh.tran. and mail me@example.com')).toEqual(['lan_99', 'minh.tran']);
    expect(mentionedHandles(`@${'a'.repeat(31)} @${'b'.repeat(30)}`)).toEqual(['b'.repeat(30)]);
    expect(mentionedHandles('@ab @__x__ @.dot')).toEqual([]);
    expect(mentionedHandles(`@${'a'.repeat(29)}.bc and @${'c'.repeat(29)}.`)).toEqual(['c'.repeat(29)]);
  });

  it('handles: 3 to 30 of a-z, 0-9, _ and ., starting with a letter or digit, not ending with a dot', () => {
    for (const ok of ['lan', 'minh.tran', 'a_b_c', '9lives', 'x'.repeat(30)]) expect(HANDLE_PATTERN.test(ok)).toBe(true);
    for (const bad of ['ab', '__ab__', '_lan', '.lan', 'lan.', 'Lan', 'x'.repeat(31), 'lan tran', 'phở']) expect(HANDLE_PATTERN.test(bad)).toBe(false);
  });

  it('counts written text in code points, after trimming', () => {
    const schema = z.object({ text: writtenText(5) });
    expect(schema.safeParse({ text: '😀😀😀😀😀' }).success).toBe(true);
    expect(schema.safeParse({ text: '😀😀😀😀😀😀' }).success).toBe(false);
    expect(schema.safeParse({ text: '  abc  ' }).data).toEqual({ text: 'abc' });
    expect(schema.safeParse({ text: '   ' }).success).toBe(false);
  });
});

describe('feed blend', () => {
  it('lifts a post by up to six hours for engagement, on a log scale', () => {
    const t = Date.UTC(2026, 10, 30);
    const none = { likes: 0, comments: 0, shares: 0 };
    expect(blendScore(t, none)).toBe(t);
    const hour = 3_600_000;
    expect(blendScore(t, { likes: 9, comments: 0, shares: 0 }) - t).toBeCloseTo(1.2 * hour, -3);
    expect(blendScore(t, { likes: 0, comments: 0, shares: 33 }) - t).toBeCloseTo(2.4 * hour, -4);
    expect(blendScore(t, { likes: 1e9, comments: 0, shares: 0 }) - t).toBe(6 * hour);
    // A day-old post with a million likes stays below this morning's post with none.
    expect(blendScore(t - 24 * hour, { likes: 1e6, comments: 0, shares: 0 })).toBeLessThan(blendScore(t, none));
    expect(blendScore(t, { likes: -5, comments: 0, shares: 0 })).toBe(t);
  });
});

describe('aggregated notice texts', () => {
  const body = (locale: 'vi' | 'en', names: string[], count: number) => SOCIAL_TEXTS.render('social.like', { names, count }, locale).body;

  it('names one or two people and counts the rest, in each language', () => {
    expect(body('en', ['Lan'], 1)).toBe('Lan liked your post');
    expect(body('en', ['Lan', 'Minh'], 2)).toBe('Lan and Minh liked your post');
    expect(body('en', ['Lan', 'Minh'], 3)).toBe('Lan and 2 others liked your post');
    expect(body('en', ['Lan'], 2)).toBe('Lan and 1 other liked your post');
    expect(body('en', ['Lan', 'Minh'], 1_201)).toBe('Lan and 1,200 others liked your post');
    expect(body('vi', ['Lan', 'Minh'], 13)).toBe('Lan và 12 người khác đã thích bài viết của bạn');
    expect(body('vi', ['Lan', 'Minh'], 2)).toBe('Lan và Minh đã thích bài viết của bạn');
  });

  it('a hashtag page key folds as posts do', () => {
    expect(['#PhởHàNội', 'phohanoi', 'PHỞHÀNỘI', '#Pho\u031Bha'].map(hashtagKey)).toEqual(['phohanoi', 'phohanoi', 'phohanoi', 'phoha']);
  });
});
