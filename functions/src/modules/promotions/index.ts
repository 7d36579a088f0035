// Public face of the promotions module: vouchers for rides (the consumer's own redemption), and the commands orders and
// bookings use to take a use for a purchase they are creating and to give it back.
import type { AppConfig } from '../../platform/core/config';
import type { PromotionCommands } from './promotions.commands';

export { PROMOTION_VERTICALS, discountFor } from './promotions.model';
export type { PromotionCommands, Reservation, ReserveInput } from './promotions.commands';

let commands: PromotionCommands | undefined;

/**
 * `reserve` (one use for a purchase being created, reference `ORDER:<orderId>`; idempotent per reference), `releaseFor`
 * (gives it back: system authority, idempotent) and `preview` (what a code takes off now, nothing used). The commands
 * read no configuration; the parameter keeps the faces' one shape (`paymentCommands(config)`, `orderCommands(config)`).
 */
export function promotionCommands(_config: Readonly<AppConfig>): PromotionCommands {
  return (commands ??= (require('./promotions.commands') as typeof import('./promotions.commands')).createPromotionCommands());
}
