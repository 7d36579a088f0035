import { defineMessages, mail, notice, sms } from '../../platform/kits/i18n';
import type { OtpPurpose } from './auth.model';

const SUBJECT_VI: Record<OtpPurpose, string> = {
  REGISTER: 'Xác nhận email của bạn',
  LOGIN: 'Mã đăng nhập của bạn',
  PASSWORD_2FA: 'Mã xác minh hai bước của bạn',
  PASSWORD_RESET: 'Đặt lại mật khẩu',
  VERIFY_PHONE: 'Xác nhận số điện thoại của bạn',
};
const SUBJECT_EN: Record<OtpPurpose, string> = {
  REGISTER: 'Confirm your email',
  LOGIN: 'Your sign-in code',
  PASSWORD_2FA: 'Your two-step sign-in code',
  PASSWORD_RESET: 'Reset your password',
  VERIFY_PHONE: 'Confirm your phone number',
};

// The auth module's texts for people: code mails and texts, and the new-device notice.
export const AUTH_TEXTS = defineMessages({
  'mail.code': mail<{ purpose: OtpPurpose; code: string; minutes: number }>({
    example: { purpose: 'REGISTER', code: '123456', minutes: 10 },
    vi: (p) => ({
      subject: SUBJECT_VI[p.purpose],
      text:
        `Mã của bạn là ${p.code}. Mã hết hạn sau ${p.minutes} phút và chỉ dùng được một lần.\n\n` +
        'Nếu bạn không yêu cầu mã này, hãy bỏ qua email; không ai dùng được mã nếu không truy cập được hộp thư này.',
    }),
    en: (p) => ({
      subject: SUBJECT_EN[p.purpose],
      text:
        `Your code is ${p.code}. It expires in ${p.minutes} minutes and works once.\n\n` +
        'If you did not ask for it, ignore this message; nobody can use it without access to this mailbox.',
    }),
  }),
  'mail.alreadyRegistered': mail({
    example: {},
    vi: () => ({
      subject: 'Bạn đã có tài khoản',
      text:
        'Ai đó (có thể là bạn) vừa đăng ký bằng địa chỉ email này, vốn đã có tài khoản.\n' +
        'Hãy đăng nhập, hoặc đặt lại mật khẩu nếu bạn quên. Không có thay đổi nào với tài khoản.',
    }),
    en: () => ({
      subject: 'You already have an account',
      text:
        'Someone (maybe you) tried to register with this email address, which already has an account.\n' +
        'Sign in instead, or reset your password if you forgot it. No account was changed.',
    }),
  }),
  'sms.code': sms<{ code: string; minutes: number }>({
    example: { code: '123456', minutes: 10 },
    vi: (p) => ({ text: `Super-app: ma dang nhap cua ban la ${p.code} (hieu luc ${p.minutes} phut). Khong chia se ma nay voi bat ky ai.` }),
    en: (p) => ({ text: `Super-app: your sign-in code is ${p.code} (valid ${p.minutes} min). Never share it.` }),
  }),
  'security.device': notice<{ device: string | null; ip: string | null }>({
    example: { device: 'Pixel 8', ip: '203.0.113.7' },
    vi: (p) => ({
      title: 'Tài khoản của bạn vừa được đăng nhập',
      body: `${p.device ?? 'Một thiết bị không xác định'}${p.ip ? ` (${p.ip})` : ''} đã đăng nhập. Nếu không phải bạn, hãy đăng xuất phiên đó và đổi mật khẩu.`,
    }),
    en: (p) => ({
      title: 'New sign-in to your account',
      body: `${p.device ?? 'An unknown device'}${p.ip ? ` (${p.ip})` : ''} signed in. If it was not you, sign that session out and change your password.`,
    }),
  }),
});
