import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { DocumentIdSchema } from '../../platform/core/http/ids';
import { VndSchema } from '../../platform/kits/money/money.schemas';
import { PROVIDERS } from '../wallet';
import { PAYMENT_METHODS, PAYMENT_PURPOSES, PAYMENT_STATUSES, STAFF_REFUND_STATUSES, TOPUP_MAX_VND, TOPUP_MIN_VND } from './payments.model';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

const Amount = z.number().int();

export const RefundEntrySchema = z
  .object({
    id: z.string(),
    amount: Amount,
    reason: z.string(),
    by: z.string().describe('Who refunded: the payer’s id, system:<module>, SERVICE (the selling side) or STAFF (an administrator, whose id payers never see)'),
    at: IsoTimeSchema,
    gateway: z.object({
      state: z
        .enum(['SETTLED', 'NOT_NEEDED', 'REQUESTED', 'FAILED', 'REVERSED'])
        .describe(
          'The money back at the gateway: NOT_NEEDED for wallet money; FAILED ones are retried by an administrator, or REVERSED: put in the payer’s wallet instead',
        ),
      reference: z.string().nullable(),
    }),
  })
  .meta({ id: 'Refund' });

export const PaymentSchema = z
  .object({
    id: z.string().describe('Also the order reference at the gateway (vnp_TxnRef, MoMo orderId)'),
    payerId: z.string(),
    amount: Amount.describe('VND'),
    currency: z.literal('VND'),
    purpose: z.enum(PAYMENT_PURPOSES),
    ref: z.object({ type: z.string(), id: z.string() }).nullable().describe('The ride, order or booking paid for'),
    description: z.string(),
    method: z.enum(PAYMENT_METHODS),
    provider: z.enum(PROVIDERS).nullable(),
    status: z.enum(PAYMENT_STATUSES),
    payeeId: z.string().nullable(),
    heldAmount: Amount.describe('A hold (AUTHORIZED): the amount set aside in the wallet'),
    capturedAmount: Amount,
    refundedAmount: Amount,
    refundable: Amount.describe('What can still be refunded'),
    refunds: z.array(RefundEntrySchema),
    paymentUrl: z.string().nullable().describe('PENDING gateway payments: where the app sends the payer (VNPay page, MoMo pay URL)'),
    gateway: z
      .object({
        orderRef: z.string(),
        transactionNo: z.string().nullable(),
        bankCode: z.string().nullable(),
        responseCode: z.string().nullable(),
        paidAt: z
          .string()
          .nullable()
          .describe(
            'The payment time as the gateway sent it, in its own format (VNPay: yyyyMMddHHmmss in Vietnam time; MoMo: epoch milliseconds; mock: ISO 8601): kept verbatim because refunds must quote it back',
          ),
      })
      .nullable(),
    failureReason: z.string().nullable(),
    expiresAt: IsoTimeSchema.nullable().describe('A PENDING payment not paid by then becomes EXPIRED'),
    succeededAt: IsoTimeSchema.nullable(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'Payment' });

export const PaymentListSchema = z.object({ items: z.array(PaymentSchema), nextCursor: z.string().nullable() }).meta({ id: 'PaymentList' });

export const TopupBodySchema = z
  .object({
    amount: VndSchema.refine((n) => n >= TOPUP_MIN_VND && n <= TOPUP_MAX_VND, { message: `must be ${TOPUP_MIN_VND} to ${TOPUP_MAX_VND} VND` }),
    provider: z.enum(PROVIDERS).describe('MOCK pays at once (only where PAYMENTS_MOCK is on)'),
  })
  .meta({ id: 'TopupRequest' });

export const RefundBodySchema = z
  .object({
    paymentId: DocumentIdSchema,
    amount: VndSchema.optional().describe('Part of the payment; absent: all that is left'),
    reason: z.string().trim().min(3).max(300),
  })
  .meta({ id: 'RefundRequest' });

const oneFilter = (q: { status?: unknown; purpose?: unknown; method?: unknown; provider?: unknown }) =>
  [q.status, q.purpose, q.method, q.provider].filter((v) => v !== undefined).length <= 1;
const ONE_FILTER = { message: 'use at most one of status, purpose, method and provider', path: ['status'] };

export const MyPaymentsQuerySchema = PageQuerySchema.extend({
  status: z.enum(PAYMENT_STATUSES).optional(),
  purpose: z.enum(PAYMENT_PURPOSES).optional(),
}).refine(oneFilter, ONE_FILTER);

export const AdminPaymentsQuerySchema = PageQuerySchema.extend({
  status: z.enum(PAYMENT_STATUSES).optional(),
  purpose: z.enum(PAYMENT_PURPOSES).optional(),
  method: z.enum(PAYMENT_METHODS).optional(),
  provider: z.enum(PROVIDERS).optional(),
  payerId: DocumentIdSchema.optional(),
}).refine(oneFilter, ONE_FILTER);

export const PaymentMethodsSchema = z
  .object({
    currency: z.literal('VND'),
    methods: z.array(z.enum(PAYMENT_METHODS)),
    providers: z.array(z.object({ provider: z.enum(PROVIDERS), available: z.boolean() })),
    topup: z.object({ min: Amount, max: Amount }),
    refundWindowDays: z.number().int(),
    paymentExpirySec: z.number().int(),
  })
  .meta({ id: 'PaymentMethods' });

export const PaymentEventSchema = z
  .object({
    action: z.string(),
    from: z.enum(PAYMENT_STATUSES),
    to: z.enum(PAYMENT_STATUSES),
    by: z.string().describe('Staff see the actor’s id; payers see theirs, system:<…>, or STAFF'),
    at: IsoTimeSchema,
    reason: z.string().nullable(),
  })
  .meta({ id: 'PaymentEvent' });
export const PaymentEventListSchema = z.object({ items: z.array(PaymentEventSchema) }).meta({ id: 'PaymentEventList' });

// Gateway query strings arrive as they are: the signature decides, not a schema (every field is kept for it).
const QueryValue = z.union([z.string(), z.array(z.string())]).optional();
const field = (description: string) => QueryValue.describe(description);
export const VnpayQuerySchema = z.looseObject({
  vnp_TxnRef: field('Our payment id'),
  vnp_Amount: field('VND × 100'),
  vnp_ResponseCode: field('00 = paid'),
  vnp_TransactionStatus: field('00 = paid'),
  vnp_TransactionNo: field("VNPay's transaction number"),
  vnp_BankCode: field('Bank used'),
  vnp_PayDate: field('yyyyMMddHHmmss, GMT+7'),
  vnp_SecureHash: field('HMAC-SHA512 of the other vnp_* fields'),
});
export const MomoQuerySchema = z.looseObject({
  orderId: field('Our payment id'),
  amount: field('VND'),
  resultCode: field('0 = paid'),
  signature: field('HMAC-SHA256 over the documented fields'),
});
export type GatewayQuery = Record<string, string | string[]>;
export const GatewayBodySchema = z.record(z.string(), z.unknown());

export const VnpayIpnAnswerSchema = z.object({ RspCode: z.string(), Message: z.string() }).meta({ id: 'VnpayIpnAnswer' });

export const GatewayReturnSchema = z
  .object({
    paymentId: z.string().nullable(),
    verified: z.boolean().describe('The signature of the redirect checked out'),
    status: z.enum(PAYMENT_STATUSES).nullable().describe('Our record’s status (the IPN, not the redirect, moves money)'),
    gatewaySuccess: z.boolean().nullable().describe('What the gateway told the payer'),
  })
  .meta({ id: 'GatewayReturn' });

export const RefundParamsSchema = z.object({ id: DocumentIdSchema, refundId: DocumentIdSchema });
export const MockReturnQuerySchema = z.object({ paymentId: DocumentIdSchema });

export const StaffRefundSchema = z
  .object({
    id: z.string().describe('Also the refund’s id once approved'),
    kind: z.enum(['REFUND', 'REVERSAL']).describe('REVERSAL: a FAILED refund’s money to the payer’s wallet'),
    refundId: z.string().nullable().describe('REVERSAL: the refund reversed'),
    paymentId: z.string(),
    payerId: z.string(),
    payeeId: z.string().nullable(),
    requested: Amount.nullable().describe('What was asked; null: all that is left at approval'),
    amount: Amount.describe('What it came to when asked'),
    reason: z.string(),
    causes: z
      .array(z.enum(['AMOUNT', 'DAILY_TOTAL', 'EARNINGS_BELOW_ZERO']))
      .describe(
        'Why a second administrator decides: above WALLET_ADJUSTMENT_APPROVAL_VND, the day’s staff money past it, or the payee’s earnings would go below zero',
      ),
    status: z.enum(STAFF_REFUND_STATUSES),
    requestedBy: z.string(),
    decidedBy: z.string().nullable(),
    decidedAt: IsoTimeSchema.nullable(),
    decisionReason: z.string().nullable(),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .meta({ id: 'StaffRefund' });

export const StaffRefundResultSchema = PaymentSchema.extend({
  refundRequest: StaffRefundSchema.nullable().describe('Set when the refund waits for a second administrator (PENDING): the payment is unchanged until then'),
}).meta({ id: 'StaffRefundResult' });

export const StaffRefundDecisionSchema = StaffRefundSchema.extend({
  payment: PaymentSchema.nullable().describe('Approved: the payment with its new refund'),
}).meta({ id: 'StaffRefundDecision' });
export const StaffRefundListSchema = z.object({ items: z.array(StaffRefundSchema), nextCursor: z.string().nullable() }).meta({ id: 'StaffRefundList' });
export const StaffRefundQuerySchema = PageQuerySchema.extend({ status: z.enum(STAFF_REFUND_STATUSES).optional() });
export const StaffRefundApproveBodySchema = z.object({ reason: z.string().trim().min(1).max(300).optional() }).meta({ id: 'StaffRefundApproval' });
export const StaffRefundRejectBodySchema = z.object({ reason: z.string().trim().min(1).max(300) }).meta({ id: 'StaffRefundRejection' });
