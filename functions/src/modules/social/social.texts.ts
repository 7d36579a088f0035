import { defineMessages, notice } from '../../platform/kits/i18n';

// The social module's texts for people (push and inbox). Aggregated notices name the newest one or two people and
// count the rest ("Lan and 12 others liked your post"). What people wrote (a comment) is never pushed: a lock screen
// would show it as if from us; the app shows it in the post.

type Group = { names: string[]; count: number };
const example: Group = { names: ['Lan', 'Minh'], count: 13 };

/** "Lan", "Lan và Minh", "Lan và 12 người khác". */
function whoVi(g: Group): string {
  if (g.count <= 1 || g.names.length === 0) return g.names[0] ?? 'Một người';
  if (g.count === 2 && g.names.length >= 2) return `${g.names[0]} và ${g.names[1]}`;
  return `${g.names[0]} và ${(g.count - 1).toLocaleString('vi-VN')} người khác`;
}
function whoEn(g: Group): string {
  if (g.count <= 1 || g.names.length === 0) return g.names[0] ?? 'Someone';
  if (g.count === 2 && g.names.length >= 2) return `${g.names[0]} and ${g.names[1]}`;
  const others = g.count - 1;
  return `${g.names[0]} and ${others.toLocaleString('en-US')} ${others === 1 ? 'other' : 'others'}`;
}

export const SOCIAL_TEXTS = defineMessages({
  'social.like': notice<Group>({
    example,
    vi: (g) => ({ title: 'Lượt thích mới', body: `${whoVi(g)} đã thích bài viết của bạn` }),
    en: (g) => ({ title: 'New likes', body: `${whoEn(g)} liked your post` }),
  }),
  'social.comment': notice<Group>({
    example,
    vi: (g) => ({ title: 'Bình luận mới', body: `${whoVi(g)} đã bình luận về bài viết của bạn` }),
    en: (g) => ({ title: 'New comments', body: `${whoEn(g)} commented on your post` }),
  }),
  'social.reply': notice<Group>({
    example,
    vi: (g) => ({ title: 'Trả lời mới', body: `${whoVi(g)} đã trả lời bình luận của bạn` }),
    en: (g) => ({ title: 'New replies', body: `${whoEn(g)} replied to your comment` }),
  }),
  'social.share': notice<Group>({
    example,
    vi: (g) => ({ title: 'Lượt chia sẻ mới', body: `${whoVi(g)} đã chia sẻ bài viết của bạn` }),
    en: (g) => ({ title: 'New shares', body: `${whoEn(g)} shared your post` }),
  }),
  'social.follow': notice<Group>({
    example,
    vi: (g) => ({ title: 'Người theo dõi mới', body: `${whoVi(g)} đã bắt đầu theo dõi bạn` }),
    en: (g) => ({ title: 'New followers', body: `${whoEn(g)} started following you` }),
  }),
  'social.mention': notice<{ name: string; where: 'post' | 'comment' }>({
    example: { name: 'Lan', where: 'comment' },
    vi: (p) => ({ title: 'Bạn được nhắc đến', body: `${p.name} đã nhắc đến bạn trong một ${p.where === 'post' ? 'bài viết' : 'bình luận'}` }),
    en: (p) => ({ title: 'You were mentioned', body: `${p.name} mentioned you in a ${p.where}` }),
  }),
});
