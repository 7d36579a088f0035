import type { AppConfig } from '../../platform/core/config';
import type { PaymentOutcome } from '../payments';
import { bookingsServiceFor } from './bookings.wiring';

/** A booking's gateway payment reached an outcome (at least once): paid, it secures the booking (or is refunded when too late). */
export const onBookingPayment = (outcome: PaymentOutcome, config: Readonly<AppConfig>) => bookingsServiceFor(config).paymentOutcome(outcome);
