import { defineModule, defineTask } from '../../platform/core/module/module';
import { CART_CHECKOUT_CHECK_QUEUE, CART_CHECKOUTS, CARTS } from './cart.collections';
import { CART_ERROR_CODES } from './cart.errors';
import { cartSwitches } from './cart.config';

// The consumer's carts (one per store) and checkout: lines priced by the store on every read, the order placed with
// its stock, voucher and payment in one all-or-nothing outcome (issue 32).
export const cartModule = defineModule({
  name: 'cart',
  uses: ['addresses', 'media', 'merchants', 'orders', 'payments', 'promotions'],
  apiTags: { cart: 'Consumer shopping carts (one per store) and checkout into an order.' },
  errorCodes: CART_ERROR_CODES,
  config: cartSwitches,
  routes: (ctx) => (require('./cart.routes') as typeof import('./cart.routes')).cartRoutes(ctx),
  tasks: {
    cartCheckoutCheck: defineTask({
      queue: CART_CHECKOUT_CHECK_QUEUE,
      options: {
        retryConfig: { maxAttempts: 20, minBackoffSeconds: 60, maxBackoffSeconds: 900 },
        rateLimits: { maxConcurrentDispatches: 50 },
        timeoutSeconds: 60,
        memory: '256MiB',
      },
      load: () => (require('./cart.tasks') as typeof import('./cart.tasks')).onCartCheckoutCheck,
    }),
  },
  collections: [
    { name: CARTS, ttlField: 'expireAt' },
    { name: CART_CHECKOUTS, ttlField: 'expireAt' },
  ],
});
