import { defineMessages, mail } from '../../platform/kits/i18n';

// The partners module's texts for people. The business name is the owner's words, as written.
export const PARTNER_TEXTS = defineMessages({
  'mail.staffAdded': mail<{ business: string }>({
    example: { business: 'Phở Hòa Pasteur' },
    vi: (p) => ({
      subject: `Bạn đã được thêm vào ${p.business}`,
      text: `Bạn hiện là nhân viên của ${p.business} trên ứng dụng đối tác. Hãy đăng nhập bằng email của bạn: ứng dụng sẽ gửi cho bạn một mã dùng một lần.`,
    }),
    en: (p) => ({
      subject: `You were added to ${p.business}`,
      text: `You are now staff of ${p.business} on the partner app. Sign in with your email: the app sends you a one-time code.`,
    }),
  }),
});
