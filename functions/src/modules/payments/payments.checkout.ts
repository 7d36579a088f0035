import type { Transaction } from 'firebase-admin/firestore';
import { BadRequestError, ConflictError, ServiceUnavailableError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { logger } from '../../platform/core/logging/logger';
import { percentOf, vnd, type Vnd } from '../../platform/kits/money/money';
import { iso } from '../../platform/kits/time/time';
import { countTowardDailyLimit, ledger, mapFunds, SYSTEM_ACCOUNTS, systemAccount, userAccount, type Leg, type Provider } from '../wallet';
import { gatewayText, type GatewayNotice } from './gateways/gateway';
import { signMockNotice } from './gateways/mock';
import { newRecord, paymentIdFor, type PaymentsContext } from './payments.context';
import { payoutLegs } from './payments.legs';
import { PAYMENT_DEADLINE, paymentView, type PaymentMethod, type PaymentPurpose, type PaymentRecord } from './payments.model';
import type { createNotices } from './payments.notices';
import { paymentsRepo } from './payments.repo';

// Taking money: top-ups and gateway charges (PENDING until the gateway's notice, with an expiry deadline), wallet and
// cash charges, tips, and holds with their capture or release. Each creation is idempotent by its derived id.

export interface ChargeInput {
  payerId: string;
  amount: Vnd;
  purpose: Exclude<PaymentPurpose, 'TOPUP'>;
  ref: { type: string; id: string };
  method: PaymentMethod;
  /** GATEWAY only: which gateway. */
  provider?: Provider;
  /** Who receives the money (earnings); absent: the platform. */
  payeeId?: string | null;
  /** The platform's commission from the payee's share, in basis points. */
  feeBp?: number;
  description: string;
  /** Makes the charge idempotent: the same key (per payer and scope) returns the first payment. */
  idempotencyKey: string;
  clientIp?: string;
  /** WALLET only: counts toward the payer's daily limit for sending money to others, in the charge's transaction. */
  countsTowardDailyLimit?: boolean;
}

/** A tip to the payee of a ride or order that has ended: all of it to the payee, within the tip rules. */
export interface TipInput {
  payerId: string;
  payeeId: string;
  amount: Vnd;
  purpose: Exclude<PaymentPurpose, 'TOPUP'>;
  ref: { type: string; id: string };
  /** When the ride or order ended: tips are taken within TIP_WINDOW_SEC of it. */
  endedAt: number;
  description: string;
  idempotencyKey: string;
}

/** A read made in a charge's transaction before the ledger posts; the write it returns runs after them. */
type ChargeGuard = (tx: Transaction, at: number) => Promise<() => void>;

export function createCheckout(ctx: PaymentsContext, notices: Pick<ReturnType<typeof createNotices>, 'handleMockNotice'>) {
  const { deps, now, gatewayOf, move } = ctx;
  const { handleMockNotice } = notices;

  /** Opens a gateway payment: the record first (PENDING), then the gateway's payment address, then the expiry timer. */
  async function openGatewayPayment(record: PaymentRecord, clientIp: string): Promise<PaymentRecord> {
    const gateway = gatewayOf(record.provider!);
    const created = await inTransaction(async (tx) => {
      const existing = await paymentsRepo.get(record.id, tx);
      if (existing) return { record: existing, fresh: false };
      paymentsRepo.create(tx, record);
      return { record, fresh: true };
    });
    let current = created.record;
    if (current.status === 'PENDING' && current.paymentUrl === null) {
      try {
        const { paymentUrl } = await gateway.createPayment({
          paymentId: current.id,
          amount: current.amount,
          description: gatewayText(current.description),
          clientIp,
          createdAt: current.createdAt,
          expiresAt: current.expiresAt!,
        });
        await paymentsRepo.setPaymentUrl(current.id, paymentUrl, now());
        current = { ...current, paymentUrl };
      } catch (err) {
        logger.warn('gateway create failed', { paymentId: current.id, provider: current.provider, error: (err as Error).message });
        await move(current.id, 'cancel', { by: `system:${current.provider}`, roles: ['system'] }, (p) => ({
          ...p,
          failureReason: 'The payment gateway did not answer',
        })).catch(() => undefined);
        throw new ServiceUnavailableError('The payment gateway is not answering; try again shortly').withCode('PAYMENT_GATEWAY_UNAVAILABLE');
      }
    }
    if (created.fresh) await PAYMENT_DEADLINE.arm(deps.scheduler, current, now());
    if (current.provider === 'MOCK' && current.status === 'PENDING') {
      // The mock gateway pays at once, through the notification path of the real ones.
      const notice: GatewayNotice = {
        provider: 'MOCK',
        paymentId: current.id,
        amount: current.amount,
        success: true,
        transactionNo: `MOCK${current.id.slice(1, 13)}`,
        bankCode: 'MOCKBANK',
        responseCode: '00',
        paidAt: iso(now()),
      };
      await handleMockNotice(notice, signMockNotice(notice, deps.mockKey));
      current = (await paymentsRepo.get(current.id))!;
    }
    return current;
  }

  async function topup(payerId: string, input: { amount: Vnd; provider: Provider }, idempotencyKey: string, clientIp: string) {
    gatewayOf(input.provider);
    const at = now();
    const record = newRecord(paymentIdFor('payments.topup', payerId, idempotencyKey), at, {
      payerId,
      amount: input.amount,
      purpose: 'TOPUP',
      ref: null,
      description: 'Nap tien vi Super-app',
      method: 'GATEWAY',
      provider: input.provider,
      status: 'PENDING',
      expiresAt: at + deps.expirySec * 1000,
    });
    record.gateway = { orderRef: record.id, transactionNo: null, bankCode: null, responseCode: null, paidAt: null };
    return paymentView(await openGatewayPayment(record, clientIp), 'payer');
  }

  /**
   * Charges a payer for a ride, order or booking. WALLET pays at once from the wallet (409 when it does not cover
   * the amount); CASH records money the payee took in person (their commission is owed from earnings); GATEWAY
   * opens a PENDING payment with a paymentUrl, settled by the gateway's notice.
   */
  async function charge(input: ChargeInput) {
    if (input.method === 'GATEWAY' && !input.provider) throw new BadRequestError('A gateway charge names its provider');
    if (input.countsTowardDailyLimit && input.method !== 'WALLET') throw new BadRequestError('Only a wallet charge counts toward the daily limit');
    const at = now();
    const guards: ChargeGuard[] = input.countsTowardDailyLimit ? [dailyLimitGuard(input.payerId, input.amount)] : [];
    if (input.method === 'WALLET') {
      const wallet = walletChargeOf(input, at);
      return paymentView(await createOnce(wallet.record, wallet.legs, wallet.operationId, guards));
    }
    const feeBp = input.feeBp ?? 0;
    const base = chargeRecordOf(input, at);
    const id = base.id;
    if (input.method === 'GATEWAY') {
      return paymentView(
        await openGatewayPayment(
          { ...base, expiresAt: at + deps.expirySec * 1000, gateway: { orderRef: id, transactionNo: null, bankCode: null, responseCode: null, paidAt: null } },
          input.clientIp ?? '127.0.0.1',
        ),
      );
    }
    const record: PaymentRecord = { ...base, succeededAt: at };
    const legs =
      record.payeeId && feeBp > 0 && percentOf(input.amount, feeBp) > 0
        ? [
            {
              kind: 'FEE' as const,
              debit: userAccount('EARNINGS', record.payeeId),
              credit: systemAccount(SYSTEM_ACCOUNTS.platformRevenue),
              amount: percentOf(input.amount, feeBp),
              memo: `${input.description} (cash, fee)`,
              allowOverdraft: true,
            },
          ]
        : [];
    return paymentView(await createOnce(record, legs, `${id}-charge`));
  }

  function chargeRecordOf(input: ChargeInput, at: number): PaymentRecord {
    return newRecord(paymentIdFor(`payments.charge:${input.purpose}`, input.payerId, input.idempotencyKey), at, {
      payerId: input.payerId,
      amount: input.amount,
      purpose: input.purpose,
      ref: input.ref,
      description: input.description,
      method: input.method,
      provider: input.method === 'GATEWAY' ? input.provider! : null,
      status: input.method === 'GATEWAY' ? 'PENDING' : 'SUCCEEDED',
      payeeId: input.payeeId ?? null,
      feeBp: input.feeBp ?? 0,
    });
  }

  /** A WALLET charge's payment (SUCCEEDED) and its ledger legs: what `charge` and `txCharge` write under the same key. */
  function walletChargeOf(input: Omit<ChargeInput, 'method' | 'provider' | 'clientIp'>, at: number) {
    const record: PaymentRecord = { ...chargeRecordOf({ ...input, method: 'WALLET' }, at), succeededAt: at };
    const legs = payoutLegs('PAYMENT', userAccount('WALLET', input.payerId), record, input.amount, input.description);
    return { record, legs, operationId: `${record.id}-charge` };
  }

  const dailyLimitGuard =
    (payerId: string, amount: Vnd): ChargeGuard =>
    (tx, at) =>
      countTowardDailyLimit(tx, payerId, amount, deps.dailyTransferLimit, at);

  /**
   * A tip from the payer's wallet, all of it to the payee's earnings. Within TIP_WINDOW_SEC of the end, at most
   * TIP_MAX_COUNT per payer and ride (or order), and counted in the payer's daily limit for sending money: the count,
   * the limit and the money move in one transaction, so racing tips count once each and never pass a limit.
   */
  async function tip(input: TipInput) {
    const at = now();
    if (at - input.endedAt > deps.tipWindowSec * 1000)
      throw new ConflictError(`Tips are given within ${deps.tipWindowSec} s of the end`, { windowSec: deps.tipWindowSec }).withCode('TIP_WINDOW');
    const id = paymentIdFor(`payments.charge:${input.purpose}`, input.payerId, input.idempotencyKey);
    const record: PaymentRecord = {
      ...newRecord(id, at, {
        payerId: input.payerId,
        amount: input.amount,
        purpose: input.purpose,
        ref: input.ref,
        description: input.description,
        method: 'WALLET',
        provider: null,
        status: 'SUCCEEDED',
        payeeId: input.payeeId,
        feeBp: 0,
      }),
      succeededAt: at,
    };
    const tips = paymentIdFor('payments.tips', input.payerId, `${input.ref.type}:${input.ref.id}`);
    const countTip: ChargeGuard = async (tx) => {
      const given = await paymentsRepo.tipCount(tx, tips);
      if (given >= deps.tipMaxCount)
        throw new ConflictError(`At most ${deps.tipMaxCount} tip(s) per ${input.ref.type.toLowerCase()}`, { maxTips: deps.tipMaxCount }).withCode('TIP_LIMIT');
      return () => paymentsRepo.setTipCount(tx, tips, given + 1, at);
    };
    const legs = payoutLegs('PAYMENT', userAccount('WALLET', input.payerId), record, input.amount, input.description);
    return paymentView(await createOnce(record, legs, `${id}-charge`, [countTip, dailyLimitGuard(input.payerId, input.amount)]));
  }

  /**
   * Creates the payment with its ledger legs in one transaction, or returns the one a retry already made. Guards
   * read (and refuse) before the ledger's reads; their writes follow the ledger's.
   */
  function createOnce(record: PaymentRecord, legs: Leg[], operationId: string, guards: readonly ChargeGuard[] = []): Promise<PaymentRecord> {
    return mapFunds(() =>
      inTransaction(async (tx) => {
        const existing = await paymentsRepo.get(record.id, tx);
        if (existing) return existing;
        const writes: Array<() => void> = [];
        for (const guard of guards) writes.push(await guard(tx, record.createdAt));
        if (legs.length > 0) await ledger.post(tx, legs, { operationId, by: record.payerId, now: record.createdAt, paymentId: record.id, ref: record.ref });
        for (const write of writes) write();
        paymentsRepo.create(tx, record);
        return record;
      }),
    );
  }

  /** Holds money in the payer's wallet for a prepaid ride or a deposit (AUTHORIZED); captured or released later. */
  async function hold(input: Omit<ChargeInput, 'method' | 'provider' | 'clientIp'>) {
    const { record, legs, operationId } = holdOf(input, now());
    return paymentView(await createOnce(record, legs, operationId));
  }

  /**
   * `hold` in the caller's transaction, in two halves: reads (the payment a retry made, the wallet) and refuses (409
   * WALLET_INSUFFICIENT_FUNDS, nothing written); `write()` then writes, after every read of the transaction. The same
   * key makes the same payment as `hold`, and a hold the key made already is answered as it is (nothing written).
   */
  async function txHold(tx: Transaction, input: Omit<ChargeInput, 'method' | 'provider' | 'clientIp'>) {
    const { record, legs, operationId } = holdOf(input, now());
    return prepareOnce(tx, record, legs, operationId);
  }

  /**
   * `charge` by WALLET in the caller's transaction, in the same two halves as `txHold` (409 WALLET_INSUFFICIENT_FUNDS
   * from the reads, nothing written). The same key makes the same payment as `charge`; one it made already is answered.
   */
  async function txCharge(tx: Transaction, input: Omit<ChargeInput, 'method' | 'provider' | 'clientIp' | 'countsTowardDailyLimit'>) {
    const { record, legs, operationId } = walletChargeOf(input, now());
    return prepareOnce(tx, record, legs, operationId);
  }

  /** A payment and its ledger legs prepared in the caller's transaction: reads and refusals now, `write()` after every read. */
  async function prepareOnce(tx: Transaction, record: PaymentRecord, legs: Leg[], operationId: string) {
    const ctx = { operationId, by: record.payerId, now: record.createdAt, paymentId: record.id, ref: record.ref };
    const [existing, posted] = await Promise.all([
      paymentsRepo.get(record.id, tx),
      ledger.prepare(tx, legs, ctx).then(
        (write) => ({ write, err: null }),
        (err: unknown) => ({ write: null, err }),
      ),
    ]);
    if (existing) return { payment: paymentView(existing), write: () => undefined };
    if (posted.err) await mapFunds(() => Promise.reject(posted.err));
    return {
      payment: paymentView(record),
      write: () => {
        posted.write!();
        paymentsRepo.create(tx, record);
      },
    };
  }

  function holdOf(input: Omit<ChargeInput, 'method' | 'provider' | 'clientIp'>, at: number) {
    const id = paymentIdFor(`payments.hold:${input.purpose}`, input.payerId, input.idempotencyKey);
    const record = newRecord(id, at, {
      payerId: input.payerId,
      amount: input.amount,
      purpose: input.purpose,
      ref: input.ref,
      description: input.description,
      method: 'WALLET',
      provider: null,
      status: 'AUTHORIZED',
      payeeId: input.payeeId ?? null,
      feeBp: input.feeBp ?? 0,
      heldAmount: input.amount,
    });
    const legs: Leg[] = [
      { kind: 'HOLD', debit: userAccount('WALLET', input.payerId), credit: userAccount('HELD', input.payerId), amount: input.amount, memo: input.description },
    ];
    return { record, legs, operationId: `${id}-hold` };
  }

  /**
   * Captures up to the held amount (a final fare lower than the quote): that much goes to the payee and platform,
   * the rest back to the wallet. The payee can be named now (the driver is known only at the end).
   */
  async function capture(id: string, input: { amount?: Vnd; payeeId?: string | null; feeBp?: number }) {
    const { after } = await move(
      id,
      'capture',
      { by: 'system:capture', roles: ['system'] },
      (p) => ({
        ...p,
        capturedAmount: input.amount ?? p.heldAmount,
        payeeId: input.payeeId === undefined ? p.payeeId : input.payeeId,
        feeBp: input.feeBp ?? p.feeBp,
        succeededAt: now(),
      }),
      {
        legs: (p) => {
          const captured = input.amount ?? p.heldAmount;
          if (captured > p.heldAmount || captured <= 0)
            throw new ConflictError(`Capture ${captured} of a hold of ${p.heldAmount}`).withCode('PAYMENT_CAPTURE_EXCEEDS');
          const held = userAccount('HELD', p.payerId);
          const target = { payeeId: input.payeeId === undefined ? p.payeeId : input.payeeId, feeBp: input.feeBp ?? p.feeBp };
          const rest = p.heldAmount - captured;
          return [
            ...payoutLegs('CAPTURE', held, target, vnd(captured), p.description),
            ...(rest > 0
              ? [
                  {
                    kind: 'RELEASE' as const,
                    debit: held,
                    credit: userAccount('WALLET', p.payerId),
                    amount: vnd(rest),
                    memo: `${p.description} (rest of the hold)`,
                  },
                ]
              : []),
          ];
        },
      },
    );
    return paymentView(after);
  }

  async function release(id: string, reason: string) {
    const { after } = await move(id, 'release', { by: 'system:release', roles: ['system'] }, (p) => ({ ...p, failureReason: reason }), {
      legs: (p) => [
        { kind: 'RELEASE', debit: userAccount('HELD', p.payerId), credit: userAccount('WALLET', p.payerId), amount: vnd(p.heldAmount), memo: reason },
      ],
      reason,
    });
    return paymentView(after);
  }

  return { openGatewayPayment, topup, charge, tip, hold, txHold, txCharge, capture, release };
}
