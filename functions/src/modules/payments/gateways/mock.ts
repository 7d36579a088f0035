import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Gateway, GatewayNotice } from './gateway';

// PAYMENTS_MOCK: a gateway without credentials for local use. A MOCK payment settles at once through the same
// notification path as the real gateways: the mock signs a notice with a key derived from the server's secret,
// and the IPN code verifies it like any other before money moves. Refunds settle at once.

export function mockKey(serverSecret: string): Buffer {
  return createHmac('sha256', serverSecret).update('payments-mock-gateway').digest();
}

export function signMockNotice(notice: GatewayNotice, key: Buffer): string {
  return createHmac('sha256', key)
    .update(JSON.stringify([notice.paymentId, notice.amount, notice.success, notice.transactionNo]))
    .digest('hex');
}

export function verifyMockNotice(notice: GatewayNotice, signature: string, key: Buffer): boolean {
  const expected = Buffer.from(signMockNotice(notice, key));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function mockGateway(returnUrlOf: (paymentId: string) => string): Gateway {
  return {
    provider: 'MOCK',
    async createPayment(input) {
      return { paymentUrl: returnUrlOf(input.paymentId) };
    },
    async refund(input) {
      return { reference: `mock-refund-${input.refundId}` };
    },
  };
}
