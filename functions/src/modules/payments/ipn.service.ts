import { BadRequestError, ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { logger } from '../../platform/core/logging/logger';
import { parseMomoIpn, type MomoConfig } from './gateways/momo';
import { parseVnpayQuery, VNPAY_IPN_ANSWERS } from './gateways/vnpay';
import type { PaymentsService } from './payments.service';

// Gateway notifications (IPN) and the payer's redirects back. IPNs are public and may repeat: each is verified
// (signature, partner, our order, the stored amount) before the one shared settle path runs, which is idempotent.
// Redirects never move money: they report what our record says.

type Query = Readonly<Record<string, string | string[]>>;
const firstValues = (query: Query) => Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));

export function createIpnService(deps: {
  payments: PaymentsService;
  vnpaySecret?: string;
  momo?: Pick<MomoConfig, 'partnerCode' | 'accessKey' | 'secretKey'>;
}) {
  async function vnpayIpn(query: Query) {
    if (!deps.vnpaySecret) return VNPAY_IPN_ANSWERS.error;
    const parsed = parseVnpayQuery(firstValues(query), deps.vnpaySecret);
    if (!parsed.ok) {
      logger.warn('VNPay IPN refused', { reason: parsed.reason, txnRef: firstValues(query).vnp_TxnRef ?? null });
      return parsed.reason === 'signature' ? VNPAY_IPN_ANSWERS.invalidSignature : VNPAY_IPN_ANSWERS.error;
    }
    try {
      const outcome = await deps.payments.handleNotice(parsed.notice);
      if (outcome === 'unknown-order') return VNPAY_IPN_ANSWERS.unknownOrder;
      if (outcome === 'amount-mismatch') return VNPAY_IPN_ANSWERS.invalidAmount;
      if (outcome === 'duplicate') return VNPAY_IPN_ANSWERS.alreadyConfirmed;
      return VNPAY_IPN_ANSWERS.confirmed;
    } catch (err) {
      // VNPay retries on 99: nothing was written (one transaction), so the retry starts clean.
      logger.error('VNPay IPN failed', { paymentId: parsed.notice.paymentId, error: (err as Error).message });
      return VNPAY_IPN_ANSWERS.error;
    }
  }

  async function vnpayReturn(query: Query) {
    const parsed = deps.vnpaySecret ? parseVnpayQuery(firstValues(query), deps.vnpaySecret) : ({ ok: false } as const);
    if (!parsed.ok) return { paymentId: null, verified: false, status: null, gatewaySuccess: null };
    const payment = await deps.payments.current(parsed.notice.paymentId);
    return { paymentId: parsed.notice.paymentId, verified: true, status: payment?.status ?? null, gatewaySuccess: parsed.notice.success };
  }

  async function momoIpn(body: Readonly<Record<string, unknown>>): Promise<void> {
    if (!deps.momo) throw new NotFoundError('MoMo is not configured here');
    const parsed = parseMomoIpn(body, deps.momo);
    if (!parsed.ok) {
      logger.warn('MoMo IPN refused', { reason: parsed.reason, orderId: typeof body.orderId === 'string' ? body.orderId : null });
      throw new BadRequestError(`The notification does not verify (${parsed.reason})`).withCode('IPN_SIGNATURE_INVALID');
    }
    const outcome = await deps.payments.handleNotice(parsed.notice);
    if (outcome === 'unknown-order') throw new NotFoundError('No such order').withCode('IPN_UNKNOWN_ORDER');
    if (outcome === 'amount-mismatch') throw new ConflictError('The amount differs from the order').withCode('IPN_AMOUNT_MISMATCH');
  }

  async function momoReturn(query: Query) {
    const values = firstValues(query);
    const parsed = deps.momo ? parseMomoIpn(values, deps.momo) : ({ ok: false } as const);
    if (!parsed.ok) return { paymentId: null, verified: false, status: null, gatewaySuccess: null };
    const payment = await deps.payments.current(parsed.notice.paymentId);
    return { paymentId: parsed.notice.paymentId, verified: true, status: payment?.status ?? null, gatewaySuccess: parsed.notice.success };
  }

  async function mockReturn(paymentId: string) {
    const payment = await deps.payments.current(paymentId);
    if (!payment || payment.provider !== 'MOCK') throw new NotFoundError('No such mock payment');
    return {
      paymentId,
      verified: true,
      status: payment.status,
      gatewaySuccess: payment.status === 'SUCCEEDED' || payment.status === 'REFUNDED' || payment.status === 'PARTIALLY_REFUNDED',
    };
  }

  return { vnpayIpn, vnpayReturn, momoIpn, momoReturn, mockReturn };
}

export type IpnService = ReturnType<typeof createIpnService>;
