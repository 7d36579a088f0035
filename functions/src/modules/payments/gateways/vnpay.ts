import { createHmac, timingSafeEqual } from 'node:crypto';
import { GatewayError, postJson, vietnamTimestamp, type CreateGatewayPayment, type Gateway, type GatewayNotice, type GatewayRefund } from './gateway';

// VNPay 2.1.0. The payment URL carries the vnp_* fields sorted by name, form-encoded (space as '+'), and
// vnp_SecureHash = hex HMAC-SHA512 of exactly that query string. The IPN (GET, server to server) carries the
// same kind of signed query; amounts are VND × 100.

export interface VnpayConfig {
  tmnCode: string;
  hashSecret: string;
  payUrl: string;
  apiUrl: string;
  returnUrl: string;
}

/** encodeURIComponent with space as '+': the encoding VNPay's reference code signs. */
export function vnpayEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** The signed data: `k=v&…` over the non-empty fields sorted by name (the hash fields themselves excluded). */
export function vnpaySignData(params: Readonly<Record<string, string>>): string {
  return Object.keys(params)
    .filter((k) => k !== 'vnp_SecureHash' && k !== 'vnp_SecureHashType' && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${vnpayEncode(k)}=${vnpayEncode(params[k])}`)
    .join('&');
}

export function vnpaySign(params: Readonly<Record<string, string>>, secret: string): string {
  return createHmac('sha512', secret)
    .update(Buffer.from(vnpaySignData(params), 'utf8'))
    .digest('hex');
}

export function vnpayPaymentUrl(config: VnpayConfig, input: CreateGatewayPayment): string {
  const params: Record<string, string> = {
    vnp_Version: '2.1.0',
    vnp_Command: 'pay',
    vnp_TmnCode: config.tmnCode,
    vnp_Amount: String(input.amount * 100),
    vnp_CurrCode: 'VND',
    vnp_TxnRef: input.paymentId,
    vnp_OrderInfo: input.description,
    vnp_OrderType: 'other',
    vnp_Locale: 'vn',
    vnp_ReturnUrl: config.returnUrl,
    vnp_IpAddr: input.clientIp,
    vnp_CreateDate: vietnamTimestamp(input.createdAt),
    vnp_ExpireDate: vietnamTimestamp(input.expiresAt),
  };
  return `${config.payUrl}?${vnpaySignData(params)}&vnp_SecureHash=${vnpaySign(params, config.hashSecret)}`;
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase(), 'utf8');
  const y = Buffer.from(b.toLowerCase(), 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export type VnpayParse = { ok: true; notice: GatewayNotice } | { ok: false; reason: 'signature' | 'malformed' };

/** Verifies and reads an IPN or return query (values as decoded by the HTTP server). */
export function parseVnpayQuery(query: Readonly<Record<string, unknown>>, secret: string): VnpayParse {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (k.startsWith('vnp_') && typeof v === 'string') params[k] = v;
  const hash = params.vnp_SecureHash;
  if (!hash || !/^[0-9a-fA-F]{128}$/.test(hash) || !sameHex(hash, vnpaySign(params, secret))) return { ok: false, reason: 'signature' };
  const hundredths = Number(params.vnp_Amount);
  if (!params.vnp_TxnRef || !Number.isSafeInteger(hundredths) || hundredths <= 0 || hundredths % 100 !== 0) return { ok: false, reason: 'malformed' };
  return {
    ok: true,
    notice: {
      provider: 'VNPAY',
      paymentId: params.vnp_TxnRef,
      amount: hundredths / 100,
      success: params.vnp_ResponseCode === '00' && (params.vnp_TransactionStatus ?? '00') === '00',
      transactionNo: params.vnp_TransactionNo ?? null,
      bankCode: params.vnp_BankCode ?? null,
      responseCode: params.vnp_ResponseCode ?? '',
      paidAt: params.vnp_PayDate ?? null,
    },
  };
}

/** VNPay's IPN answer codes. */
export const VNPAY_IPN_ANSWERS = {
  confirmed: { RspCode: '00', Message: 'Confirm Success' },
  unknownOrder: { RspCode: '01', Message: 'Order not found' },
  alreadyConfirmed: { RspCode: '02', Message: 'Order already confirmed' },
  invalidAmount: { RspCode: '04', Message: 'Invalid amount' },
  invalidSignature: { RspCode: '97', Message: 'Invalid signature' },
  error: { RspCode: '99', Message: 'Unknown error' },
} as const;

/** The refund request's checksum: HMAC-SHA512 over its fields joined by '|' in VNPay's fixed order. */
export function vnpayRefundHash(fields: Readonly<Record<string, string>>, secret: string): string {
  const order = [
    'vnp_RequestId',
    'vnp_Version',
    'vnp_Command',
    'vnp_TmnCode',
    'vnp_TransactionType',
    'vnp_TxnRef',
    'vnp_Amount',
    'vnp_TransactionNo',
    'vnp_TransactionDate',
    'vnp_CreateBy',
    'vnp_CreateDate',
    'vnp_IpAddr',
    'vnp_OrderInfo',
  ];
  return createHmac('sha512', secret)
    .update(order.map((k) => fields[k] ?? '').join('|'), 'utf8')
    .digest('hex');
}

export function vnpayGateway(config: VnpayConfig): Gateway {
  return {
    provider: 'VNPAY',
    async createPayment(input) {
      return { paymentUrl: vnpayPaymentUrl(config, input) };
    },
    async refund(input: GatewayRefund) {
      const fields: Record<string, string> = {
        vnp_RequestId: input.refundId.replace(/[^A-Za-z0-9]/g, '').slice(0, 32),
        vnp_Version: '2.1.0',
        vnp_Command: 'refund',
        vnp_TmnCode: config.tmnCode,
        vnp_TransactionType: input.amount === input.paymentAmount ? '02' : '03',
        vnp_TxnRef: input.paymentId,
        vnp_Amount: String(input.amount * 100),
        vnp_TransactionNo: input.transactionNo ?? '',
        vnp_TransactionDate: input.paidAt ?? '',
        vnp_CreateBy: input.by,
        vnp_CreateDate: vietnamTimestamp(input.createdAt),
        vnp_IpAddr: input.clientIp,
        vnp_OrderInfo: input.reason,
      };
      const { status, json } = await postJson(config.apiUrl, { ...fields, vnp_SecureHash: vnpayRefundHash(fields, config.hashSecret) });
      if (status !== 200 || json.vnp_ResponseCode !== '00')
        throw new GatewayError('VNPAY', `refund refused (HTTP ${status}, code ${String(json.vnp_ResponseCode ?? '?')})`, String(json.vnp_ResponseCode ?? ''));
      return { reference: String(json.vnp_TransactionNo ?? fields.vnp_RequestId) };
    },
  };
}
