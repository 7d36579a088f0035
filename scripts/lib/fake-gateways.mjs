// Fake VNPay 2.1.0 and MoMo v2 gateways for the local stack (served by scripts/sinks.mjs). They check the API's
// signatures like the real ones, and their payment pages "pay" at once: they call the API's IPN with a signed
// notification, then send the browser back to the return address. GET /gateways/requests lists what they got.
import { createHmac, randomInt } from 'node:crypto';

const hmac = (algo, key, data) => createHmac(algo, key).update(data, 'utf8').digest('hex');
const vnpEncode = (v) => encodeURIComponent(v).replace(/%20/g, '+');
const vnpSignData = (params) =>
  Object.keys(params)
    .filter((k) => k !== 'vnp_SecureHash' && k !== 'vnp_SecureHashType' && params[k] !== '')
    .sort()
    .map((k) => `${vnpEncode(k)}=${vnpEncode(params[k])}`)
    .join('&');
const momoRaw = (fields) =>
  Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('&');
const vnpDate = (ms) => new Date(ms + 7 * 3600_000).toISOString().replace(/[-T:]/g, '').slice(0, 14);

/** A JSON request body; undefined when it is not JSON. */
export function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch {
        resolve(undefined);
      }
    });
  });
}

export const json = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

export function createFakeGateways({ baseUrl, env, show }) {
  const vnpSecret = env.VNPAY_HASH_SECRET ?? '';
  const momo = { partnerCode: env.MOMO_PARTNER_CODE ?? '', accessKey: env.MOMO_ACCESS_KEY ?? '', secretKey: env.MOMO_SECRET_KEY ?? '' };
  const requests = [];
  const momoOrders = new Map();

  async function vnpayPay(res, url) {
    const params = Object.fromEntries(url.searchParams);
    if (!params.vnp_SecureHash || hmac('sha512', vnpSecret, vnpSignData(params)) !== params.vnp_SecureHash) return json(res, 400, { error: 'invalid vnp_SecureHash' });
    requests.push({ gateway: 'VNPAY', type: 'pay', params, at: Date.now() });
    const failed = url.searchParams.get('fake_result') === 'fail';
    const result = {
      vnp_Amount: params.vnp_Amount,
      vnp_BankCode: 'NCB',
      vnp_CardType: 'ATM',
      vnp_OrderInfo: params.vnp_OrderInfo,
      vnp_PayDate: vnpDate(Date.now()),
      vnp_ResponseCode: failed ? '24' : '00',
      vnp_TmnCode: params.vnp_TmnCode,
      vnp_TransactionNo: String(randomInt(10_000_000, 99_999_999)),
      vnp_TransactionStatus: failed ? '02' : '00',
      vnp_TxnRef: params.vnp_TxnRef,
    };
    const query = `${vnpSignData(result)}&vnp_SecureHash=${hmac('sha512', vnpSecret, vnpSignData(result))}`;
    // VNPay calls the IPN address registered for the merchant: here, the return address's sibling.
    const ipn = params.vnp_ReturnUrl.replace(/\/return$/, '/ipn');
    const answer = await fetch(`${ipn}?${query}`).then((r) => r.json()).catch((err) => ({ error: String(err) }));
    show(`VNPay fake: ${params.vnp_TxnRef} ${failed ? 'declined' : 'paid'}, IPN answered ${JSON.stringify(answer)}`);
    res.writeHead(302, { location: `${params.vnp_ReturnUrl}?${query}` });
    res.end();
  }

  async function momoCreate(req, res) {
    const body = await readBody(req);
    const signed = { accessKey: momo.accessKey, amount: body?.amount, extraData: body?.extraData, ipnUrl: body?.ipnUrl, orderId: body?.orderId, orderInfo: body?.orderInfo, partnerCode: body?.partnerCode, redirectUrl: body?.redirectUrl, requestId: body?.requestId, requestType: body?.requestType };
    requests.push({ gateway: 'MOMO', type: 'create', body, at: Date.now() });
    if (!body || body.partnerCode !== momo.partnerCode || hmac('sha256', momo.secretKey, momoRaw(signed)) !== body.signature) {
      return json(res, 200, { partnerCode: body?.partnerCode ?? '', orderId: body?.orderId ?? '', resultCode: 11, message: 'Access denied: bad signature' });
    }
    momoOrders.set(body.orderId, body);
    return json(res, 200, { partnerCode: body.partnerCode, orderId: body.orderId, requestId: body.requestId, amount: body.amount, responseTime: Date.now(), message: 'Successful.', resultCode: 0, payUrl: `${baseUrl}/momo/pay?orderId=${encodeURIComponent(body.orderId)}` });
  }

  async function momoPay(res, url) {
    const order = momoOrders.get(url.searchParams.get('orderId') ?? '');
    if (!order) return json(res, 404, { error: 'unknown order' });
    const failed = url.searchParams.get('fake_result') === 'fail';
    const notice = {
      partnerCode: order.partnerCode,
      orderId: order.orderId,
      requestId: order.requestId,
      amount: order.amount,
      orderInfo: order.orderInfo,
      orderType: 'momo_wallet',
      transId: randomInt(1_000_000_000, 9_999_999_999),
      resultCode: failed ? 1006 : 0,
      message: failed ? 'Transaction denied by user.' : 'Successful.',
      payType: 'qr',
      responseTime: Date.now(),
      extraData: order.extraData ?? '',
    };
    notice.signature = hmac('sha256', momo.secretKey, momoRaw({ accessKey: momo.accessKey, ...Object.fromEntries(Object.entries(notice).filter(([k]) => k !== 'signature')) }));
    const answer = await fetch(order.ipnUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(notice) }).then((r) => r.status).catch((err) => String(err));
    show(`MoMo fake: ${order.orderId} ${failed ? 'declined' : 'paid'}, IPN answered ${answer}`);
    res.writeHead(302, { location: `${order.redirectUrl}?${new URLSearchParams(Object.entries(notice).map(([k, v]) => [k, String(v)]))}` });
    res.end();
  }

  async function momoRefund(req, res) {
    const body = await readBody(req);
    requests.push({ gateway: 'MOMO', type: 'refund', body, at: Date.now() });
    const signed = { accessKey: momo.accessKey, amount: body?.amount, description: body?.description, orderId: body?.orderId, partnerCode: body?.partnerCode, requestId: body?.requestId, transId: body?.transId };
    if (!body || hmac('sha256', momo.secretKey, momoRaw(signed)) !== body.signature) return json(res, 200, { resultCode: 11, message: 'Access denied: bad signature' });
    if (body.description === 'fake-fail') return json(res, 200, { resultCode: 1001, message: 'Refund failed (fake)' });
    return json(res, 200, { partnerCode: body.partnerCode, orderId: body.orderId, requestId: body.requestId, amount: body.amount, transId: randomInt(1_000_000_000, 9_999_999_999), resultCode: 0, message: 'Successful.', responseTime: Date.now() });
  }

  async function vnpayApi(req, res) {
    const body = await readBody(req);
    requests.push({ gateway: 'VNPAY', type: body?.vnp_Command ?? 'unknown', body, at: Date.now() });
    const order = ['vnp_RequestId', 'vnp_Version', 'vnp_Command', 'vnp_TmnCode', 'vnp_TransactionType', 'vnp_TxnRef', 'vnp_Amount', 'vnp_TransactionNo', 'vnp_TransactionDate', 'vnp_CreateBy', 'vnp_CreateDate', 'vnp_IpAddr', 'vnp_OrderInfo'];
    if (!body || hmac('sha512', vnpSecret, order.map((k) => body[k] ?? '').join('|')) !== body.vnp_SecureHash) return json(res, 200, { vnp_ResponseCode: '97', vnp_Message: 'Invalid checksum' });
    if (body.vnp_OrderInfo === 'fake-fail') return json(res, 200, { vnp_ResponseCode: '99', vnp_Message: 'Refund failed (fake)' });
    return json(res, 200, { vnp_ResponseId: body.vnp_RequestId, vnp_Command: 'refund', vnp_ResponseCode: '00', vnp_Message: 'Refund success', vnp_TmnCode: body.vnp_TmnCode, vnp_TxnRef: body.vnp_TxnRef, vnp_Amount: body.vnp_Amount, vnp_TransactionNo: String(randomInt(10_000_000, 99_999_999)), vnp_TransactionType: body.vnp_TransactionType });
  }

  return {
    /** Serves a gateway path; false when the path is not one of the gateways'. */
    async handle(req, res, url) {
      if (req.method === 'GET' && url.pathname === '/vnpay/paymentv2/vpcpay.html') return (await vnpayPay(res, url), true);
      if (req.method === 'POST' && url.pathname === '/vnpay/merchant_webapi/api/transaction') return (await vnpayApi(req, res), true);
      if (req.method === 'POST' && url.pathname === '/momo/v2/gateway/api/create') return (await momoCreate(req, res), true);
      if (req.method === 'POST' && url.pathname === '/momo/v2/gateway/api/refund') return (await momoRefund(req, res), true);
      if (req.method === 'GET' && url.pathname === '/momo/pay') return (await momoPay(res, url), true);
      if (req.method === 'GET' && url.pathname === '/gateways/requests') return (json(res, 200, { requests }), true);
      return false;
    },
  };
}
