import { defineSwitches, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The wallet module's switches: the daily limit for sending money and the second approval of staff money (payments'
// refunds read it too).
export const walletSwitches = defineSwitches({
  WALLET_DAILY_TRANSFER_LIMIT_VND: {
    schema: positiveInt(20_000_000, 1_000_000_000, 1_000),
    effect: 'what one user may send to others per day (Vietnam time): P2P transfers and tips together',
  },
  WALLET_ADJUSTMENT_APPROVAL_VND: {
    schema: positiveInt(5_000_000, 50_000_000, 0),
    effect:
      "admin wallet adjustments and staff refunds above this, or once the requesting administrator's (or one user's) staff money of the Vietnam day would pass it, wait PENDING until a second administrator (`payments.manage`, not the requester) approves them; 0: every one does",
  },
  DRIVER_CASH_DEBT_LIMIT_VND: {
    schema: positiveInt(2_000_000, 50_000_000, 0),
    effect:
      "how far below zero a driver's earnings may go through cash jobs (cash on delivery collected for a sender, cash orders): a driver whose earnings would pass it is offered no cash job until they settle; 0: cash jobs only for drivers in credit",
  },
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof walletSwitches> {}
}
