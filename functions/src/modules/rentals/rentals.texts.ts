import { defineMessages, notice } from '../../platform/kits/i18n';

// What a deposit's tenant and landlord read at each step (push and inbox).
type About = { listing: string; amount: number; forLandlord: boolean };

export const RENTAL_TEXTS = defineMessages({
  'deposit.held': notice<About>({
    example: { listing: 'Căn hộ 2 phòng ngủ Quận 3', amount: 24_000_000, forLandlord: true },
    vi: (p, f) =>
      p.forLandlord
        ? { title: 'Có tiền đặt cọc mới', body: `${f.vnd(p.amount)} cho ${p.listing}: được giữ đến khi ký hợp đồng` }
        : { title: 'Đã đặt cọc', body: `${f.vnd(p.amount)} cho ${p.listing} được giữ trong ví đến khi ký hợp đồng` },
    en: (p, f) =>
      p.forLandlord
        ? { title: 'New deposit', body: `${f.vnd(p.amount)} for ${p.listing}: held until the lease is signed` }
        : { title: 'Deposit paid', body: `${f.vnd(p.amount)} for ${p.listing} is held in your wallet until the lease is signed` },
  }),
  'deposit.released': notice<About>({
    example: { listing: 'Căn hộ 2 phòng ngủ Quận 3', amount: 24_000_000, forLandlord: true },
    vi: (p, f) => ({ title: 'Tiền cọc đã chuyển', body: `${f.vnd(p.amount)} cho ${p.listing} đã chuyển cho chủ nhà` }),
    en: (p, f) => ({ title: 'Deposit released', body: `${f.vnd(p.amount)} for ${p.listing} went to the landlord` }),
  }),
  'deposit.refunded': notice<About>({
    example: { listing: 'Căn hộ 2 phòng ngủ Quận 3', amount: 24_000_000, forLandlord: false },
    vi: (p, f) => ({ title: 'Tiền cọc đã hoàn', body: `${f.vnd(p.amount)} cho ${p.listing} đã về ví${p.forLandlord ? ' của khách' : ''}` }),
    en: (p, f) => ({ title: 'Deposit refunded', body: `${f.vnd(p.amount)} for ${p.listing} is back in the ${p.forLandlord ? 'tenant’s ' : ''}wallet` }),
  }),
  'deposit.forfeited': notice<About>({
    example: { listing: 'Căn hộ 2 phòng ngủ Quận 3', amount: 24_000_000, forLandlord: false },
    vi: (p, f) => ({ title: 'Mất tiền cọc', body: `${f.vnd(p.amount)} cho ${p.listing} thuộc về chủ nhà (rút sau thời hạn miễn phí)` }),
    en: (p, f) => ({ title: 'Deposit forfeited', body: `${f.vnd(p.amount)} for ${p.listing} goes to the landlord (withdrawn after the free window)` }),
  }),
});
