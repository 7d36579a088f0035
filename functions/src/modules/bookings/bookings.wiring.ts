import { perConfig, type AppConfig } from '../../platform/core/config';
import { paymentCommands } from '../payments';
import { bookingSettings } from './bookings.config';
import { createBookingsService } from './bookings.service';

// The bookings service of one configuration: the engine with the configuration's windows, payments' commands.
export const bookingsServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createBookingsService({ settings: bookingSettings(config), payments: paymentCommands(config) }),
);
