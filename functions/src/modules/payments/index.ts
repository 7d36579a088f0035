// Public face of the payments module: the one way other modules take money. Rides, orders and bookings charge,
// hold, capture, release and refund through these commands; the ledger moves happen here, in one transaction each.
import type { Transaction } from 'firebase-admin/firestore';
import type { AppConfig } from '../../platform/core/config';
import { ownRecord, type OwnRecords } from '../../platform/core/module/own-records';
import type { TriggerDefinition } from '../../platform/core/module/module';
import type { Vnd } from '../../platform/kits/money/money';
import { PAYMENTS } from './payments.collections';
import type { ChargeInput, PaymentsService, TipInput } from './payments.service';
import type { PaymentOutcomeHandler } from './payments.subscriptions';

export { PAYMENT_METHODS, PAYMENT_PURPOSES, PAYMENT_STATUSES, type PaymentMethod, type PaymentPurpose, type PaymentStatus } from './payments.collections';
export type { PaymentView } from './payments.model';
export type { ChargeInput, TipInput } from './payments.service';
export type { PaymentOutcome, PaymentOutcomeHandler, PaymentOutcomeStatus } from './payments.subscriptions';

/**
 * A trigger for the subscriber's module definition (`triggers: { x: paymentOutcomeTrigger('ORDER', load) }`): the
 * handler `load` returns hears each of its payments (`ref.type` = `refType`) that reaches SUCCEEDED, FAILED,
 * CANCELLED or EXPIRED, at least once (idempotent handlers), never the payment document itself.
 */
export function paymentOutcomeTrigger(refType: string, load: () => PaymentOutcomeHandler): TriggerDefinition {
  return {
    document: `${PAYMENTS}/{paymentId}`,
    on: 'written',
    load: () => (require('./payments.subscriptions') as typeof import('./payments.subscriptions')).outcomeTrigger(refType, load()),
  };
}

const service = (config: Readonly<AppConfig>): PaymentsService =>
  (require('./payments.wiring') as typeof import('./payments.wiring')).paymentsServiceFor(config);

export function paymentCommands(config: Readonly<AppConfig>) {
  return {
    /** WALLET (at once, 409 WALLET_INSUFFICIENT_FUNDS; `countsTowardDailyLimit`: within the payer's daily sending limit, 409 WALLET_DAILY_LIMIT), CASH (recorded; commission owed from earnings) or GATEWAY (PENDING + paymentUrl). */
    charge: (input: ChargeInput) => service(config).charge(input),
    /** A tip to the payee of an ended ride or order: TIP_WINDOW_SEC, TIP_MAX_COUNT and the payer's daily limit apply (409 TIP_WINDOW, TIP_LIMIT, WALLET_DAILY_LIMIT). */
    tip: (input: TipInput) => service(config).tip(input),
    /** Sets money aside in the payer's wallet (AUTHORIZED). */
    hold: (input: Omit<ChargeInput, 'method' | 'provider' | 'clientIp'>) => service(config).hold(input),
    /**
     * `hold` in the caller's transaction, in two halves: reads (the payment the key made already, the wallet) and refuses
     * (409 WALLET_INSUFFICIENT_FUNDS, nothing written); `write()` writes the hold after every read of the transaction.
     * The same key makes the same payment as `hold`.
     */
    txHold: (tx: Transaction, input: Omit<ChargeInput, 'method' | 'provider' | 'clientIp'>) => service(config).txHold(tx, input),
    /**
     * A WALLET `charge` in the caller's transaction, in the same two halves as `txHold` (reads and 409
     * WALLET_INSUFFICIENT_FUNDS first, `write()` after every read). The same key makes the same payment as `charge`.
     */
    txCharge: (tx: Transaction, input: Omit<ChargeInput, 'method' | 'provider' | 'clientIp' | 'countsTowardDailyLimit'>) => service(config).txCharge(tx, input),
    /** Takes up to the held amount for the payee and platform; the rest goes back to the wallet. */
    capture: (paymentId: string, input: { amount?: Vnd; payeeId?: string | null; feeBp?: number } = {}) => service(config).capture(paymentId, input),
    /** Gives the held money back (CANCELLED). */
    release: (paymentId: string, reason: string) => service(config).release(paymentId, reason),
    /** Refunds for the service that sold (a cancelled order): `system` authority, idempotent per key. */
    refund: (paymentId: string, input: { amount?: Vnd; reason: string; by: string; idempotencyKey: string }) =>
      service(config).refund({ userId: input.by, staff: false, system: true }, { paymentId, amount: input.amount, reason: input.reason }, input.idempotencyKey),
    get: (paymentId: string) => service(config).get({ userId: 'system', staff: true }, paymentId),
  };
}

export type PayerPaymentView = Awaited<ReturnType<PaymentsService['get']>>;

/** The user's own payments as their app reads them (GET /payments, GET /payments/{id}); another's reads as absent. */
export function paymentsOfPayer(config: Readonly<AppConfig>): OwnRecords<PayerPaymentView> {
  return {
    recent: async (userId, limit) => (await service(config).list({ payerId: userId }, { limit }, userId, 'payer')).items as PayerPaymentView[],
    get: (userId, id) => ownRecord(id, () => service(config).get({ userId, staff: false }, id)),
  };
}
