import { defineMessages, notice } from '../../platform/kits/i18n';

// The wallet module's texts for people (push and inbox). A rejection's reason is an administrator's words: as written.
export const WALLET_TEXTS = defineMessages({
  'wallet.transfer.received': notice<{ sender: string | null; amount: number }>({
    example: { sender: 'An Nguyen', amount: 40_000 },
    vi: (p, f) => ({ title: 'Bạn đã nhận được tiền', body: `${p.sender ?? 'Một người dùng'} đã chuyển cho bạn ${f.vnd(p.amount)}` }),
    en: (p, f) => ({ title: 'Money received', body: `${p.sender ?? 'Someone'} sent you ${f.vnd(p.amount)}` }),
  }),
  'wallet.withdrawal.approved': notice<{ amount: number }>({
    example: { amount: 1_500_000 },
    vi: (p, f) => ({ title: 'Yêu cầu rút tiền đã được duyệt', body: `${f.vnd(p.amount)} đang được chuyển về tài khoản ngân hàng của bạn` }),
    en: (p, f) => ({ title: 'Withdrawal approved', body: `${f.vnd(p.amount)} is on its way to your bank account` }),
  }),
  'wallet.withdrawal.rejected': notice<{ amount: number; reason: string | null }>({
    example: { amount: 1_500_000, reason: 'Bank account name does not match' },
    vi: (p, f) => ({ title: 'Yêu cầu rút tiền bị từ chối', body: `Yêu cầu rút ${f.vnd(p.amount)} của bạn đã bị từ chối${p.reason ? `: ${p.reason}` : ''}` }),
    en: (p, f) => ({ title: 'Withdrawal rejected', body: `Your withdrawal of ${f.vnd(p.amount)} was rejected${p.reason ? `: ${p.reason}` : ''}` }),
  }),
});
