import { defineMessages, notice } from '../../platform/kits/i18n';

// The delivery module's texts for people (push and inbox).
export const DELIVERY_TEXTS = defineMessages({
  'delivery.assigned': notice<{ driver: string }>({
    example: { driver: 'Minh' },
    vi: (p) => ({ title: 'Đã có tài xế nhận giao hàng', body: `${p.driver} đang đến lấy hàng` }),
    en: (p) => ({ title: 'A driver took your parcel', body: `${p.driver} is on the way to pick it up` }),
  }),
  'delivery.job': notice<{ address: string }>({
    example: { address: '12 Nguyễn Huệ, Quận 1' },
    vi: (p) => ({ title: 'Bạn có đơn giao hàng mới', body: `Lấy hàng tại ${p.address}` }),
    en: (p) => ({ title: 'New parcel to deliver', body: `Pick it up at ${p.address}` }),
  }),
  'delivery.picked_up': notice({
    example: {},
    vi: () => ({ title: 'Tài xế đã lấy hàng', body: 'Đơn hàng đang trên đường giao' }),
    en: () => ({ title: 'Parcel picked up', body: 'Your parcel is on its way' }),
  }),
  'delivery.delivered': notice<{ fee: number }>({
    example: { fee: 25_000 },
    vi: (p, f) => ({ title: 'Đã giao hàng thành công', body: `Phí giao hàng ${f.vnd(p.fee)}` }),
    en: (p, f) => ({ title: 'Parcel delivered', body: `Delivery fee ${f.vnd(p.fee)}` }),
  }),
  'delivery.cancelled': notice<{ reason: string | null }>({
    example: { reason: null },
    vi: (p) => ({ title: 'Đơn giao hàng đã bị hủy', body: p.reason ?? 'Đơn giao hàng đã bị hủy' }),
    en: (p) => ({ title: 'Delivery cancelled', body: p.reason ?? 'The delivery was cancelled' }),
  }),
  'delivery.no_driver': notice({
    example: {},
    vi: () => ({ title: 'Không tìm được tài xế', body: 'Chưa có tài xế nhận đơn; tiền giữ đã được hoàn lại, vui lòng đặt lại' }),
    en: () => ({ title: 'No driver found', body: 'Nobody took your parcel; anything held was given back, please try again' }),
  }),
});
