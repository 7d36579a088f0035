import type { Provider } from '../../wallet';
import { iso } from '../../../platform/kits/time/time';

// One interface over the payment gateways; the payment records which one it uses. Signing and parsing are
// pure (tested against published and independently computed vectors); only create and refund call out.

/** A gateway's verified word about one of our payments. */
export interface GatewayNotice {
  provider: Provider;
  /** Our payment id (the order reference we gave the gateway). */
  paymentId: string;
  /** In VND, as the gateway states it: compared with the stored amount, never trusted over it. */
  amount: number;
  success: boolean;
  /** Authorized but not captured (MoMo 9000): neither paid nor failed; nothing moves. */
  pending?: boolean;
  transactionNo: string | null;
  bankCode: string | null;
  responseCode: string;
  /** The gateway's time of payment, as it sends it. */
  paidAt: string | null;
}

export interface CreateGatewayPayment {
  paymentId: string;
  amount: number;
  /** ASCII text for the gateway's page (VNPay refuses diacritics). */
  description: string;
  clientIp: string;
  createdAt: number;
  expiresAt: number;
}

export interface GatewayRefund {
  paymentId: string;
  refundId: string;
  amount: number;
  /** The full amount of the payment (VNPay distinguishes full and partial refunds). */
  paymentAmount: number;
  transactionNo: string | null;
  paidAt: string | null;
  createdAt: number;
  by: string;
  clientIp: string;
  reason: string;
}

export interface Gateway {
  provider: Provider;
  createPayment(input: CreateGatewayPayment): Promise<{ paymentUrl: string }>;
  /** Asks the gateway to send money back to the payer's card or wallet; resolves with its reference. */
  refund(input: GatewayRefund): Promise<{ reference: string }>;
}

export class GatewayError extends Error {
  constructor(
    readonly provider: Provider,
    message: string,
    readonly gatewayCode?: string,
  ) {
    super(`${provider}: ${message}`);
    this.name = 'GatewayError';
  }
}

/** Gateway text: ASCII letters, digits and a few signs (VNPay and MoMo reject the rest in order info). */
export function gatewayText(text: string, max = 200): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .replace(/[^A-Za-z0-9 ,.:_-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);
}

/** `yyyyMMddHHmmss` in Vietnam time (VNPay's date format, GMT+7). */
export function vietnamTimestamp(ms: number): string {
  return iso(ms + 7 * 3600_000)
    .replace(/[-T:]/g, '')
    .slice(0, 14);
}

export async function postJson(url: string, body: unknown, timeoutMs = 30_000): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: reported with the status
  }
  return { status: res.status, json };
}
