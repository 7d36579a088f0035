// Generated from the module list (src/modules/index.ts): do not edit. The modules' switch fragments (their definitions'
// `config`), which the functions entry installs before it validates the configuration, without loading the definitions.
// After a module adds or drops its `config`: UPDATE_MODULE_LISTS=1 npm run test:unit -- module-definitions (the test checks this file).
import type { ModuleSwitches } from './platform/core/config/module-switches';
import { healthSwitches } from './modules/health/health.config';
import { authSwitches } from './modules/auth/auth.config';
import { kycSwitches } from './modules/kyc/kyc.config';
import { driverSwitches } from './modules/driver/driver.config';
import { ridesSwitches } from './modules/rides/rides.config';
import { mediaSwitches } from './modules/media/media.config';
import { notificationsSwitches } from './modules/notifications/notifications.config';
import { chatSwitches } from './modules/chat/chat.config';
import { routingSwitches } from './modules/routing/routing.config';
import { walletSwitches } from './modules/wallet/wallet.config';
import { paymentsSwitches } from './modules/payments/payments.config';
import { ordersSwitches } from './modules/orders/orders.config';
import { cartSwitches } from './modules/cart/cart.config';
import { deliverySwitches } from './modules/delivery/delivery.config';
import { bookingsSwitches } from './modules/bookings/bookings.config';
import { socialSwitches } from './modules/social/social.config';
import { supportSwitches } from './modules/support/support.config';
import { assistantSwitches } from './modules/assistant/assistant.config';

export const MODULE_SWITCHES: readonly ModuleSwitches[] = [
  { module: 'health', switches: healthSwitches },
  { module: 'auth', switches: authSwitches },
  { module: 'kyc', switches: kycSwitches },
  { module: 'driver', switches: driverSwitches },
  { module: 'rides', switches: ridesSwitches },
  { module: 'media', switches: mediaSwitches },
  { module: 'notifications', switches: notificationsSwitches },
  { module: 'chat', switches: chatSwitches },
  { module: 'routing', switches: routingSwitches },
  { module: 'wallet', switches: walletSwitches },
  { module: 'payments', switches: paymentsSwitches },
  { module: 'orders', switches: ordersSwitches },
  { module: 'cart', switches: cartSwitches },
  { module: 'delivery', switches: deliverySwitches },
  { module: 'bookings', switches: bookingsSwitches },
  { module: 'social', switches: socialSwitches },
  { module: 'support', switches: supportSwitches },
  { module: 'assistant', switches: assistantSwitches },
];
