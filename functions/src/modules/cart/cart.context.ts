import type { CartSettings } from './cart.config';
import type { CartPorts } from './cart.ports';
import type { DeadlineScheduler } from '../../platform/kits/deadlines/deadlines';

/** What the cart's services are built from: the neighbours' ports, the settings, the checkout check's scheduler, a clock. */
export interface CartDeps extends CartPorts {
  settings: CartSettings;
  /** Schedules the checkout check (the deadline's queue; a fake in tests). */
  scheduler: DeadlineScheduler;
  now?: () => number;
}

export interface CartContext extends CartDeps {
  now: () => number;
}

export const cartContext = (deps: CartDeps): CartContext => ({ ...deps, now: deps.now ?? Date.now });
