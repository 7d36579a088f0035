import { defineMessages, notice } from '../../platform/kits/i18n';

// What parents and drivers read of school trips (push and inbox).
type Trip = { child: string; school: string; leg: 'TO_SCHOOL' | 'FROM_SCHOOL' };
type Plan = { child: string; school: string };
const EXAMPLE = { child: 'Bé Na', school: 'Trường Tiểu học Ánh Dương', leg: 'TO_SCHOOL' as const };
const PLAN = { child: 'Bé Na', school: 'Trường Tiểu học Ánh Dương' };

export const SCHOOL_TEXTS = defineMessages({
  offered: notice<Plan>({
    example: PLAN,
    vi: (p) => ({ title: 'Có lịch đưa đón học sinh gần bạn', body: `${p.child} – ${p.school}: nhận cả học kỳ` }),
    en: (p) => ({ title: 'A school run near you', body: `${p.child} – ${p.school}: take it for the term` }),
  }),
  matched: notice<Plan>({
    example: PLAN,
    vi: (p) => ({ title: 'Đã có tài xế đưa đón', body: `Tài xế nhận đưa đón ${p.child} đến ${p.school} cả học kỳ` }),
    en: (p) => ({ title: 'A driver took the school run', body: `A driver takes ${p.child} to ${p.school} for the term` }),
  }),
  driverLeft: notice<Plan>({
    example: PLAN,
    vi: (p) => ({ title: 'Tài xế đã ngừng đưa đón', body: `Đang tìm tài xế mới cho ${p.child}` }),
    en: (p) => ({ title: 'The driver left the school run', body: `Looking for a new driver for ${p.child}` }),
  }),
  planCancelled: notice<Plan>({
    example: PLAN,
    vi: (p) => ({ title: 'Lịch đưa đón đã huỷ', body: `Phụ huynh đã huỷ đưa đón ${p.child} (${p.school})` }),
    en: (p) => ({ title: 'School run cancelled', body: `The parent cancelled ${p.child}’s school run (${p.school})` }),
  }),
  started: notice<Trip>({
    example: EXAMPLE,
    vi: (p) => ({ title: 'Tài xế đang đến', body: p.leg === 'TO_SCHOOL' ? `Đến đón ${p.child} ở nhà` : `Đến đón ${p.child} ở ${p.school}` }),
    en: (p) => ({ title: 'The driver is on the way', body: p.leg === 'TO_SCHOOL' ? `Coming for ${p.child} at home` : `Coming for ${p.child} at ${p.school}` }),
  }),
  pickedUp: notice<Trip>({
    example: EXAMPLE,
    vi: (p) => ({ title: `${p.child} đã lên xe`, body: p.leg === 'TO_SCHOOL' ? `Đang đến ${p.school}` : 'Đang về nhà' }),
    en: (p) => ({ title: `${p.child} is in the car`, body: p.leg === 'TO_SCHOOL' ? `On the way to ${p.school}` : 'On the way home' }),
  }),
  droppedOff: notice<Trip>({
    example: EXAMPLE,
    vi: (p) => ({ title: p.leg === 'TO_SCHOOL' ? `${p.child} đã đến trường` : `${p.child} đã về nhà`, body: p.school }),
    en: (p) => ({ title: p.leg === 'TO_SCHOOL' ? `${p.child} arrived at school` : `${p.child} is home`, body: p.school }),
  }),
  skipped: notice<Trip>({
    example: EXAMPLE,
    vi: (p) => ({ title: 'Nghỉ một chuyến', body: `${p.child} không đi chuyến ${p.leg === 'TO_SCHOOL' ? 'sáng' : 'chiều'}` }),
    en: (p) => ({ title: 'A trip skipped', body: `${p.child} skips the ${p.leg === 'TO_SCHOOL' ? 'morning' : 'afternoon'} trip` }),
  }),
  cancelled: notice<Trip>({
    example: EXAMPLE,
    vi: (p) => ({ title: 'Chuyến đưa đón bị huỷ', body: `Chuyến ${p.leg === 'TO_SCHOOL' ? 'sáng' : 'chiều'} của ${p.child} đã huỷ` }),
    en: (p) => ({ title: 'School trip cancelled', body: `${p.child}’s ${p.leg === 'TO_SCHOOL' ? 'morning' : 'afternoon'} trip was cancelled` }),
  }),
  missed: notice<Trip>({
    example: EXAMPLE,
    vi: (p) => ({ title: 'Chuyến đưa đón bị lỡ', body: `Tài xế không đến đón ${p.child} (chuyến ${p.leg === 'TO_SCHOOL' ? 'sáng' : 'chiều'})` }),
    en: (p) => ({ title: 'School trip missed', body: `The driver did not come for ${p.child} (${p.leg === 'TO_SCHOOL' ? 'morning' : 'afternoon'} trip)` }),
  }),
  notClosed: notice<Trip>({
    example: EXAMPLE,
    vi: (p) => ({ title: 'Chuyến đưa đón đã đóng', body: `Chuyến ${p.leg === 'TO_SCHOOL' ? 'sáng' : 'chiều'} của ${p.child} chưa được báo đã đến nơi` }),
    en: (p) => ({ title: 'School trip closed', body: `${p.child}’s ${p.leg === 'TO_SCHOOL' ? 'morning' : 'afternoon'} trip was never marked arrived` }),
  }),
});
