import { perConfig, type AppConfig } from '../../platform/core/config';
import type { Gateway } from './gateways/gateway';
import { mockGateway, mockKey } from './gateways/mock';
import { momoGateway } from './gateways/momo';
import { vnpayGateway } from './gateways/vnpay';
import { createIpnService } from './ipn.service';
import { PAYMENT_DEADLINE } from './payments.model';
import { createPaymentsService } from './payments.service';
import type { Provider } from '../wallet';

// Services of the payments module, built once per configuration: the gateways it has credentials for (MOCK
// only with PAYMENTS_MOCK), the payments service over the ledger, and the gateway notification handlers.

/** The public base the gateways call back (IPN) and send the payer back to. */
export function callbackBase(config: Readonly<AppConfig>): string {
  return config.PAYMENTS_IPN_BASE_URL ?? `${config.API_PUBLIC_URL}/api/v1`;
}

export function gatewaysFor(config: Readonly<AppConfig>): Partial<Record<Provider, Gateway>> {
  const base = callbackBase(config);
  const gateways: Partial<Record<Provider, Gateway>> = {};
  if (config.VNPAY_TMN_CODE && config.VNPAY_HASH_SECRET) {
    gateways.VNPAY = vnpayGateway({
      tmnCode: config.VNPAY_TMN_CODE,
      hashSecret: config.VNPAY_HASH_SECRET,
      payUrl: config.VNPAY_PAY_URL,
      apiUrl: config.VNPAY_API_URL,
      returnUrl: `${base}/payments/vnpay/return`,
    });
  }
  if (config.MOMO_PARTNER_CODE && config.MOMO_ACCESS_KEY && config.MOMO_SECRET_KEY) {
    gateways.MOMO = momoGateway({
      partnerCode: config.MOMO_PARTNER_CODE,
      accessKey: config.MOMO_ACCESS_KEY,
      secretKey: config.MOMO_SECRET_KEY,
      endpoint: config.MOMO_ENDPOINT,
      ipnUrl: `${base}/payments/momo/ipn`,
      redirectUrl: `${base}/payments/momo/return`,
    });
  }
  if (config.PAYMENTS_MOCK) gateways.MOCK = mockGateway((paymentId) => `${base}/payments/mock/return?paymentId=${encodeURIComponent(paymentId)}`);
  return gateways;
}

export const paymentsServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createPaymentsService({
    gateways: gatewaysFor(config),
    mockKey: mockKey(config.JWT_SECRET),
    expirySec: config.PAYMENTS_EXPIRY_SEC,
    refundWindowDays: config.PAYMENTS_REFUND_WINDOW_DAYS,
    dailyTransferLimit: config.WALLET_DAILY_TRANSFER_LIMIT_VND,
    tipMaxCount: config.TIP_MAX_COUNT,
    tipWindowSec: config.TIP_WINDOW_SEC,
    staffApprovalVnd: config.WALLET_ADJUSTMENT_APPROVAL_VND,
    // One expiry task per payment (PAYMENT_DEADLINE's task id), so a retried creation does not queue a second one.
    scheduler: PAYMENT_DEADLINE.scheduler,
  }),
);

export const ipnServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createIpnService({
    payments: paymentsServiceFor(config),
    vnpaySecret: config.VNPAY_HASH_SECRET,
    momo:
      config.MOMO_PARTNER_CODE && config.MOMO_ACCESS_KEY && config.MOMO_SECRET_KEY
        ? { partnerCode: config.MOMO_PARTNER_CODE, accessKey: config.MOMO_ACCESS_KEY, secretKey: config.MOMO_SECRET_KEY }
        : undefined,
  }),
);
