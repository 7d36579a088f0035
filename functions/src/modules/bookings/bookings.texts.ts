import { defineMessages, notice } from '../../platform/kits/i18n';

// What a booking's parties read at each step (push and inbox), in every vertical: `what` is the booked resource
// (a room type, a doctor, a viewing…), `where` its place (the hotel, the clinic), `when` its start.
type About = { what: string; where: string; when: number };

export const BOOKING_TEXTS = defineMessages({
  created: notice<About & { forPartner: boolean; waitsForPartner: boolean }>({
    example: { what: 'Phòng Deluxe', where: 'Khách sạn Sông Hàn', when: Date.UTC(2027, 2, 1, 7), forPartner: true, waitsForPartner: false },
    vi: (p, f) =>
      p.forPartner
        ? { title: p.waitsForPartner ? 'Yêu cầu đặt chỗ mới' : 'Đặt chỗ mới', body: `${p.what} lúc ${f.dateTime(p.when)}` }
        : {
            title: p.waitsForPartner ? 'Đã gửi yêu cầu đặt chỗ' : 'Đặt chỗ thành công',
            body: `${p.what} · ${p.where} lúc ${f.dateTime(p.when)}${p.waitsForPartner ? ': đang chờ xác nhận' : ''}`,
          },
    en: (p, f) =>
      p.forPartner
        ? { title: p.waitsForPartner ? 'New booking request' : 'New booking', body: `${p.what} at ${f.dateTime(p.when)}` }
        : {
            title: p.waitsForPartner ? 'Booking request sent' : 'Booking confirmed',
            body: `${p.what} · ${p.where} at ${f.dateTime(p.when)}${p.waitsForPartner ? ': waiting for confirmation' : ''}`,
          },
  }),
  confirmed: notice<About>({
    example: { what: 'Khám tổng quát', where: 'Phòng khám Hòa Hảo', when: Date.UTC(2027, 2, 1, 2) },
    vi: (p, f) => ({ title: 'Đặt chỗ đã được xác nhận', body: `${p.where} xác nhận ${p.what} lúc ${f.dateTime(p.when)}` }),
    en: (p, f) => ({ title: 'Booking confirmed', body: `${p.where} confirmed ${p.what} at ${f.dateTime(p.when)}` }),
  }),
  cancelled: notice<About & { refundVnd: number; feeVnd: number }>({
    example: { what: 'Phòng Deluxe', where: 'Khách sạn Sông Hàn', when: Date.UTC(2027, 2, 1, 7), refundVnd: 1_200_000, feeVnd: 1_200_000 },
    vi: (p, f) => ({
      title: 'Đặt chỗ đã bị hủy',
      body: `${p.what} · ${p.where} lúc ${f.dateTime(p.when)}${p.refundVnd > 0 ? `. Hoàn ${f.vnd(p.refundVnd)}` : ''}${p.feeVnd > 0 ? `, phí hủy ${f.vnd(p.feeVnd)}` : ''}`,
    }),
    en: (p, f) => ({
      title: 'Booking cancelled',
      body: `${p.what} · ${p.where} at ${f.dateTime(p.when)}${p.refundVnd > 0 ? `. ${f.vnd(p.refundVnd)} refunded` : ''}${p.feeVnd > 0 ? `, cancellation fee ${f.vnd(p.feeVnd)}` : ''}`,
    }),
  }),
  rejected: notice<About & { reason: string }>({
    example: { what: 'Xem phòng', where: 'Căn hộ Quận 3', when: Date.UTC(2027, 2, 1, 2), reason: 'Đã có người thuê' },
    vi: (p) => ({ title: 'Yêu cầu đặt chỗ bị từ chối', body: `${p.where}: ${p.reason}` }),
    en: (p) => ({ title: 'Booking declined', body: `${p.where}: ${p.reason}` }),
  }),
  proposed: notice<About & { proposed: number }>({
    example: { what: 'Xem phòng', where: 'Căn hộ Quận 3', when: Date.UTC(2027, 2, 1, 2), proposed: Date.UTC(2027, 2, 2, 3) },
    vi: (p, f) => ({
      title: 'Đề xuất thời gian khác',
      body: `${p.where} đề xuất ${f.dateTime(p.proposed)} thay cho ${f.dateTime(p.when)}: đồng ý trong ứng dụng`,
    }),
    en: (p, f) => ({
      title: 'Another time proposed',
      body: `${p.where} proposes ${f.dateTime(p.proposed)} instead of ${f.dateTime(p.when)}: agree in the app`,
    }),
  }),
  expired: notice<About & { forPartner: boolean }>({
    example: { what: 'Tư vấn tuyển sinh', where: 'Trường Quốc tế Sài Gòn', when: Date.UTC(2027, 2, 1, 2), forPartner: false },
    vi: (p) => ({
      title: 'Yêu cầu đặt chỗ đã hết hạn',
      body: p.forPartner ? `${p.what}: không được trả lời kịp thời` : `${p.where} chưa trả lời kịp thời. Mọi khoản đã trả được hoàn lại`,
    }),
    en: (p) => ({
      title: 'Booking request expired',
      body: p.forPartner ? `${p.what}: not answered in time` : `${p.where} did not answer in time. Anything you paid is returned`,
    }),
  }),
  checkedIn: notice<About>({
    example: { what: 'Phòng Deluxe', where: 'Khách sạn Sông Hàn', when: Date.UTC(2027, 2, 1, 7) },
    vi: (p) => ({ title: 'Đã nhận chỗ', body: `Chào mừng bạn đến ${p.where}` }),
    en: (p) => ({ title: 'Checked in', body: `Welcome to ${p.where}` }),
  }),
  started: notice<About>({
    example: { what: 'Vệ sinh máy lạnh', where: 'Dịch vụ nhà Sạch', when: Date.UTC(2027, 2, 1, 2) },
    vi: (p) => ({ title: 'Đã bắt đầu', body: `${p.what} · ${p.where}` }),
    en: (p) => ({ title: 'Started', body: `${p.what} · ${p.where}` }),
  }),
  completed: notice<About>({
    example: { what: 'Phòng Deluxe', where: 'Khách sạn Sông Hàn', when: Date.UTC(2027, 2, 1, 7) },
    vi: (p) => ({ title: 'Đã hoàn thành', body: `Cảm ơn bạn đã chọn ${p.where}. Hãy để lại đánh giá nhé` }),
    en: (p) => ({ title: 'Completed', body: `Thank you for choosing ${p.where}. Leave a review?` }),
  }),
  noShow: notice<About>({
    example: { what: 'Phòng Deluxe', where: 'Khách sạn Sông Hàn', when: Date.UTC(2027, 2, 1, 7) },
    vi: (p, f) => ({ title: 'Bạn đã vắng mặt', body: `${p.what} · ${p.where} lúc ${f.dateTime(p.when)}` }),
    en: (p, f) => ({ title: 'Marked as a no-show', body: `${p.what} · ${p.where} at ${f.dateTime(p.when)}` }),
  }),
  reminder: notice<About & { hours: number }>({
    example: { what: 'Phòng Deluxe', where: 'Khách sạn Sông Hàn', when: Date.UTC(2027, 2, 1, 7), hours: 24 },
    vi: (p, f) => ({ title: p.hours >= 24 ? 'Ngày mai' : 'Sắp đến giờ', body: `${p.what} · ${p.where} lúc ${f.dateTime(p.when)}` }),
    en: (p, f) => ({ title: p.hours >= 24 ? 'Tomorrow' : 'Coming up soon', body: `${p.what} · ${p.where} at ${f.dateTime(p.when)}` }),
  }),
});
