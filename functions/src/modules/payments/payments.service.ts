import { createHash } from 'node:crypto';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ServiceUnavailableError, UnprocessableError } from '../../platform/errors/app-error';
import { inTransaction } from '../../platform/firebase/firebase';
import type { PageRequest } from '../../platform/firestore/paginate';
import { logger } from '../../platform/logging/logger';
import { allocate, percentOf, vnd, type Vnd } from '../../platform/money/money';
import { recordTransition, transition } from '../../platform/state-machine/state-machine';
import type { Transaction } from 'firebase-admin/firestore';
import { accounts } from '../users';
import { activeMoneyStaff, countStaffMoney, countTowardDailyLimit, ledger, mapFunds, STAFF_LABEL, SYSTEM_ACCOUNTS, systemAccount, userAccount, type Leg, type Provider } from '../wallet';
import { GatewayError, gatewayText, type Gateway, type GatewayNotice } from './gateways/gateway';
import { signMockNotice, verifyMockNotice } from './gateways/mock';
import {
  isOverdue,
  MAX_REFUNDS,
  paymentMachine,
  payerLabel,
  paymentView,
  refundableAmount,
  refundInFlight,
  type PaymentAudience,
  type PaymentAction,
  type PaymentActor,
  type PaymentMethod,
  type PaymentPurpose,
  type PaymentRecord,
  type RefundEntry,
  staffRefundMachine,
  staffRefundView,
  type StaffRefundCause,
  type StaffRefundRecord,
  type StaffRefundStatus,
} from './payments.model';
import { paymentEvents, paymentsRepo, staffRefundsRepo, type PaymentFilter } from './payments.repo';

export interface ExpiryScheduler {
  schedule(paymentId: string, delaySec: number): Promise<void>;
}

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
  scheduler: ExpiryScheduler;
  now?: () => number;
}

/** Payment ids double as gateway order references: letters and digits only (VNPay and MoMo accept those). */
export function paymentIdFor(scope: string, callerId: string, key: string): string {
  return `P${createHash('sha256').update(`${scope}\u0000${callerId}\u0000${key}`).digest('hex').slice(0, 24)}`;
}

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

export type NoticeOutcome = 'settled' | 'failed' | 'pending' | 'duplicate' | 'unknown-order' | 'amount-mismatch';

/** Who reads a payment: staff are payments.manage administrators; everyone else sees only their own. */
export interface PaymentViewer {
  userId: string;
  staff: boolean;
}

/** Who refunds: the payer, staff (the admin route, payments.manage) or the selling module (`system`). */
export interface RefundActor {
  userId: string;
  staff: boolean;
  system?: boolean;
}

export function createPaymentsService(deps: PaymentsServiceDeps) {
  const now = deps.now ?? Date.now;

  function gatewayOf(provider: Provider): Gateway {
    const gateway = deps.gateways[provider];
    if (!gateway) throw new UnprocessableError(`${provider} is not available here`, [{ field: 'body.provider', message: `${provider} is not configured${provider === 'MOCK' ? ' (PAYMENTS_MOCK is off)' : ''}` }]).withCode('PAYMENT_PROVIDER_UNAVAILABLE');
    return gateway;
  }

  /** The legs that pay `amount` from `source` to the payee's earnings and platform revenue (fee first). */
  function payoutLegs(kind: Leg['kind'], source: Leg['debit'], payment: Pick<PaymentRecord, 'payeeId' | 'feeBp'>, amount: Vnd, memo: string): Leg[] {
    const revenue = systemAccount(SYSTEM_ACCOUNTS.platformRevenue);
    if (!payment.payeeId) return [{ kind, debit: source, credit: revenue, amount, memo }];
    const fee = percentOf(amount, payment.feeBp);
    const share = vnd(amount - fee);
    return [
      ...(share > 0 ? [{ kind, debit: source, credit: userAccount('EARNINGS', payment.payeeId), amount: share, memo }] : []),
      ...(fee > 0 ? [{ kind, debit: source, credit: revenue, amount: fee, memo: `${memo} (fee)` }] : []),
    ];
  }

  /** Where a settled gateway payment's money goes: the payer's wallet for a top-up, else the payee and platform. */
  function settlementLegs(payment: PaymentRecord): Leg[] {
    const clearing = systemAccount(SYSTEM_ACCOUNTS.clearing(payment.provider!));
    if (payment.purpose === 'TOPUP') return [{ kind: 'TOPUP', debit: clearing, credit: userAccount('WALLET', payment.payerId), amount: vnd(payment.amount), memo: payment.description }];
    return payoutLegs('PAYMENT', clearing, payment, vnd(payment.amount), payment.description);
  }

  function newRecord(id: string, at: number, fields: Pick<PaymentRecord, 'payerId' | 'amount' | 'purpose' | 'ref' | 'description' | 'method' | 'provider' | 'status'> & Partial<PaymentRecord>): PaymentRecord {
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

  async function move(id: string, action: PaymentAction, actor: { by: string; roles: readonly PaymentActor[] }, apply: (p: PaymentRecord, to: PaymentRecord['status']) => PaymentRecord, legs?: (p: PaymentRecord) => Leg[], reason?: string | null) {
    const at = now();
    return mapFunds(() =>
      transition(
        paymentMachine,
        {
          load: (tx) => paymentsRepo.get(id, tx),
          ref: () => paymentsRepo.ref(id),
          alongside: async (tx, next, previous, event) => {
            const planned = legs?.(previous) ?? [];
            if (planned.length > 0) await ledger.post(tx, planned, { operationId: `${id}-${event.action}-${next.refunds.length}`, by: actor.by, now: at, paymentId: id, ref: next.ref });
          },
          save: (tx, next) => paymentsRepo.save(tx, next),
        },
        { action, by: actor.by, now: at, reason: reason ?? null, rolesOf: () => actor.roles, apply: (p, to) => ({ ...apply(p, to), status: to, updatedAt: at }), missing: () => new NotFoundError('No such payment') },
      ),
    );
  }

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
        const { paymentUrl } = await gateway.createPayment({ paymentId: current.id, amount: current.amount, description: gatewayText(current.description), clientIp, createdAt: current.createdAt, expiresAt: current.expiresAt! });
        await paymentsRepo.setPaymentUrl(current.id, paymentUrl, now());
        current = { ...current, paymentUrl };
      } catch (err) {
        logger.warn('gateway create failed', { paymentId: current.id, provider: current.provider, error: (err as Error).message });
        await move(current.id, 'cancel', { by: `system:${current.provider}`, roles: ['system'] }, (p) => ({ ...p, failureReason: 'The payment gateway did not answer' })).catch(() => undefined);
        throw new ServiceUnavailableError('The payment gateway is not answering; try again shortly').withCode('PAYMENT_GATEWAY_UNAVAILABLE');
      }
    }
    if (created.fresh) {
      await deps.scheduler.schedule(current.id, Math.max(1, Math.ceil((current.expiresAt! - now()) / 1000))).catch((err: unknown) => logger.warn('payment expiry not scheduled (checked on read)', { paymentId: current.id, error: (err as Error).message }));
    }
    if (current.provider === 'MOCK' && current.status === 'PENDING') {
      // The mock gateway pays at once, through the notification path of the real ones.
      const notice: GatewayNotice = { provider: 'MOCK', paymentId: current.id, amount: current.amount, success: true, transactionNo: `MOCK${current.id.slice(1, 13)}`, bankCode: 'MOCKBANK', responseCode: '00', paidAt: new Date(now()).toISOString() };
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
   * A gateway's verified notice. Idempotent: a repeated success changes nothing ('duplicate'). The stored amount is
   * the truth: a notice for another amount moves no money.
   */
  async function handleNotice(notice: GatewayNotice): Promise<NoticeOutcome> {
    const at = now();
    return mapFunds(() =>
      inTransaction(async (tx): Promise<NoticeOutcome> => {
        const payment = await paymentsRepo.get(notice.paymentId, tx);
        if (!payment || payment.provider !== notice.provider || payment.method !== 'GATEWAY') return 'unknown-order';
        if (payment.amount !== notice.amount) return 'amount-mismatch';
        // Authorized is not paid: the money moves with the capture's notice.
        if (notice.pending) return 'pending';
        const action: PaymentAction = notice.success ? 'settle' : 'fail';
        if (!paymentMachine.can(action, payment.status, ['gateway'])) return 'duplicate';
        const to = paymentMachine.target(action);
        const gateway = { orderRef: payment.id, transactionNo: notice.transactionNo, bankCode: notice.bankCode, responseCode: notice.responseCode, paidAt: notice.paidAt };
        const next: PaymentRecord = notice.success
          ? { ...payment, status: to, gateway, succeededAt: at, updatedAt: at, failureReason: null }
          : { ...payment, status: to, gateway, updatedAt: at, failureReason: `The gateway declined the payment (code ${notice.responseCode})` };
        if (notice.success) await ledger.post(tx, settlementLegs(payment), { operationId: `${payment.id}-settle`, by: `system:${notice.provider}`, now: at, paymentId: payment.id, ref: payment.ref });
        paymentsRepo.save(tx, next);
        recordTransition(tx, paymentsRepo.ref(payment.id), { action, from: payment.status, to, by: `system:${notice.provider}`, at, reason: `${notice.provider} ${notice.responseCode}` });
        return notice.success ? 'settled' : 'failed';
      }),
    );
  }

  async function handleMockNotice(notice: GatewayNotice, signature: string): Promise<NoticeOutcome | 'bad-signature'> {
    if (!verifyMockNotice(notice, signature, deps.mockKey)) return 'bad-signature';
    return handleNotice(notice);
  }

  /** Lazily expires an overdue PENDING payment (its timer may be late or lost); returns the current record. */
  async function current(id: string): Promise<PaymentRecord | undefined> {
    const found = await paymentsRepo.get(id);
    if (!found || !isOverdue(found, now())) return found;
    return (await expire(id)) ?? (await paymentsRepo.get(id));
  }

  async function expire(id: string): Promise<PaymentRecord | undefined> {
    try {
      return (await move(id, 'expire', { by: 'system:expiry', roles: ['system'] }, (p) => ({ ...p, failureReason: 'Not paid in time' }))).after;
    } catch (err) {
      if (err instanceof ConflictError || err instanceof NotFoundError) return undefined; // paid, cancelled or gone meanwhile
      throw err;
    }
  }

  /** The expiry task: expires the payment if it is still PENDING at its deadline (idempotent). */
  async function expireIfDue(id: string): Promise<'expired' | 'not-due' | 'settled'> {
    const found = await paymentsRepo.get(id);
    if (!found || found.status !== 'PENDING') return 'settled';
    if (!isOverdue(found, now())) return 'not-due';
    return (await expire(id)) ? 'expired' : 'settled';
  }

  /** A payer reads their own payments; staff (payments.manage) read any, with who acted. */
  async function get(viewer: PaymentViewer, id: string) {
    const found = await current(id);
    if (!found || (!viewer.staff && found.payerId !== viewer.userId)) throw new NotFoundError('No such payment');
    return paymentView(found, viewer.staff ? 'staff' : 'payer');
  }

  async function list(filter: PaymentFilter, page: Pick<PageRequest, 'limit' | 'cursor'>, caller: string, audience: PaymentAudience) {
    const key = `payments:${filter.payerId ?? '*'}:${filter.status ?? ''}:${filter.purpose ?? ''}:${filter.method ?? ''}:${filter.provider ?? ''}`;
    const result = await paymentsRepo.list(filter, { ...page, query: key, caller });
    const at = now();
    // Overdue ones read as EXPIRED at once; their timers (or the next read) store it.
    return { items: result.items.map((p) => paymentView(isOverdue(p, at) ? { ...p, status: 'EXPIRED' } : p, audience)), nextCursor: result.nextCursor };
  }

  async function cancel(payerId: string, id: string) {
    const found = await current(id);
    if (!found || found.payerId !== payerId) throw new NotFoundError('No such payment');
    return paymentView((await move(id, 'cancel', { by: payerId, roles: ['payer'] }, (p) => ({ ...p, failureReason: 'Cancelled by the payer' }))).after, 'payer');
  }

  /**
   * Charges a payer for a ride, order or booking. WALLET pays at once from the wallet (409 when it does not cover
   * the amount); CASH records money the payee took in person (their commission is owed from earnings); GATEWAY
   * opens a PENDING payment with a paymentUrl, settled by the gateway's notice.
   */
  async function charge(input: ChargeInput) {
    if (input.method === 'GATEWAY' && !input.provider) throw new BadRequestError('A gateway charge names its provider');
    if (input.countsTowardDailyLimit && input.method !== 'WALLET') throw new BadRequestError('Only a wallet charge counts toward the daily limit');
    const feeBp = input.feeBp ?? 0;
    const at = now();
    const id = paymentIdFor(`payments.charge:${input.purpose}`, input.payerId, input.idempotencyKey);
    const base = newRecord(id, at, {
      payerId: input.payerId,
      amount: input.amount,
      purpose: input.purpose,
      ref: input.ref,
      description: input.description,
      method: input.method,
      provider: input.method === 'GATEWAY' ? input.provider! : null,
      status: input.method === 'GATEWAY' ? 'PENDING' : 'SUCCEEDED',
      payeeId: input.payeeId ?? null,
      feeBp,
    });
    if (input.method === 'GATEWAY') {
      return paymentView(await openGatewayPayment({ ...base, expiresAt: at + deps.expirySec * 1000, gateway: { orderRef: id, transactionNo: null, bankCode: null, responseCode: null, paidAt: null } }, input.clientIp ?? '127.0.0.1'));
    }
    const record: PaymentRecord = { ...base, succeededAt: at };
    const legs =
      input.method === 'WALLET'
        ? payoutLegs('PAYMENT', userAccount('WALLET', input.payerId), record, input.amount, input.description)
        : record.payeeId && feeBp > 0 && percentOf(input.amount, feeBp) > 0
          ? [{ kind: 'FEE' as const, debit: userAccount('EARNINGS', record.payeeId), credit: systemAccount(SYSTEM_ACCOUNTS.platformRevenue), amount: percentOf(input.amount, feeBp), memo: `${input.description} (cash, fee)`, allowOverdraft: true }]
          : [];
    const guards: ChargeGuard[] = input.countsTowardDailyLimit ? [dailyLimitGuard(input.payerId, input.amount)] : [];
    return paymentView(await createOnce(record, legs, `${id}-charge`, guards));
  }

  const dailyLimitGuard = (payerId: string, amount: Vnd): ChargeGuard => (tx, at) => countTowardDailyLimit(tx, payerId, amount, deps.dailyTransferLimit, at);

  /**
   * A tip from the payer's wallet, all of it to the payee's earnings. Within TIP_WINDOW_SEC of the end, at most
   * TIP_MAX_COUNT per payer and ride (or order), and counted in the payer's daily limit for sending money: the count,
   * the limit and the money move in one transaction, so racing tips count once each and never pass a limit.
   */
  async function tip(input: TipInput) {
    const at = now();
    if (at - input.endedAt > deps.tipWindowSec * 1000) throw new ConflictError(`Tips are given within ${deps.tipWindowSec} s of the end`, { windowSec: deps.tipWindowSec }).withCode('TIP_WINDOW');
    const id = paymentIdFor(`payments.charge:${input.purpose}`, input.payerId, input.idempotencyKey);
    const record: PaymentRecord = {
      ...newRecord(id, at, { payerId: input.payerId, amount: input.amount, purpose: input.purpose, ref: input.ref, description: input.description, method: 'WALLET', provider: null, status: 'SUCCEEDED', payeeId: input.payeeId, feeBp: 0 }),
      succeededAt: at,
    };
    const tips = paymentIdFor('payments.tips', input.payerId, `${input.ref.type}:${input.ref.id}`);
    const countTip: ChargeGuard = async (tx) => {
      const given = await paymentsRepo.tipCount(tx, tips);
      if (given >= deps.tipMaxCount) throw new ConflictError(`At most ${deps.tipMaxCount} tip(s) per ${input.ref.type.toLowerCase()}`, { maxTips: deps.tipMaxCount }).withCode('TIP_LIMIT');
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
    const at = now();
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
    return paymentView(await createOnce(record, [{ kind: 'HOLD', debit: userAccount('WALLET', input.payerId), credit: userAccount('HELD', input.payerId), amount: input.amount, memo: input.description }], `${id}-hold`));
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
      (p) => ({ ...p, capturedAmount: input.amount ?? p.heldAmount, payeeId: input.payeeId === undefined ? p.payeeId : input.payeeId, feeBp: input.feeBp ?? p.feeBp, succeededAt: now() }),
      (p) => {
        const captured = input.amount ?? p.heldAmount;
        if (captured > p.heldAmount || captured <= 0) throw new ConflictError(`Capture ${captured} of a hold of ${p.heldAmount}`).withCode('PAYMENT_CAPTURE_EXCEEDS');
        const held = userAccount('HELD', p.payerId);
        const target = { payeeId: input.payeeId === undefined ? p.payeeId : input.payeeId, feeBp: input.feeBp ?? p.feeBp };
        const rest = p.heldAmount - captured;
        return [...payoutLegs('CAPTURE', held, target, vnd(captured), p.description), ...(rest > 0 ? [{ kind: 'RELEASE' as const, debit: held, credit: userAccount('WALLET', p.payerId), amount: vnd(rest), memo: `${p.description} (rest of the hold)` }] : [])];
      },
    );
    return paymentView(after);
  }

  async function release(id: string, reason: string) {
    const { after } = await move(
      id,
      'release',
      { by: 'system:release', roles: ['system'] },
      (p) => ({ ...p, failureReason: reason }),
      (p) => [{ kind: 'RELEASE', debit: userAccount('HELD', p.payerId), credit: userAccount('WALLET', p.payerId), amount: vnd(p.heldAmount), memo: reason }],
      reason,
    );
    return paymentView(after);
  }

  /**
   * Refunds all or part of a payment. Wallet money goes back to the wallet; gateway money goes back through the
   * gateway (its clearing account), and a top-up's refund first takes the money out of the wallet (409 when the
   * wallet no longer holds it). Cash is refunded in person, not here. Idempotent per refund id: with a key, one
   * refund per key; without one, one keyless refund per payment and side (payer, staff: a repeat answers the payment
   * as it is).
   *
   * Payers refund their own top-ups within the window. Staff (payments.manage, the admin route) refund any payment
   * without the top-ups-only rule or the payer's window (support cases and disputes arrive later and concern
   * purchases); what protects the payee stays: never a payment the staff member paid or was paid by, a written
   * reason on the payee's ledger entry, at most what is left, and never beside a gateway refund still in flight.
   */
  /** A keyless repeat answers only the same ask (amount and reason); another one needs its own key (409). */
  function assertSameAsk(r: { id: string; reason: string; amount: number; requested?: number | null }, input: { amount?: Vnd; reason: string }, idempotencyKey: string | undefined): void {
    if (idempotencyKey) return;
    const sameAmount = r.requested !== undefined ? r.requested === (input.amount ?? null) : input.amount === undefined || input.amount === r.amount;
    if (!sameAmount || r.reason !== input.reason) {
      throw new ConflictError('This payment already has a keyless refund with another amount or reason: send an Idempotency-Key for another refund', { refundId: r.id }).withCode('PAYMENT_REFUND_KEY_REQUIRED');
    }
  }

  /** What a refund asking for `asked` (absent: all that is left) comes to now; refuses what cannot be refunded. */
  function refundAmount(p: PaymentRecord, asked: number | undefined, role: PaymentActor, at: number): number {
    const pending = p.refunds.find((r) => refundInFlight(r, at));
    if (pending) throw new ConflictError('A refund of this payment is still with the gateway; try again once it settles', { refundId: pending.id }).withCode('PAYMENT_REFUND_IN_FLIGHT');
    const remaining = refundableAmount(p);
    const amount = asked ?? remaining;
    paymentMachine.check(amount >= remaining ? 'refund' : 'refundPart', p.status, [role]);
    if (p.refunds.length >= MAX_REFUNDS) throw new ConflictError(`A payment takes at most ${MAX_REFUNDS} refunds`).withCode('PAYMENT_REFUND_EXCEEDS');
    if (amount <= 0 || amount > remaining) throw new ConflictError(`At most ${remaining} VND of this payment can be refunded`, { refundable: remaining }).withCode('PAYMENT_REFUND_EXCEEDS');
    return amount;
  }

  /**
   * Posts a refund in the caller's transaction (after its own reads): the ledger legs, the payment's new refund and
   * its event. `afterReads` runs once the ledger has read (the caller's counters write then).
   */
  async function postRefund(tx: Transaction, p: PaymentRecord, r: { refundId: string; amount: number; requested: number | null; reason: string; label: string; by: string; role: PaymentActor; at: number }, afterReads?: () => void) {
    const remaining = refundableAmount(p);
    const action: PaymentAction = r.amount >= remaining ? 'refund' : 'refundPart';
    const to = paymentMachine.check(action, p.status, [r.role]);
    const state = p.method !== 'GATEWAY' ? 'NOT_NEEDED' : p.provider === 'MOCK' ? 'SETTLED' : 'REQUESTED';
    const entry: RefundEntry = { id: r.refundId, amount: r.amount, reason: r.reason, by: r.label, at: r.at, gateway: { state, reference: state === 'SETTLED' ? `mock-refund-${r.refundId}` : null }, requestedAt: state === 'REQUESTED' ? r.at : null, requested: r.requested };
    await ledger.post(tx, refundLegs(p, vnd(r.amount), remaining, r.reason), { operationId: `${p.id}-refund-${p.refunds.length}`, by: r.label, now: r.at, paymentId: p.id, ref: p.ref });
    afterReads?.();
    const next: PaymentRecord = { ...p, status: to, refundedAmount: p.refundedAmount + r.amount, refunds: [...p.refunds, entry], updatedAt: r.at };
    paymentsRepo.save(tx, next);
    recordTransition(tx, paymentsRepo.ref(p.id), { action, from: p.status, to, by: r.by, at: r.at, reason: r.reason });
    return { payment: next, entry };
  }

  /** What of a refund of `amount` the payee's earnings give back. */
  function fromEarnings(p: PaymentRecord, amount: number, reason: string): number {
    if (!p.payeeId) return 0;
    const earnings = userAccount('EARNINGS', p.payeeId).id;
    return refundLegs(p, vnd(amount), refundableAmount(p), reason)
      .filter((l) => l.debit.id === earnings)
      .reduce((sum, l) => sum + l.amount, 0);
  }

  /**
   * Refunds all or part of a payment. Wallet money goes back to the wallet; gateway money goes back through the
   * gateway (its clearing account), and a top-up's refund first takes the money out of the wallet (409 when the
   * wallet no longer holds it). Cash is refunded in person, not here. Idempotent per refund id: with a key, one
   * refund per key; without one, one keyless refund per payment and side (payer, staff): a repeat with the same
   * amount and reason answers the payment as it is, another one is 409 PAYMENT_REFUND_KEY_REQUIRED.
   *
   * Payers refund their own top-ups within the window. Staff (payments.manage, the admin route) refund any payment
   * without the top-ups-only rule or the payer's window (support cases and disputes arrive later and concern
   * purchases); what protects the payee stays: never a payment the staff member paid or was paid by, a written
   * reason on the payee's ledger entry, at most what is left, and never beside a gateway refund still in flight.
   * Four eyes: a staff refund above WALLET_ADJUSTMENT_APPROVAL_VND (alone or with the day's staff money of the
   * administrator or to the payer), or one taking the payee's earnings below zero, waits PENDING (`refundRequest`)
   * for a second administrator.
   */
  async function refund(actor: RefundActor, input: { paymentId: string; amount?: Vnd; reason: string }, idempotencyKey?: string, clientIp = '127.0.0.1') {
    // The refund's id derives from the caller's key: the same key refunds once, even after the 24 h replay window.
    const side = actor.system ? 'system' : actor.staff ? 'staff' : 'payer';
    const refundId = (idempotencyKey ? paymentIdFor('payments.refund', actor.userId, idempotencyKey) : paymentIdFor('payments.refund.keyless', input.paymentId, side)).replace(/^P/, 'R');
    const found = await paymentsRepo.get(input.paymentId);
    const payerPath = side === 'payer';
    if (!found || (payerPath && found.payerId !== actor.userId)) throw new NotFoundError('No such payment');
    const audience: PaymentAudience = payerPath ? 'payer' : 'staff';
    const answer = (p: PaymentRecord, request: StaffRefundRecord | null = null) => ({ ...paymentView(p, audience), ...(side === 'staff' ? { refundRequest: request && staffRefundView(request) } : {}) });
    const replay = found.refunds.find((r) => r.id === refundId);
    if (replay) {
      assertSameAsk(replay, input, idempotencyKey);
      return answer(found);
    }
    if (actor.staff && (found.payerId === actor.userId || found.payeeId === actor.userId)) {
      throw new ForbiddenError('Staff do not refund a payment they paid or received; another administrator does').withCode('PAYMENT_SELF_REFUND');
    }
    if (payerPath) {
      // A buyer cannot take back what they paid for a ride or an order on their own: the vertical or an administrator does.
      if (found.purpose !== 'TOPUP') throw new ForbiddenError('Only a top-up is refunded by its payer; ask support for a purchase').withCode('PAYMENT_NOT_REFUNDABLE_BY_PAYER');
      if (found.succeededAt !== null && now() - found.succeededAt > deps.refundWindowDays * 86_400_000) {
        throw new ConflictError(`Top-ups are refunded within ${deps.refundWindowDays} days`).withCode('PAYMENT_REFUND_WINDOW');
      }
    }
    if (found.method === 'CASH') throw new ConflictError('A cash payment is refunded in person').withCode('PAYMENT_NOT_REFUNDABLE');
    const role: PaymentActor = side === 'staff' ? 'admin' : side;
    // Payers read their payment and ledger entries: they see STAFF or SERVICE, the staff id stays in the events.
    const label = actor.staff ? STAFF_LABEL : actor.system ? (actor.userId.startsWith('system:') ? actor.userId : 'SERVICE') : actor.userId;
    const at = now();
    // One transaction reads the payment, decides full or partial on what is left now, and moves the money (or, for
    // staff past the four-eyes rules, records the request a second administrator decides).
    const done = await mapFunds(() =>
      inTransaction(async (tx): Promise<{ payment: PaymentRecord; entry?: RefundEntry; request?: StaffRefundRecord }> => {
        const p = (await paymentsRepo.get(input.paymentId, tx))!;
        const again = p.refunds.find((r) => r.id === refundId);
        if (again) {
          assertSameAsk(again, input, idempotencyKey);
          return { payment: p };
        }
        if (side !== 'staff') {
          const amount = refundAmount(p, input.amount, role, at);
          return postRefund(tx, p, { refundId, amount, requested: input.amount ?? null, reason: input.reason, label, by: actor.userId, role, at });
        }
        const asked = await staffRefundsRepo.get(refundId, tx);
        if (asked) {
          assertSameAsk(asked, input, idempotencyKey);
          return { payment: p, request: asked };
        }
        const amount = refundAmount(p, input.amount, role, at);
        const staffMoney = await countStaffMoney(tx, { adminId: actor.userId, userId: p.payerId, amount, threshold: deps.staffApprovalVnd, at });
        const causes: StaffRefundCause[] = amount > deps.staffApprovalVnd ? ['AMOUNT'] : staffMoney.needsApproval ? ['DAILY_TOTAL'] : [];
        const payeeShare = fromEarnings(p, amount, input.reason);
        if (payeeShare > 0 && (await ledger.balance(tx, userAccount('EARNINGS', p.payeeId!).id)) - payeeShare < 0) causes.push('EARNINGS_BELOW_ZERO');
        if (causes.length > 0) {
          const request: StaffRefundRecord = { id: refundId, paymentId: p.id, payerId: p.payerId, payeeId: p.payeeId, requested: input.amount ?? null, amount, reason: input.reason, causes, status: 'PENDING', requestedBy: actor.userId, decidedBy: null, decidedAt: null, decisionReason: null, createdAt: at, updatedAt: at };
          staffRefundsRepo.create(tx, request);
          return { payment: p, request };
        }
        return postRefund(tx, p, { refundId, amount, requested: input.amount ?? null, reason: input.reason, label, by: actor.userId, role, at }, staffMoney.count);
      }),
    );
    if (done.entry?.gateway.state === 'REQUESTED') return answer(await requestGatewayRefund(done.payment, done.entry, clientIp));
    return answer(done.payment, done.request ?? null);
  }

  /**
   * A second administrator approves a PENDING staff refund (the money moves in the same transaction) or someone
   * rejects it. Not the requester (403 STAFF_REFUND_SELF_APPROVAL), nor the payer or payee (403 PAYMENT_SELF_REFUND);
   * a requester who is no longer an active ADMIN with payments.manage no longer vouches (409 STAFF_REFUND_REQUESTER_REVOKED).
   */
  async function decideStaffRefund(action: 'approve' | 'reject', id: string, adminId: string, reason: string | null, clientIp = '127.0.0.1') {
    const at = now();
    let requesterActive = false;
    let payment: PaymentRecord | undefined;
    let posted: { payment: PaymentRecord; entry: RefundEntry } | undefined;
    const { after } = await mapFunds(() =>
      transition(
        staffRefundMachine,
        {
          load: async (tx) => {
            const found = await staffRefundsRepo.get(id, tx);
            if (found && action === 'approve') {
              requesterActive = activeMoneyStaff(await accounts.get(found.requestedBy, tx));
              payment = await paymentsRepo.get(found.paymentId, tx);
            }
            return found;
          },
          ref: () => staffRefundsRepo.ref(id),
          alongside: async (tx, next) => {
            if (action !== 'approve' || !payment) return;
            if (next.kind === 'REVERSAL') {
              posted = await postReversal(tx, payment, failedRefund(payment, next.refundId!), adminId, at);
              return;
            }
            const amount = refundAmount(payment, next.requested ?? undefined, 'admin', at);
            posted = await postRefund(tx, payment, { refundId: id, amount, requested: next.requested, reason: next.reason, label: STAFF_LABEL, by: adminId, role: 'admin', at });
          },
          save: (tx, next) => staffRefundsRepo.save(tx, next),
        },
        {
          action,
          by: adminId,
          now: at,
          reason,
          rolesOf: () => ['admin'],
          apply: (r, to) => {
            if (action === 'approve') {
              if (r.requestedBy === adminId) throw new ForbiddenError('The administrator who asked for a staff refund does not approve it').withCode('STAFF_REFUND_SELF_APPROVAL');
              if (r.payerId === adminId || r.payeeId === adminId) throw new ForbiddenError('Staff do not refund a payment they paid or received; another administrator does').withCode('PAYMENT_SELF_REFUND');
              if (!requesterActive) throw new ConflictError('The administrator who asked for this refund no longer may (not an active ADMIN with payments.manage): reject it').withCode('STAFF_REFUND_REQUESTER_REVOKED');
            }
            return { ...r, status: to, decidedBy: adminId, decidedAt: at, decisionReason: reason, updatedAt: at };
          },
          missing: () => new NotFoundError('No such staff refund'),
        },
      ),
    );
    let moved = posted?.payment;
    if (posted?.entry.gateway.state === 'REQUESTED') moved = await requestGatewayRefund(posted.payment, posted.entry, clientIp);
    return { ...staffRefundView(after), payment: moved ? paymentView(moved, 'staff') : null };
  }

  /** The refund to reverse: only one the gateway finally refused (FAILED). */
  function failedRefund(p: PaymentRecord, refundId: string): RefundEntry {
    const entry = p.refunds.find((r) => r.id === refundId);
    if (!entry) throw new NotFoundError('No such refund');
    if (entry.gateway.state !== 'FAILED') throw new ConflictError(`The refund is ${entry.gateway.state}: only a FAILED one is reversed`).withCode('STAFF_REFUND_REVERSAL');
    return entry;
  }

  /** The refused refund's money, held at the gateway's clearing account, goes to the payer's wallet (one balanced leg). */
  async function postReversal(tx: Transaction, p: PaymentRecord, entry: RefundEntry, adminId: string, at: number, afterReads?: () => void) {
    await ledger.post(tx, [{ kind: 'REFUND', debit: systemAccount(SYSTEM_ACCOUNTS.clearing(p.provider!)), credit: userAccount('WALLET', p.payerId), amount: vnd(entry.amount), memo: `refund reversed to the wallet: ${entry.reason}` }], { operationId: `${p.id}-reverse-${entry.id}`, by: STAFF_LABEL, now: at, paymentId: p.id, ref: p.ref });
    afterReads?.();
    const reversed: RefundEntry = { ...entry, gateway: { state: 'REVERSED', reference: entry.gateway.reference } };
    const next: PaymentRecord = { ...p, refunds: p.refunds.map((r) => (r.id === entry.id ? reversed : r)), updatedAt: at };
    paymentsRepo.save(tx, next);
    recordTransition(tx, paymentsRepo.ref(p.id), { action: 'reverseRefund', from: p.status, to: p.status, by: adminId, at, reason: entry.id });
    return { payment: next, entry: reversed };
  }

  /**
   * A payments.manage administrator puts a refund the gateway finally refused (FAILED) in the payer's wallet instead:
   * the payer is no longer out of the money. The four-eyes rules of staff refunds apply (a PENDING request of kind
   * REVERSAL that a second administrator approves); once per refund.
   */
  async function reverseFailedRefund(adminId: string, paymentId: string, refundId: string) {
    const at = now();
    const requestId = `V${refundId.slice(1)}`;
    const done = await mapFunds(() =>
      inTransaction(async (tx): Promise<{ payment: PaymentRecord; request?: StaffRefundRecord }> => {
        const p = await paymentsRepo.get(paymentId, tx);
        if (!p) throw new NotFoundError('No such payment');
        if (p.payerId === adminId || p.payeeId === adminId) throw new ForbiddenError('Staff do not refund a payment they paid or received; another administrator does').withCode('PAYMENT_SELF_REFUND');
        const asked = await staffRefundsRepo.get(requestId, tx);
        if (asked) return { payment: p, request: asked };
        const entry = failedRefund(p, refundId);
        const staffMoney = await countStaffMoney(tx, { adminId, userId: p.payerId, amount: entry.amount, threshold: deps.staffApprovalVnd, at });
        const causes: StaffRefundCause[] = entry.amount > deps.staffApprovalVnd ? ['AMOUNT'] : staffMoney.needsApproval ? ['DAILY_TOTAL'] : [];
        if (causes.length > 0) {
          const request: StaffRefundRecord = { id: requestId, kind: 'REVERSAL', refundId, paymentId, payerId: p.payerId, payeeId: p.payeeId, requested: entry.amount, amount: entry.amount, reason: entry.reason, causes, status: 'PENDING', requestedBy: adminId, decidedBy: null, decidedAt: null, decisionReason: null, createdAt: at, updatedAt: at };
          staffRefundsRepo.create(tx, request);
          return { payment: p, request };
        }
        return postReversal(tx, p, entry, adminId, at, staffMoney.count);
      }),
    );
    return { ...paymentView(done.payment, 'staff'), refundRequest: done.request ? staffRefundView(done.request) : null };
  }

  async function staffRefunds(filter: { status?: StaffRefundStatus }, page: Pick<PageRequest, 'limit' | 'cursor'>, adminId: string) {
    const result = await staffRefundsRepo.list(filter, { ...page, query: `payments:staff-refunds:${filter.status ?? ''}`, caller: adminId });
    return { items: result.items.map(staffRefundView), nextCursor: result.nextCursor };
  }

  function refundLegs(p: PaymentRecord, amount: Vnd, remaining: number, reason: string): Leg[] {
    const memo = `refund: ${reason}`;
    const payer = userAccount('WALLET', p.payerId);
    const back = p.method === 'GATEWAY' ? systemAccount(SYSTEM_ACCOUNTS.clearing(p.provider!)) : payer;
    if (p.purpose === 'TOPUP') return [{ kind: 'REFUND', debit: payer, credit: back, amount, memo }];
    const revenue = systemAccount(SYSTEM_ACCOUNTS.platformRevenue);
    if (!p.payeeId) return [{ kind: 'REFUND', debit: revenue, credit: back, amount, memo }];
    // The payee gives back their share and the platform its fee, in the proportion they were paid (exact on the last refund).
    const paid = p.heldAmount > 0 ? p.capturedAmount : p.amount;
    const feeTotal = percentOf(vnd(paid), p.feeBp);
    const [fromPayee, fromPlatform] = amount === remaining ? splitRest(p, paid, feeTotal) : allocate(amount, [paid - feeTotal, feeTotal]);
    return [
      ...(fromPayee > 0 ? [{ kind: 'REFUND' as const, debit: userAccount('EARNINGS', p.payeeId), credit: back, amount: fromPayee, memo, allowOverdraft: true }] : []),
      ...(fromPlatform > 0 ? [{ kind: 'REFUND' as const, debit: revenue, credit: back, amount: fromPlatform, memo }] : []),
    ];
  }

  /** The last refund: whatever of each share earlier partial refunds left. */
  function splitRest(p: PaymentRecord, paid: number, feeTotal: number): [Vnd, Vnd] {
    let fromPayee = 0;
    let fromPlatform = 0;
    for (const r of p.refunds) {
      const [a, b] = allocate(vnd(r.amount), [paid - feeTotal, feeTotal]);
      fromPayee += a;
      fromPlatform += b;
    }
    return [vnd(paid - feeTotal - fromPayee), vnd(feeTotal - fromPlatform)];
  }

  /** Sends a refund to the real gateway; the outcome is stored on the refund (FAILED ones are retried by an admin). */
  async function requestGatewayRefund(payment: PaymentRecord, entry: RefundEntry, clientIp: string): Promise<PaymentRecord> {
    let state: 'SETTLED' | 'FAILED' = 'SETTLED';
    let reference: string | null = null;
    try {
      reference = (await gatewayOf(payment.provider!).refund({ paymentId: payment.id, refundId: entry.id, amount: entry.amount, paymentAmount: payment.amount, transactionNo: payment.gateway?.transactionNo ?? null, paidAt: payment.gateway?.paidAt ?? null, createdAt: entry.at, by: entry.by, clientIp, reason: gatewayText(entry.reason) })).reference;
    } catch (err) {
      state = 'FAILED';
      logger.error('gateway refund failed', { paymentId: payment.id, refundId: entry.id, error: err instanceof GatewayError ? err.message : String(err) });
    }
    return inTransaction(async (tx) => {
      const fresh = (await paymentsRepo.get(payment.id, tx))!;
      const refunds = fresh.refunds.map((r) => (r.id === entry.id ? { ...r, gateway: { state, reference } } : r));
      const next = { ...fresh, refunds, updatedAt: now() };
      paymentsRepo.save(tx, next);
      return next;
    });
  }

  /**
   * An administrator sends a refund the gateway refused (FAILED) or never answered (REQUESTED past the in-flight
   * time) again. The claim is one transaction: a second retry while the first is with the gateway is 409.
   */
  async function retryGatewayRefund(paymentId: string, refundId: string, clientIp: string) {
    const at = now();
    const claimed = await inTransaction(async (tx) => {
      const found = await paymentsRepo.get(paymentId, tx);
      const entry = found?.refunds.find((r) => r.id === refundId);
      if (!found || !entry) throw new NotFoundError('No such refund');
      if (refundInFlight(entry, at)) throw new ConflictError('This refund is still with the gateway; try again once it settles', { refundId }).withCode('PAYMENT_REFUND_IN_FLIGHT');
      if (entry.gateway.state !== 'FAILED' && entry.gateway.state !== 'REQUESTED') throw new ConflictError(`The refund is ${entry.gateway.state}`).withCode('PAYMENT_TRANSITION');
      const again: RefundEntry = { ...entry, gateway: { state: 'REQUESTED', reference: null }, requestedAt: at };
      const next = { ...found, refunds: found.refunds.map((r) => (r.id === refundId ? again : r)), updatedAt: at };
      paymentsRepo.save(tx, next);
      return { payment: next, entry: again };
    });
    return paymentView(await requestGatewayRefund(claimed.payment, claimed.entry, clientIp));
  }

  async function events(viewer: PaymentViewer, id: string) {
    const payment = await get(viewer, id);
    const items = await paymentEvents(id);
    return { items: viewer.staff ? items : items.map((e) => ({ ...e, by: payerLabel(e.by, payment.payerId) })) };
  }

  function methods() {
    return {
      currency: 'VND' as const,
      methods: ['WALLET', 'CASH', 'GATEWAY'] as PaymentMethod[],
      providers: (['VNPAY', 'MOMO', 'MOCK'] as const).map((provider) => ({ provider, available: deps.gateways[provider] !== undefined })),
      topup: { min: 10_000, max: 50_000_000 },
      refundWindowDays: deps.refundWindowDays,
      paymentExpirySec: deps.expirySec,
    };
  }

  return { topup, events, handleNotice, handleMockNotice, get, list, cancel, charge, tip, hold, capture, release, refund, decideStaffRefund, staffRefunds, reverseFailedRefund, retryGatewayRefund, expireIfDue, methods, current };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
