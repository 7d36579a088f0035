import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { GatewayError, postJson, type CreateGatewayPayment, type Gateway, type GatewayNotice, type GatewayRefund } from './gateway';

// MoMo All-in-one v2, requestType captureWallet. Requests and notifications are signed with hex HMAC-SHA256 over
// `key=value&…` of named fields in alphabetical order (raw values, no encoding), with the access key included.

export interface MomoConfig {
  partnerCode: string;
  accessKey: string;
  secretKey: string;
  endpoint: string;
  ipnUrl: string;
  redirectUrl: string;
}

export function momoRawSignature(fields: Readonly<Record<string, string | number>>): string {
  return Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&');
}

export function momoSign(fields: Readonly<Record<string, string | number>>, secretKey: string): string {
  return createHmac('sha256', secretKey).update(momoRawSignature(fields), 'utf8').digest('hex');
}

export function momoCreateRequest(config: MomoConfig, input: CreateGatewayPayment, requestId: string) {
  const signed = {
    accessKey: config.accessKey,
    amount: input.amount,
    extraData: '',
    ipnUrl: config.ipnUrl,
    orderId: input.paymentId,
    orderInfo: input.description,
    partnerCode: config.partnerCode,
    redirectUrl: config.redirectUrl,
    requestId,
    requestType: 'captureWallet',
  };
  const { accessKey: _omitted, ...body } = signed;
  return { ...body, lang: 'vi', autoCapture: true, signature: momoSign(signed, config.secretKey) };
}

/** The fields of an IPN body that its signature covers (with the access key, which the body does not carry). */
const IPN_FIELDS = [
  'amount',
  'extraData',
  'message',
  'orderId',
  'orderInfo',
  'orderType',
  'partnerCode',
  'payType',
  'requestId',
  'responseTime',
  'resultCode',
  'transId',
] as const;

export function momoIpnSignature(body: Readonly<Record<string, unknown>>, accessKey: string, secretKey: string): string {
  const fields: Record<string, string | number> = { accessKey };
  for (const key of IPN_FIELDS) fields[key] = body[key] === undefined || body[key] === null ? '' : (body[key] as string | number);
  return momoSign(fields, secretKey);
}

export type MomoParse = { ok: true; notice: GatewayNotice } | { ok: false; reason: 'signature' | 'malformed' | 'partner' };

export function parseMomoIpn(body: Readonly<Record<string, unknown>>, config: Pick<MomoConfig, 'partnerCode' | 'accessKey' | 'secretKey'>): MomoParse {
  const signature = typeof body.signature === 'string' ? body.signature : '';
  const expected = momoIpnSignature(body, config.accessKey, config.secretKey);
  if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) return { ok: false, reason: 'signature' };
  if (body.partnerCode !== config.partnerCode) return { ok: false, reason: 'partner' };
  const amount = Number(body.amount);
  if (typeof body.orderId !== 'string' || !Number.isSafeInteger(amount) || amount <= 0) return { ok: false, reason: 'malformed' };
  return {
    ok: true,
    notice: {
      provider: 'MOMO',
      paymentId: body.orderId,
      amount,
      // 9000 is "authorized": the money is not ours until captured (captureWallet sends 0 for that).
      success: Number(body.resultCode) === 0,
      pending: Number(body.resultCode) === 9000,
      transactionNo: body.transId === undefined ? null : String(body.transId),
      bankCode: typeof body.payType === 'string' ? body.payType : null,
      responseCode: String(body.resultCode ?? ''),
      paidAt: body.responseTime === undefined ? null : String(body.responseTime),
    },
  };
}

export function momoGateway(config: MomoConfig): Gateway {
  return {
    provider: 'MOMO',
    async createPayment(input) {
      const request = momoCreateRequest(config, input, randomUUID());
      const { status, json } = await postJson(`${config.endpoint}/v2/gateway/api/create`, request);
      if (status !== 200 || json.resultCode !== 0 || typeof json.payUrl !== 'string') {
        throw new GatewayError(
          'MOMO',
          `create refused (HTTP ${status}, resultCode ${String(json.resultCode ?? '?')}: ${String(json.message ?? '')})`,
          String(json.resultCode ?? ''),
        );
      }
      return { paymentUrl: json.payUrl };
    },
    async refund(input: GatewayRefund) {
      const requestId = randomUUID();
      const orderId = `${input.refundId.replace(/[^A-Za-z0-9]/g, '').slice(0, 40)}`;
      const signed = {
        accessKey: config.accessKey,
        amount: input.amount,
        description: input.reason,
        orderId,
        partnerCode: config.partnerCode,
        requestId,
        transId: input.transactionNo ?? '',
      };
      const { accessKey: _omitted, ...body } = signed;
      const { status, json } = await postJson(`${config.endpoint}/v2/gateway/api/refund`, {
        ...body,
        lang: 'vi',
        signature: momoSign(signed, config.secretKey),
      });
      if (status !== 200 || json.resultCode !== 0)
        throw new GatewayError('MOMO', `refund refused (HTTP ${status}, resultCode ${String(json.resultCode ?? '?')})`, String(json.resultCode ?? ''));
      return { reference: String(json.transId ?? orderId) };
    },
  };
}
