import * as z from 'zod/mini';
import { describe, lazySchema, nullableTimestamp, timestamp, type RecordOf } from '../../platform/kits/firestore/documents';
import type { Identified } from '../../platform/kits/firestore/records';
import { defineDeadline } from '../../platform/kits/deadlines/deadlines';
import { defineMachine } from '../../platform/kits/state-machine/state-machine';
import { iso, isoOrNull } from '../../platform/kits/time/time';
import { PROVIDERS } from '../wallet';
import { PAYMENT_EXPIRY_QUEUE, PAYMENT_METHODS, PAYMENT_PURPOSES, PAYMENT_STATUSES, type PaymentStatus } from './payments.collections';

export { PAYMENT_EXPIRY_QUEUE, PAYMENT_TIPS, PAYMENTS, STAFF_REFUNDS } from './payments.collections';

export const TOPUP_MIN_VND = 10_000;
export const TOPUP_MAX_VND = 50_000_000;
/** Partial refunds of one payment (each is one entry of `refunds`). */
export const MAX_REFUNDS = 20;

export { PAYMENT_METHODS, PAYMENT_PURPOSES, PAYMENT_STATUSES, type PaymentMethod, type PaymentPurpose, type PaymentStatus } from './payments.collections';

export type PaymentAction = 'settle' | 'fail' | 'cancel' | 'expire' | 'capture' | 'release' | 'refund' | 'refundPart';
export type PaymentActor = 'payer' | 'admin' | 'system' | 'gateway';

// One payment per attempt. A gateway payment waits PENDING for the gateway's notification; money the gateway
// confirms after the payer cancelled or after expiry is still money received, so `settle` accepts those too.
// A hold (AUTHORIZED) is captured (SUCCEEDED) or released (CANCELLED). Refunds follow success.
export const paymentMachine = defineMachine<PaymentStatus, PaymentAction, PaymentActor>({
  entity: 'payment',
  states: PAYMENT_STATUSES,
  moves: {
    settle: { from: ['PENDING', 'EXPIRED', 'CANCELLED'], to: 'SUCCEEDED', by: 'gateway' },
    fail: { from: 'PENDING', to: 'FAILED', by: 'gateway' },
    cancel: { from: 'PENDING', to: 'CANCELLED', by: ['payer', 'system'] },
    expire: { from: 'PENDING', to: 'EXPIRED', by: 'system' },
    capture: { from: 'AUTHORIZED', to: 'SUCCEEDED', by: 'system' },
    release: { from: 'AUTHORIZED', to: 'CANCELLED', by: 'system' },
    refund: { from: ['SUCCEEDED', 'PARTIALLY_REFUNDED'], to: 'REFUNDED', by: ['payer', 'admin', 'system'] },
    refundPart: { from: ['SUCCEEDED', 'PARTIALLY_REFUNDED'], to: 'PARTIALLY_REFUNDED', by: ['payer', 'admin', 'system'] },
  },
  codes: { transition: 'PAYMENT_TRANSITION', actor: 'PAYMENT_TRANSITION' },
});

const refundEntry = () =>
  z.object({
    id: describe(z.string(), 'The refund id.'),
    amount: describe(z.number(), 'VND.'),
    reason: z.string(),
    by: describe(z.string(), "The payer's own id, or STAFF / SERVICE: payers read this record, so staff ids stay in the payment's events."),
    at: timestamp('when the refund was made.'),
    gateway: describe(
      z.object({ state: z.enum(['SETTLED', 'NOT_NEEDED', 'REQUESTED', 'FAILED', 'REVERSED']), reference: z.nullable(z.string()) }),
      "The gateway's side: NOT_NEEDED for wallet money, SETTLED at once in mock mode, else REQUESTED then SETTLED or FAILED; REVERSED: the gateway finally refused it and staff put the money in the payer's wallet instead.",
    ),
    requestedAt: describe(
      z.optional(nullableTimestamp('when the gateway was last asked.')),
      'Firestore Timestamp or null: when the gateway was last asked (a REQUESTED refund younger than 5 minutes is in flight).',
    ),
    requested: describe(z.optional(z.nullable(z.number())), 'What the caller asked for (null: all that was left): a keyless repeat answers only the same ask.'),
  });
export type RefundEntry = z.output<ReturnType<typeof refundEntry>>;

export const STAFF_REFUND_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type StaffRefundStatus = (typeof STAFF_REFUND_STATUSES)[number];
/** Why a staff refund waits for a second administrator. */
export type StaffRefundCause = 'AMOUNT' | 'DAILY_TOTAL' | 'EARNINGS_BELOW_ZERO';

// Four eyes on staff refunds, as on wallet adjustments: one above WALLET_ADJUSTMENT_APPROVAL_VND (alone or with the
// day's staff money) or one that would take the payee's earnings below zero waits PENDING until a second
// payments.manage administrator approves it (the money moves then) or someone rejects it.
export const staffRefundMachine = defineMachine<StaffRefundStatus, 'approve' | 'reject', 'admin'>({
  entity: 'staff refund',
  states: STAFF_REFUND_STATUSES,
  moves: {
    approve: { from: 'PENDING', to: 'APPROVED', by: 'admin' },
    reject: { from: 'PENDING', to: 'REJECTED', by: 'admin' },
  },
  codes: { transition: 'STAFF_REFUND_TRANSITION', actor: 'STAFF_REFUND_TRANSITION' },
});

/** `payment_staff_refunds/{refundId}`: a staff refund waiting for (or decided by) a second administrator; staff-only. */
export interface StaffRefundRecord {
  id: string;
  /** REFUND: a staff refund; REVERSAL: a FAILED refund's money to the payer's wallet (`refundId`). Absent: REFUND. */
  kind?: 'REFUND' | 'REVERSAL';
  refundId?: string | null;
  paymentId: string;
  payerId: string;
  payeeId: string | null;
  /** What was asked (null: all that is left at approval). */
  requested: number | null;
  /** What it came to when asked. */
  amount: number;
  reason: string;
  causes: StaffRefundCause[];
  status: StaffRefundStatus;
  requestedBy: string;
  decidedBy: string | null;
  decidedAt: number | null;
  decisionReason: string | null;
  createdAt: number;
  updatedAt: number;
}

export function staffRefundView(r: StaffRefundRecord) {
  return {
    ...r,
    kind: r.kind ?? 'REFUND',
    refundId: r.refundId ?? null,
    decidedAt: isoOrNull(r.decidedAt),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/** A gateway refund request answers within this; a REQUESTED one older than that crashed mid-call and may be sent again. */
export const REFUND_IN_FLIGHT_MS = 5 * 60_000;

/** Whether a refund's gateway request is still in flight (another one for the payment waits until it settles). */
export function refundInFlight(r: Pick<RefundEntry, 'gateway' | 'requestedAt' | 'at'>, now: number): boolean {
  return r.gateway.state === 'REQUESTED' && now - (r.requestedAt ?? r.at) < REFUND_IN_FLIGHT_MS;
}

const gatewayInfo = () =>
  z.object({
    orderRef: describe(z.string(), 'Our order reference at the gateway (vnp_TxnRef, MoMo orderId): the payment id.'),
    transactionNo: z.nullable(z.string()),
    bankCode: z.nullable(z.string()),
    responseCode: z.nullable(z.string()),
    paidAt: describe(
      z.nullable(z.string()),
      "The gateway's own pay time, verbatim (VNPay vnp_PayDate yyyyMMddHHmmss, MoMo responseTime): a gateway reference sent back in refund requests, not a Firestore Timestamp.",
    ),
  });
export type GatewayInfo = z.output<ReturnType<typeof gatewayInfo>>;

/** `payments/{paymentId}`: a payment its payer reads live (status, refunds). */
export const paymentDocument = lazySchema(() =>
  describe(
    z.object({
      payerId: describe(z.string(), 'The payer: the only one who may read it (firestore.rules).'),
      amount: describe(z.number(), 'VND.'),
      currency: z.literal('VND'),
      purpose: describe(z.enum(PAYMENT_PURPOSES), 'What it pays for.'),
      ref: describe(z.nullable(z.object({ type: z.string(), id: z.string() })), 'The ride, order… it pays for.'),
      description: z.string(),
      method: describe(z.enum(PAYMENT_METHODS), 'WALLET, CASH or GATEWAY.'),
      provider: describe(z.nullable(z.enum(PROVIDERS)), 'GATEWAY: VNPAY, MOMO or MOCK.'),
      status: describe(
        z.enum(PAYMENT_STATUSES),
        'PENDING → SUCCEEDED | FAILED | CANCELLED | EXPIRED; AUTHORIZED (a hold) → SUCCEEDED | CANCELLED; then REFUNDED, PARTIALLY_REFUNDED.',
      ),
      payeeId: describe(z.nullable(z.string()), "Who receives the money (a driver's or merchant's earnings); null: the platform."),
      feeBp: describe(z.number(), "The platform's share of what the payee receives, in basis points."),
      heldAmount: describe(z.number(), 'VND held (AUTHORIZED).'),
      capturedAmount: describe(z.number(), 'VND captured from the hold.'),
      refundedAmount: describe(z.number(), 'VND refunded so far.'),
      refunds: describe(z.array(refundEntry()), 'Each refund (partial refunds: one entry each).'),
      paymentUrl: describe(z.nullable(z.string()), 'GATEWAY: where the payer pays.'),
      gateway: describe(z.nullable(gatewayInfo()), "The gateway's answer."),
      failureReason: z.nullable(z.string()),
      expiresAt: nullableTimestamp('when a PENDING gateway payment expires.'),
      succeededAt: nullableTimestamp('when it succeeded.'),
      createdAt: timestamp('when it was created.'),
      updatedAt: timestamp('last change.'),
    }),
    'A payment.',
  ),
);
export type PaymentRecord = Identified & RecordOf<typeof paymentDocument>;

/** Who sees a payment: its payer (or any non-staff caller) or a payments.manage administrator. */
export type PaymentAudience = 'payer' | 'staff';

export function paymentView(p: PaymentRecord, audience: PaymentAudience = 'staff') {
  return {
    id: p.id,
    payerId: p.payerId,
    amount: p.amount,
    currency: p.currency,
    purpose: p.purpose,
    ref: p.ref,
    description: p.description,
    method: p.method,
    provider: p.provider,
    status: p.status,
    payeeId: p.payeeId,
    heldAmount: p.heldAmount,
    capturedAmount: p.capturedAmount,
    refundedAmount: p.refundedAmount,
    refundable: refundableAmount(p),
    refunds: p.refunds.map((r) => ({
      id: r.id,
      amount: r.amount,
      reason: r.reason,
      by: audience === 'payer' ? payerLabel(r.by, p.payerId) : r.by,
      at: iso(r.at),
      gateway: r.gateway,
    })),
    paymentUrl: p.status === 'PENDING' ? p.paymentUrl : null,
    gateway: p.gateway,
    failureReason: p.failureReason,
    expiresAt: isoOrNull(p.expiresAt),
    succeededAt: isoOrNull(p.succeededAt),
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  };
}
export type PaymentView = ReturnType<typeof paymentView>;

/** What a payer sees of who acted: themselves, a system actor, or STAFF (never a staff member's id). */
export function payerLabel(by: string, payerId: string): string {
  return by === payerId || by.startsWith('system:') || by === 'SERVICE' ? by : 'STAFF';
}

/** What is still refundable: what was paid (or captured) minus what was refunded. */
export function refundableAmount(p: Pick<PaymentRecord, 'status' | 'amount' | 'capturedAmount' | 'refundedAmount' | 'heldAmount'>): number {
  if (p.status !== 'SUCCEEDED' && p.status !== 'PARTIALLY_REFUNDED') return 0;
  const paid = p.heldAmount > 0 ? p.capturedAmount : p.amount;
  return Math.max(0, paid - p.refundedAmount);
}

/** A PENDING payment past its expiry reads as EXPIRED even before its timer has run (a lost task cannot leave it open). */
export function isOverdue(p: Pick<PaymentRecord, 'status' | 'expiresAt'>, now: number): boolean {
  return PAYMENT_DEADLINE.isDue(p, now);
}

// A gateway payment's deadline: PENDING at `expiresAt` it is EXPIRED, by the `paymentExpiry` task (one per payment,
// retried with backoff until due) or by the next read. A notice that arrives later still settles it (money received).
export const PAYMENT_DEADLINE = defineDeadline({
  entity: 'payment',
  queue: PAYMENT_EXPIRY_QUEUE,
  idField: 'paymentId',
  taskId: (paymentId) => `expiry-${paymentId}`,
  dueAt: (p: Pick<PaymentRecord, 'status' | 'expiresAt'>) => (p.status === 'PENDING' ? p.expiresAt : null),
});
