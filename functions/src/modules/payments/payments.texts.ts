import { defineMessages, notice } from '../../platform/kits/i18n';

// The payments module's texts for people (push and inbox). A refund's reason is an administrator's words: as written.
export const PAYMENT_TEXTS = defineMessages({
  'wallet.topup.succeeded': notice<{ amount: number }>({
    example: { amount: 200_000 },
    vi: (p, f) => ({ title: 'Nạp tiền thành công', body: `${f.vnd(p.amount)} đã vào ví của bạn` }),
    en: (p, f) => ({ title: 'Top-up received', body: `${f.vnd(p.amount)} is in your wallet` }),
  }),
  'wallet.topup.failed': notice<{ amount: number }>({
    example: { amount: 200_000 },
    vi: (p, f) => ({ title: 'Nạp tiền không thành công', body: `Khoản nạp ${f.vnd(p.amount)} của bạn không thực hiện được` }),
    en: (p, f) => ({ title: 'Top-up failed', body: `Your top-up of ${f.vnd(p.amount)} did not go through` }),
  }),
  'payment.refunded': notice<{ amount: number; topUp: boolean; reason: string }>({
    example: { amount: 50_000, topUp: false, reason: 'Order cancelled by the shop' },
    vi: (p, f) => ({
      title: 'Hoàn tiền',
      body: p.topUp ? `${f.vnd(p.amount)} từ khoản nạp của bạn được hoàn về nguồn ban đầu` : `${f.vnd(p.amount)} đã được hoàn: ${p.reason}`,
    }),
    en: (p, f) => ({
      title: 'Refund',
      body: p.topUp ? `${f.vnd(p.amount)} of your top-up goes back to where it came from` : `${f.vnd(p.amount)} is refunded: ${p.reason}`,
    }),
  }),
});
