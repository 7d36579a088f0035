// Public face of the promotions module (rides, orders and bookings will redeem through a command added here).
export { PROMOTION_VERTICALS, discountFor } from './promotions.model';
