import { defineMessages, mail } from '../../platform/kits/i18n';

// The driver module's texts for people: the opening of the registration mail (the code mail follows it).
export const DRIVER_TEXTS = defineMessages({
  'mail.signup': mail({
    example: {},
    vi: () => ({
      subject: 'Hoàn tất đăng ký tài xế',
      text: 'Ai đó (có thể là bạn) vừa đăng ký email này làm tài xế. Hãy đăng nhập ứng dụng tài xế bằng mã dưới đây để mở hồ sơ đăng ký.',
    }),
    en: () => ({
      subject: 'Finish your driver registration',
      text: 'Someone (maybe you) registered this email as a driver. Sign in to the driver app with this code to open the application.',
    }),
  }),
});
