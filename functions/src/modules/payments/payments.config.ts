import {
  booleanSwitch,
  defineSwitches,
  optionalText,
  optionalUrl,
  parseBooleanWord,
  positiveInt,
  urlWithDefault,
  type ConfigOf,
  type Env,
} from '../../platform/core/config/switches';

// The payments module's switches: mock mode, the gateways (VNPay, MoMo) and their notification address, expiry and
// refund windows, and tips (rides give them through payments' public face).
const switches = {
  PAYMENTS_MOCK: {
    schema: booleanSwitch(true),
    effect:
      'payment operations in mock mode: provider `MOCK` settles a top-up at once through the IPN code path, and refunds settle at once; must be `false` in production',
  },
  PAYMENTS_IPN_BASE_URL: {
    schema: optionalUrl(),
    effect:
      'public base the gateways call back (unset: `API_PUBLIC_URL` + `/api/v1`): VNPay IPN `…/payments/vnpay/ipn` (registered with VNPay), MoMo `ipnUrl` `…/payments/momo/ipn`, return pages `…/payments/{vnpay,momo}/return`; must be `https://` in production',
  },
  PAYMENTS_EXPIRY_SEC: {
    schema: positiveInt(15 * 60, 24 * 3600, 10),
    effect: 'a PENDING gateway payment not paid by then becomes EXPIRED (Cloud Task, and lazily on read)',
  },
  PAYMENTS_REFUND_WINDOW_DAYS: { schema: positiveInt(7, 365), effect: 'days a payer may refund their own top-up' },
  TIP_MAX_COUNT: { schema: positiveInt(1, 5), effect: 'tips one payer may give per ride (or order) (409 `TIP_LIMIT`)' },
  TIP_WINDOW_SEC: { schema: positiveInt(24 * 3600, 7 * 24 * 3600, 60), effect: 'tips are taken within this long after the ride ends (409 `TIP_WINDOW`)' },
  VNPAY_TMN_CODE: {
    schema: optionalText,
    effect: "VNPay 2.1.0 terminal code; VNPay's credentials are all set or none (a half-configured gateway refuses the boot)",
  },
  VNPAY_HASH_SECRET: { schema: optionalText, effect: "VNPay's `vnp_HashSecret` for `VNPAY_TMN_CODE`", secret: true },
  VNPAY_PAY_URL: {
    schema: urlWithDefault('https://sandbox.vnpayment.vn/paymentv2/vpcpay.html'),
    effect: "VNPay's payment page; in production a configured VNPay must set it (unset it is the sandbox host: the boot is refused), https",
  },
  VNPAY_API_URL: {
    schema: urlWithDefault('https://sandbox.vnpayment.vn/merchant_webapi/api/transaction'),
    effect: "VNPay's merchant API (refunds); in production a configured VNPay must set it, https",
  },
  MOMO_PARTNER_CODE: { schema: optionalText, effect: "MoMo v2 captureWallet partner code; MoMo's credentials are all set or none" },
  MOMO_ACCESS_KEY: { schema: optionalText, effect: "MoMo's access key" },
  MOMO_SECRET_KEY: { schema: optionalText, effect: "MoMo's secret key", secret: true },
  MOMO_ENDPOINT: {
    schema: urlWithDefault('https://test-payment.momo.vn'),
    effect: "MoMo's API host; in production a configured MoMo must set it (unset it is the sandbox host: the boot is refused), https",
  },
};

// The gateways' credentials (all or none) and the addresses that default to sandbox hosts (a configured gateway must
// name its production ones).
export const PAYMENT_GATEWAY_CREDENTIALS = {
  VNPAY: ['VNPAY_TMN_CODE', 'VNPAY_HASH_SECRET'],
  MOMO: ['MOMO_PARTNER_CODE', 'MOMO_ACCESS_KEY', 'MOMO_SECRET_KEY'],
} as const satisfies Record<string, ReadonlyArray<keyof typeof switches>>;
export const PAYMENT_GATEWAY_URLS = {
  VNPAY: ['VNPAY_PAY_URL', 'VNPAY_API_URL'],
  MOMO: ['MOMO_ENDPOINT'],
} as const satisfies Record<keyof typeof PAYMENT_GATEWAY_CREDENTIALS, ReadonlyArray<keyof typeof switches>>;

function paymentsProductionViolations(env: Env): string[] {
  const problems: string[] = [];
  if (parseBooleanWord(env.PAYMENTS_MOCK) ?? true) problems.push('PAYMENTS_MOCK must be false in production');
  // Gateways call this address with money news: plain http could be read and forged on the way.
  const ipnBase = (env.PAYMENTS_IPN_BASE_URL ?? '').trim();
  if (!ipnBase.startsWith('https://')) problems.push("PAYMENTS_IPN_BASE_URL must be an https address in production (the gateways' notification address)");
  for (const key of ['VNPAY_PAY_URL', 'VNPAY_API_URL', 'MOMO_ENDPOINT'] as const) {
    const value = (env[key] ?? '').trim();
    if (value !== '' && !value.startsWith('https://')) problems.push(`${key} must be https in production`);
  }
  // Unset, these fall back to the gateways' sandbox hosts: a configured gateway must name its production ones.
  for (const [gateway, urls] of Object.entries(PAYMENT_GATEWAY_URLS)) {
    const configured = PAYMENT_GATEWAY_CREDENTIALS[gateway as keyof typeof PAYMENT_GATEWAY_CREDENTIALS].some((key) => (env[key] ?? '').trim() !== '');
    for (const key of configured ? urls : []) {
      if ((env[key] ?? '').trim() === '') problems.push(`${key} must be set in production when ${gateway} is configured (unset, it is the sandbox host)`);
    }
  }
  return problems;
}

export const paymentsSwitches = defineSwitches(switches, {
  // A gateway is configured with all of its credentials or none (a half-configured one is a boot error).
  check: (values) =>
    Object.entries(PAYMENT_GATEWAY_CREDENTIALS).flatMap(([gateway, keys]) => {
      const missing = keys.filter((key) => values[key] === undefined);
      return missing.length > 0 && missing.length < keys.length
        ? [`${gateway} is half configured: set ${missing.join(', ')} too (or none of its credentials)`]
        : [];
    }),
  production: paymentsProductionViolations,
});

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof paymentsSwitches> {}
}
