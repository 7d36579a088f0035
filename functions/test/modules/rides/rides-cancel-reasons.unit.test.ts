import { RIDE_SYSTEM_REASONS, systemReason, type RideRecord } from '../../../src/modules/rides/rides.model';
import { rideNotices } from '../../../src/modules/rides/rides.triggers';

// A cancelled ride's notice says the service's own reason in the reader's language only when the service set it
// (cancelReasonCode); a person's reason is delivered as written, even word for word one of the service's.

const T = 1_800_000_000_000;
const at = { lat: 10.7769, lng: 106.7009 };
const ride = (over: Partial<RideRecord> = {}): RideRecord => ({
  id: 'R1',
  riderId: 'U1',
  driverId: 'D1',
  participants: ['U1', 'D1'],
  status: 'ARRIVED',
  rideClass: 'MOTORBIKE',
  pickup: at,
  dropoff: at,
  pickupCell: null,
  quote: { fare: 25_000, distanceM: 4_000, durationSec: 900, surgeBp: 10_000 },
  paymentMethod: 'CASH',
  holdPaymentId: null,
  paymentId: null,
  fare: null,
  drivenM: null,
  cancellationFee: 0,
  driver: null,
  etaToPickupSec: null,
  excludedDriverIds: [],
  reassignments: 0,
  note: null,
  cancelledBy: null,
  cancelReason: null,
  cancelReasonCode: null,
  rating: null,
  createdAt: T - 600_000,
  confirmedAt: T - 500_000,
  arrivedAt: T - 400_000,
  pickedUpAt: null,
  completedAt: null,
  endedAt: null,
  updatedAt: T - 400_000,
  ...over,
});
const cancelledNotice = (after: RideRecord, locale: 'vi' | 'en') => {
  const [notice] = rideNotices(ride(), after);
  expect(notice.event).toBe('ride.cancelled');
  return notice.text!.render(locale).body;
};

describe('ride cancellation reasons in notices', () => {
  it("a person's reason that copies a system reason's English text is delivered as written, not translated", () => {
    for (const cancelledBy of ['driver', 'rider', 'admin'] as const) {
      const after = ride({ status: 'CANCELLED', cancelledBy, cancelReason: RIDE_SYSTEM_REASONS.riderNoShow, cancelReasonCode: null, endedAt: T });
      expect([cancelledBy, cancelledNotice(after, 'vi'), cancelledNotice(after, 'en')]).toEqual([
        cancelledBy,
        RIDE_SYSTEM_REASONS.riderNoShow,
        RIDE_SYSTEM_REASONS.riderNoShow,
      ]);
    }
    // A legacy ride (no code stored) is a person's words too.
    const { cancelReasonCode: _omitted, ...legacy } = ride({
      status: 'CANCELLED',
      cancelledBy: 'rider',
      cancelReason: RIDE_SYSTEM_REASONS.driverLate,
      endedAt: T,
    });
    expect(cancelledNotice(legacy as RideRecord, 'vi')).toBe(RIDE_SYSTEM_REASONS.driverLate);
  });

  it("the service's own reason (its code) is said in the reader's language", () => {
    const noShow = ride({ status: 'CANCELLED', cancelledBy: 'driver', ...systemReason('riderNoShow'), endedAt: T });
    expect([cancelledNotice(noShow, 'vi'), cancelledNotice(noShow, 'en')]).toEqual(['Khách không đến điểm đón', RIDE_SYSTEM_REASONS.riderNoShow]);
    const expired = ride({ status: 'EXPIRED', cancelledBy: 'system', ...systemReason('startLate'), endedAt: T });
    expect(cancelledNotice(expired, 'vi')).toBe('Chuyến đi không bắt đầu kịp sau khi tài xế đã đến');
    expect(systemReason('driverLate')).toEqual({ cancelReason: RIDE_SYSTEM_REASONS.driverLate, cancelReasonCode: 'driverLate' });
  });
});
