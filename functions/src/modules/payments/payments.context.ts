import { NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import type { DeadlineScheduler } from '../../platform/kits/deadlines/deadlines';
import { stableId } from '../../platform/kits/ids/stable-id';
import { transition, type Tolerance } from '../../platform/kits/state-machine/state-machine';
import { ledger, mapFunds, type Leg, type Provider } from '../wallet';
import type { Gateway } from './gateways/gateway';
import { paymentMachine, type PaymentAction, type PaymentActor, type PaymentRecord } from './payments.model';
import { paymentsRepo } from './payments.repo';

// What the parts of the payments service share (checkout, notices, expiry, refunds, queries): the dependencies, the
// clock, the gateway lookup and the one runner of a payment's moves.

export interface PaymentsServiceDeps {
  /** The gateways this configuration can use (MOCK only in mock mode). */
  gateways: Partial<Record<Provider, Gateway>>;
  mockKey: Buffer;
  expirySec: number;
  refundWindowDays: number;
  /** WALLET_DAILY_TRANSFER_LIMIT_VND: what a user may send to others per day (P2P transfers and tips). */
  dailyTransferLimit: number;
  /** Tips: at most this many per ride or order (TIP_MAX_COUNT), within this long after it ended (TIP_WINDOW_SEC). */
  tipMaxCount: number;
  tipWindowSec: number;
  /** WALLET_ADJUSTMENT_APPROVAL_VND: staff refunds above it (alone or with the day's staff money) wait for a second administrator. */
  staffApprovalVnd: number;
  /** The payment expiry tasks (PAYMENT_DEADLINE's scheduler; a fake in tests). */
  scheduler: DeadlineScheduler;
  now?: () => number;
}

/** Payment ids double as gateway order references: letters and digits only (VNPay and MoMo accept those). */
export function paymentIdFor(scope: string, callerId: string, key: string): string {
  return stableId({ scope, caller: callerId, key, prefix: 'P', encoding: 'hex' });
}

export function newRecord(
  id: string,
  at: number,
  fields: Pick<PaymentRecord, 'payerId' | 'amount' | 'purpose' | 'ref' | 'description' | 'method' | 'provider' | 'status'> & Partial<PaymentRecord>,
): PaymentRecord {
  return {
    id,
    currency: 'VND',
    payeeId: null,
    feeBp: 0,
    heldAmount: 0,
    capturedAmount: 0,
    refundedAmount: 0,
    refunds: [],
    paymentUrl: null,
    gateway: null,
    failureReason: null,
    expiresAt: null,
    succeededAt: null,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

export interface MoveOptions {
  /** The ledger legs of the move, from the payment before it (posted in the move's transaction). */
  legs?: (p: PaymentRecord) => Leg[];
  reason?: string | null;
  tolerant?: Tolerance;
}

export function createPaymentsContext(deps: PaymentsServiceDeps) {
  const now = deps.now ?? Date.now;

  function gatewayOf(provider: Provider): Gateway {
    const gateway = deps.gateways[provider];
    if (!gateway)
      throw new UnprocessableError(`${provider} is not available here`, [
        { field: 'body.provider', message: `${provider} is not configured${provider === 'MOCK' ? ' (PAYMENTS_MOCK is off)' : ''}` },
      ]).withCode('PAYMENT_PROVIDER_UNAVAILABLE');
    return gateway;
  }

  /** One move of a payment on its machine, with its ledger legs, in one transaction. */
  function move(
    id: string,
    action: PaymentAction,
    actor: { by: string; roles: readonly PaymentActor[] },
    apply: (p: PaymentRecord, to: PaymentRecord['status']) => PaymentRecord,
    options: MoveOptions = {},
  ) {
    const at = now();
    return mapFunds(() =>
      transition(
        paymentMachine,
        {
          load: (tx) => paymentsRepo.get(id, tx),
          ref: () => paymentsRepo.ref(id),
          alongside: async (tx, next, previous, event) => {
            const planned = options.legs?.(previous) ?? [];
            if (planned.length > 0)
              await ledger.post(tx, planned, {
                operationId: `${id}-${event.action}-${next.refunds.length}`,
                by: actor.by,
                now: at,
                paymentId: id,
                ref: next.ref,
              });
          },
          save: (tx, next) => paymentsRepo.save(tx, next),
        },
        {
          action,
          by: actor.by,
          now: at,
          reason: options.reason ?? null,
          rolesOf: () => actor.roles,
          apply: (p, to) => ({ ...apply(p, to), status: to, updatedAt: at }),
          missing: () => new NotFoundError('No such payment'),
          tolerant: options.tolerant,
        },
      ),
    );
  }

  return { deps, now, gatewayOf, move };
}

export type PaymentsContext = ReturnType<typeof createPaymentsContext>;
