import { createHmac } from 'node:crypto';
import { call, type ApiResponse } from './api';
import { SINKS_URL } from './sinks';

// A fake VNPay and MoMo on the test side: they check the API's signed requests as the real gateways do and
// deliver signed notifications (IPN) to the API under test. The signing is written here again on purpose, from
// the providers' documents, so a mistake shared with the API's own code would not pass unnoticed.

// The stack's sandbox credentials (scripts/lib/profiles.mjs LOCAL_GATEWAYS), as npm test passes them.
export const GATEWAY_ENV = {
  vnpaySecret: process.env.VNPAY_HASH_SECRET ?? 'LOCALVNPAYHASHSECRET0123456789AB',
  vnpayTmn: process.env.VNPAY_TMN_CODE ?? 'SUPERAPP',
  momoPartner: process.env.MOMO_PARTNER_CODE ?? 'MOMOSUPERAPP',
  momoAccess: process.env.MOMO_ACCESS_KEY ?? 'localMomoAccessKey',
  momoSecret: process.env.MOMO_SECRET_KEY ?? 'localMomoSecretKey0123456789abcd',
};

const formEncode = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');

export function vnpayQueryString(fields: Record<string, string>, secret = GATEWAY_ENV.vnpaySecret): string {
  const data = Object.keys(fields)
    .sort()
    .map((k) => `${formEncode(k)}=${formEncode(fields[k])}`)
    .join('&');
  return `${data}&vnp_SecureHash=${createHmac('sha512', secret).update(data).digest('hex')}`;
}

/** What VNPay reads from a payment URL, after checking its hash like the gateway does. */
export function readVnpayUrl(paymentUrl: string): Record<string, string> {
  const url = new URL(paymentUrl);
  const fields = Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'vnp_SecureHash'));
  const expected = new URL(`http://x/?${vnpayQueryString(fields)}`).searchParams.get('vnp_SecureHash');
  if (expected !== url.searchParams.get('vnp_SecureHash')) throw new Error('the payment URL is not signed with the merchant secret');
  return fields;
}

/** VNPay's notification for a payment URL: paid (00) unless told otherwise; `amount` overrides vnp_Amount (VND). */
export function vnpayNotice(
  paymentUrl: string,
  opts: { responseCode?: string; amount?: number; txnRef?: string; transactionNo?: string } = {},
): Record<string, string> {
  const order = readVnpayUrl(paymentUrl);
  const code = opts.responseCode ?? '00';
  return {
    vnp_Amount: opts.amount === undefined ? order.vnp_Amount : String(opts.amount * 100),
    vnp_BankCode: 'NCB',
    vnp_BankTranNo: 'VNP14422574',
    vnp_CardType: 'ATM',
    vnp_OrderInfo: order.vnp_OrderInfo,
    vnp_PayDate: '20261124103500',
    vnp_ResponseCode: code,
    vnp_TmnCode: order.vnp_TmnCode,
    vnp_TransactionNo: opts.transactionNo ?? '14422574',
    vnp_TransactionStatus: code === '00' ? '00' : '02',
    vnp_TxnRef: opts.txnRef ?? order.vnp_TxnRef,
  };
}

export function deliverVnpayIpn(fields: Record<string, string>, secret?: string): Promise<ApiResponse<{ RspCode: string; Message: string }>> {
  return call('GET', `/payments/vnpay/ipn?${vnpayQueryString(fields, secret)}`);
}

/** The create request the API sent to the (sinks) MoMo for an order. */
export async function momoCreateRequestOf(orderId: string): Promise<Record<string, unknown>> {
  const { requests } = (await (await fetch(`${SINKS_URL}/gateways/requests`)).json()) as {
    requests: Array<{ gateway: string; type: string; body: Record<string, unknown> }>;
  };
  const found = requests.find((r) => r.gateway === 'MOMO' && r.type === 'create' && r.body.orderId === orderId);
  if (!found) throw new Error(`MoMo got no create request for ${orderId}`);
  return found.body;
}

export async function gatewayRequests(gateway: 'VNPAY' | 'MOMO', type: string): Promise<Array<Record<string, unknown>>> {
  const { requests } = (await (await fetch(`${SINKS_URL}/gateways/requests`)).json()) as {
    requests: Array<{ gateway: string; type: string; body: Record<string, unknown> }>;
  };
  return requests.filter((r) => r.gateway === gateway && r.type === type).map((r) => r.body);
}

export function momoNotice(order: Record<string, unknown>, opts: { resultCode?: number; amount?: number; partnerCode?: string } = {}): Record<string, unknown> {
  const notice: Record<string, unknown> = {
    partnerCode: opts.partnerCode ?? order.partnerCode,
    orderId: order.orderId,
    requestId: order.requestId,
    amount: opts.amount ?? order.amount,
    orderInfo: order.orderInfo,
    orderType: 'momo_wallet',
    transId: 4088878653,
    resultCode: opts.resultCode ?? 0,
    message: opts.resultCode ? 'Transaction denied by user.' : 'Successful.',
    payType: 'qr',
    responseTime: 1764000000000,
    extraData: order.extraData ?? '',
  };
  const raw = ['accessKey', ...Object.keys(notice)]
    .sort()
    .map((k) => `${k}=${k === 'accessKey' ? GATEWAY_ENV.momoAccess : String(notice[k])}`)
    .join('&');
  return { ...notice, signature: createHmac('sha256', GATEWAY_ENV.momoSecret).update(raw).digest('hex') };
}

export function deliverMomoIpn(body: Record<string, unknown>): Promise<ApiResponse> {
  return call('POST', '/payments/momo/ipn', { body });
}
