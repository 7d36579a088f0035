import { defineMessages, notice } from '../../platform/kits/i18n';
import { RIDE_SYSTEM_REASONS, type RideSystemReason } from './rides.model';

/** Why a ride ended, as a notice says it: the service's own reason (translated) or a person's words (as written). */
export type CancelReason = { system: RideSystemReason } | { written: string } | null;

const SYSTEM_REASON_VI: Record<RideSystemReason, string> = {
  riderNoShow: 'Khách không đến điểm đón',
  driverLate: 'Tài xế không đến trong vòng 30 phút',
  startLate: 'Chuyến đi không bắt đầu kịp sau khi tài xế đã đến',
  tripOverdue: 'Chuyến đi không kết thúc đúng hạn: đã hoàn tất theo quãng đường đã đi',
};

const reasonIn = (reason: CancelReason, system: Record<RideSystemReason, string>) =>
  reason === null ? null : 'system' in reason ? system[reason.system] : reason.written;

// The rides module's texts for people (push and inbox).
export const RIDE_TEXTS = defineMessages({
  'ride.matched': notice<{ driver: string | null; plate: string | null }>({
    example: { driver: 'Minh', plate: '51A-123.45' },
    vi: (p) => ({ title: 'Đã tìm thấy tài xế', body: `${p.driver ?? 'Tài xế của bạn'} đang đến${p.plate ? ` (${p.plate})` : ''}` }),
    en: (p) => ({ title: 'Driver found', body: `${p.driver ?? 'Your driver'} is on the way${p.plate ? ` (${p.plate})` : ''}` }),
  }),
  'ride.arrived': notice<{ driver: string | null }>({
    example: { driver: 'Minh' },
    vi: (p) => ({ title: 'Tài xế đã đến', body: `${p.driver ?? 'Tài xế của bạn'} đang chờ ở điểm đón` }),
    en: (p) => ({ title: 'Your driver is here', body: `${p.driver ?? 'Your driver'} is waiting at the pickup` }),
  }),
  'ride.pickup': notice({
    example: {},
    vi: () => ({ title: 'Chuyến đi đã bắt đầu', body: 'Chúc bạn thượng lộ bình an' }),
    en: () => ({ title: 'Trip started', body: 'Have a good trip' }),
  }),
  'ride.completed': notice<{ fare: number }>({
    example: { fare: 52_000 },
    vi: (p, f) => ({ title: 'Chuyến đi đã hoàn tất', body: `Cước phí ${f.vnd(p.fare)}` }),
    en: (p, f) => ({ title: 'Trip completed', body: `Fare ${f.vnd(p.fare)}` }),
  }),
  'ride.cancelled': notice<{ reason: CancelReason; expired: boolean }>({
    example: { reason: { system: 'driverLate' }, expired: true },
    vi: (p) => ({ title: 'Chuyến đi đã bị hủy', body: reasonIn(p.reason, SYSTEM_REASON_VI) ?? (p.expired ? 'Tài xế không đến kịp' : 'Chuyến đi đã bị hủy') }),
    en: (p) => ({
      title: 'Ride cancelled',
      body: reasonIn(p.reason, RIDE_SYSTEM_REASONS) ?? (p.expired ? 'The driver did not arrive in time' : 'The ride was cancelled'),
    }),
  }),
  'ride.noDriver': notice({
    example: {},
    vi: () => ({ title: 'Không có tài xế', body: 'Tài xế đã hủy và hiện không còn tài xế nào rảnh; vui lòng đặt lại' }),
    en: () => ({ title: 'No driver', body: 'Your driver cancelled and nobody else is free; please book again' }),
  }),
  'ride.sos': notice<{ role: 'RIDER' | 'DRIVER'; message: string | null }>({
    example: { role: 'RIDER', message: null },
    vi: (p) => ({ title: `SOS từ ${p.role === 'RIDER' ? 'khách' : 'tài xế'} của một chuyến đi`, body: p.message ?? 'Cảnh báo khẩn cấp trong một chuyến đi' }),
    en: (p) => ({ title: `SOS from the ${p.role === 'RIDER' ? 'rider' : 'driver'} of a ride`, body: p.message ?? 'Emergency alert raised in a ride' }),
  }),
});
