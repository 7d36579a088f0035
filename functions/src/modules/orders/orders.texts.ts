import { defineMessages, notice } from '../../platform/kits/i18n';
import type { OrderSystemReason } from './orders.model';

/** Why an order was called off, as a notice says it: the service's own reason (translated) or a person's words. */
export type OrderEndReason = { system: OrderSystemReason } | { written: string } | null;

const SYSTEM_VI: Record<OrderSystemReason, string> = {
  CONFIRM_TIMEOUT: 'Cửa hàng không xác nhận đơn kịp thời; tiền đã được hoàn',
  PAYMENT_FAILED: 'Thanh toán không thành công hoặc đã hết hạn',
};
const SYSTEM_EN: Record<OrderSystemReason, string> = {
  CONFIRM_TIMEOUT: 'The store did not confirm in time; your money is returned',
  PAYMENT_FAILED: 'The payment failed or expired',
};
const reasonIn = (reason: OrderEndReason, system: Record<OrderSystemReason, string>) =>
  reason === null ? null : 'system' in reason ? system[reason.system] : reason.written;

// The orders module's texts for people (push and inbox).
export const ORDER_TEXTS = defineMessages({
  'order.created': notice<{ store: string; total: number; forStore: boolean }>({
    example: { store: 'Phở Hòa', total: 125_000, forStore: true },
    vi: (p, f) =>
      p.forStore
        ? { title: 'Đơn hàng mới', body: `Đơn ${f.vnd(p.total)} đang chờ xác nhận` }
        : { title: 'Đã đặt đơn', body: `${p.store} đang xem đơn của bạn` },
    en: (p, f) =>
      p.forStore
        ? { title: 'New order', body: `An order of ${f.vnd(p.total)} waits for you to confirm` }
        : { title: 'Order placed', body: `${p.store} is looking at your order` },
  }),
  'order.confirmed': notice<{ store: string }>({
    example: { store: 'Phở Hòa' },
    vi: (p) => ({ title: 'Đơn hàng đã được xác nhận', body: `${p.store} đã nhận đơn của bạn` }),
    en: (p) => ({ title: 'Order confirmed', body: `${p.store} accepted your order` }),
  }),
  'order.rejected': notice<{ store: string; reason: string }>({
    example: { store: 'Phở Hòa', reason: 'Hết nguyên liệu' },
    vi: (p) => ({ title: 'Cửa hàng từ chối đơn', body: `${p.store}: ${p.reason}. Tiền đã được hoàn` }),
    en: (p) => ({ title: 'Order declined', body: `${p.store}: ${p.reason}. Your money is returned` }),
  }),
  'order.preparing': notice<{ store: string }>({
    example: { store: 'Phở Hòa' },
    vi: (p) => ({ title: 'Đang chuẩn bị', body: `${p.store} đang chuẩn bị đơn của bạn` }),
    en: (p) => ({ title: 'Being prepared', body: `${p.store} is preparing your order` }),
  }),
  'order.assigned': notice<{ courier: string; store: string; forCourier: boolean }>({
    example: { courier: 'Minh', store: 'Phở Hòa', forCourier: false },
    vi: (p) =>
      p.forCourier ? { title: 'Đơn giao mới', body: `Lấy hàng tại ${p.store}` } : { title: 'Đã có tài xế', body: `${p.courier} sẽ giao đơn của bạn` },
    en: (p) =>
      p.forCourier ? { title: 'New delivery', body: `Pick up at ${p.store}` } : { title: 'Courier assigned', body: `${p.courier} will bring your order` },
  }),
  'order.pickedUp': notice<{ courier: string }>({
    example: { courier: 'Minh' },
    vi: (p) => ({ title: 'Đang giao hàng', body: `${p.courier} đã lấy hàng và đang trên đường đến` }),
    en: (p) => ({ title: 'On the way', body: `${p.courier} picked up your order and is on the way` }),
  }),
  'order.delivered': notice<{ total: number }>({
    example: { total: 125_000 },
    vi: (p, f) => ({ title: 'Đã giao hàng', body: `Đơn ${f.vnd(p.total)} đã được giao. Chúc ngon miệng!` }),
    en: (p, f) => ({ title: 'Delivered', body: `Your order of ${f.vnd(p.total)} was delivered. Enjoy!` }),
  }),
  'order.cancelled': notice<{ reason: OrderEndReason; by: 'CONSUMER' | 'STORE' | 'ADMIN' | 'SYSTEM' }>({
    example: { reason: { system: 'CONFIRM_TIMEOUT' }, by: 'SYSTEM' },
    vi: (p) => ({ title: 'Đơn hàng đã bị hủy', body: reasonIn(p.reason, SYSTEM_VI) ?? (p.by === 'CONSUMER' ? 'Khách hàng đã hủy đơn' : 'Đơn hàng đã bị hủy') }),
    en: (p) => ({
      title: 'Order cancelled',
      body: reasonIn(p.reason, SYSTEM_EN) ?? (p.by === 'CONSUMER' ? 'The customer cancelled the order' : 'The order was cancelled'),
    }),
  }),
  'order.unassigned': notice<{ store: string }>({
    example: { store: 'Phở Hòa' },
    vi: (p) => ({ title: 'Đơn giao đã hủy', body: `Đơn tại ${p.store} đã bị hủy: không cần lấy hàng` }),
    en: (p) => ({ title: 'Delivery cancelled', body: `The order at ${p.store} was cancelled: no pickup needed` }),
  }),
});
