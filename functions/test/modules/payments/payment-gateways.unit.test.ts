import { gatewayText, vietnamTimestamp } from '../../../src/modules/payments/gateways/gateway';
import { mockKey, signMockNotice, verifyMockNotice } from '../../../src/modules/payments/gateways/mock';
import { momoCreateRequest, momoIpnSignature, momoRawSignature, parseMomoIpn } from '../../../src/modules/payments/gateways/momo';
import { parseVnpayQuery, vnpayPaymentUrl, vnpayRefundHash, vnpaySign, vnpaySignData } from '../../../src/modules/payments/gateways/vnpay';

// Vectors: "published" ones come from the test suite of the `vnpay` npm library (lehuygiang28/vnpay); the others
// were computed independently with `printf '%s' "<data>" | openssl dgst -sha512|-sha256 -hmac <key>`.

describe('VNPay 2.1.0 signing', () => {
  const published = {
    vnp_Amount: '1000000',
    vnp_BankCode: 'NCB',
    vnp_BankTranNo: 'VNP14422574',
    vnp_CardType: 'ATM',
    vnp_OrderInfo: 'Thanh toan don hang 2024-05-21T02:17:31.249Z',
    vnp_PayDate: '20240521091806',
    vnp_ResponseCode: '00',
    vnp_TmnCode: 'TEST_TMN_CODE',
    vnp_TransactionNo: '14422574',
    vnp_TransactionStatus: '00',
    vnp_TxnRef: '1716257871703',
  };

  it('matches the published IPN vectors (paid, and declined with code 99)', () => {
    expect(vnpaySign(published, 'test_secret')).toBe(
      '649982421beb422556a1374713c74e58e716ecbd05007c0c0e1f7effdfaf361dbf146889ca446139afe11b9954c4d5c486e99e3b86fcfab6957f29eb0be72895',
    );
    expect(vnpaySign({ ...published, vnp_ResponseCode: '99' }, 'test_secret')).toBe(
      '503194f6d93b57b357b2d1d09742565e67e86d771352c5dca4fc8d39df3d392c6b3809add9405f97cfb9631f445e36c80656cfbf47eac67d97fa165865c13e1b',
    );
  });

  it('signs the sorted, form-encoded fields of a payment URL (openssl vector), space as +, hash fields excluded', () => {
    const url = new URL(
      vnpayPaymentUrl(
        {
          tmnCode: 'DEMO0001',
          hashSecret: 'SECRETSECRETSECRETSECRETSECRET12',
          payUrl: 'https://sandbox.vnpayment.vn/paymentv2/vpcpay.html',
          apiUrl: 'x',
          returnUrl: 'https://api.example.test/api/v1/payments/vnpay/return',
        },
        {
          paymentId: 'P0123456789abcdef01234567',
          amount: 10_000,
          description: 'Nap tien vi Super-app',
          clientIp: '127.0.0.1',
          createdAt: Date.UTC(2026, 10, 24, 3, 30),
          expiresAt: Date.UTC(2026, 10, 24, 3, 45),
        },
      ),
    );
    expect(url.searchParams.get('vnp_Amount')).toBe('1000000');
    expect(url.searchParams.get('vnp_CreateDate')).toBe('20261124103000');
    expect(url.search).toContain('vnp_OrderInfo=Nap+tien+vi+Super-app');
    expect(url.searchParams.get('vnp_SecureHash')).toBe(
      '5404932933b3c27cdafd7dcf1d054fae43127189e4c15bee7dcea6d659776f6ada23b4e63a5fcb06078da1e2886a38ae40f3039fdbf905a3d3e5c106c9aabf2b',
    );
    expect(vnpaySignData({ b: '2', a: 'x y', vnp_SecureHash: 'h', c: '' })).toBe('a=x+y&b=2');
  });

  it('verifies an IPN query: a forged hash, a changed field or a fractional amount is refused', () => {
    const query = { ...published, vnp_SecureHash: vnpaySign(published, 'test_secret') };
    const ok = parseVnpayQuery(query, 'test_secret');
    expect(ok).toEqual({
      ok: true,
      notice: expect.objectContaining({ provider: 'VNPAY', paymentId: '1716257871703', amount: 10_000, success: true, transactionNo: '14422574' }),
    });
    expect(parseVnpayQuery({ ...query, vnp_Amount: '2000000' }, 'test_secret')).toEqual({ ok: false, reason: 'signature' });
    expect(parseVnpayQuery({ ...query, vnp_SecureHash: 'ab'.repeat(64) }, 'test_secret')).toEqual({ ok: false, reason: 'signature' });
    expect(parseVnpayQuery(query, 'another_secret')).toEqual({ ok: false, reason: 'signature' });
    const odd = { ...published, vnp_Amount: '1000050' };
    expect(parseVnpayQuery({ ...odd, vnp_SecureHash: vnpaySign(odd, 'test_secret') }, 'test_secret')).toEqual({ ok: false, reason: 'malformed' });
    const declined = { ...published, vnp_ResponseCode: '24', vnp_TransactionStatus: '02' };
    expect(parseVnpayQuery({ ...declined, vnp_SecureHash: vnpaySign(declined, 'test_secret') }, 'test_secret')).toEqual({
      ok: true,
      notice: expect.objectContaining({ success: false, responseCode: '24' }),
    });
  });

  it('signs a refund request over its fields joined by | in the documented order (openssl vector)', () => {
    const fields = {
      vnp_RequestId: 'R1',
      vnp_Version: '2.1.0',
      vnp_Command: 'refund',
      vnp_TmnCode: 'DEMO0001',
      vnp_TransactionType: '02',
      vnp_TxnRef: 'P0123456789abcdef01234567',
      vnp_Amount: '1000000',
      vnp_TransactionNo: '14422574',
      vnp_TransactionDate: '20261124103500',
      vnp_CreateBy: 'admin1',
      vnp_CreateDate: '20261125090000',
      vnp_IpAddr: '127.0.0.1',
      vnp_OrderInfo: 'Hoan tien',
    };
    expect(vnpayRefundHash(fields, 'SECRETSECRETSECRETSECRETSECRET12')).toBe(
      'd129b992fa2e965bb733ac60ac2e9b4103843624772bd4e2bd66d82120aa8a73007743641e54f2f6b77dcc15348997da92b6c7fe3f228b1f629a14831a4ca48a',
    );
  });
});

describe('MoMo v2 signing (captureWallet)', () => {
  // MoMo's public sandbox test credentials (partner MOMO).
  const config = {
    partnerCode: 'MOMO',
    accessKey: 'F8BBA842ECF85',
    secretKey: 'K951B6PE1waDMi640xX08PD3vg6EkVlz',
    endpoint: 'https://test-payment.momo.vn',
    ipnUrl: 'https://callback.url/notify',
    redirectUrl: 'https://momo.vn/return',
  };

  it('signs the create request over the alphabetical raw string (openssl vector); the body carries no access key', () => {
    const request = momoCreateRequest(
      config,
      { paymentId: 'MM1540456472575', amount: 50_000, description: 'pay with MoMo', clientIp: '127.0.0.1', createdAt: 0, expiresAt: 0 },
      'MM1540456472575',
    );
    expect(request.signature).toBe('82de07c89ad6a3f0a44833c4c8fc1bd9a884c689998bf9e3116249c72130b171');
    expect(request).toEqual(
      expect.objectContaining({ partnerCode: 'MOMO', orderId: 'MM1540456472575', amount: 50_000, requestType: 'captureWallet', extraData: '' }),
    );
    expect(request).not.toHaveProperty('accessKey');
    expect(momoRawSignature({ b: 1, a: 'x y' })).toBe('a=x y&b=1');
  });

  it('verifies an IPN (openssl vector): signature, partner code, and a well-formed order and amount', () => {
    const ipn = {
      partnerCode: 'MOMO',
      orderId: 'MM1540456472575',
      requestId: 'MM1540456472575',
      amount: 50000,
      orderInfo: 'pay with MoMo',
      orderType: 'momo_wallet',
      transId: 2588659987,
      resultCode: 0,
      message: 'Successful.',
      payType: 'qr',
      responseTime: 1540456472575,
      extraData: '',
    };
    const signature = momoIpnSignature(ipn, config.accessKey, config.secretKey);
    expect(signature).toBe('f5d491ed1f525af913e4a3429d144a3f6f4ef6bb9675db6cb8f7b3359c5b7547');
    expect(parseMomoIpn({ ...ipn, signature }, config)).toEqual({
      ok: true,
      notice: expect.objectContaining({ provider: 'MOMO', paymentId: 'MM1540456472575', amount: 50_000, success: true, transactionNo: '2588659987' }),
    });
    expect(parseMomoIpn({ ...ipn, amount: 60000, signature }, config)).toEqual({ ok: false, reason: 'signature' });
    expect(parseMomoIpn({ ...ipn, signature: signature.replace(/.$/, '0') }, config)).toEqual({ ok: false, reason: 'signature' });
    const other = { ...ipn, partnerCode: 'MOMOOTHER' };
    expect(parseMomoIpn({ ...other, signature: momoIpnSignature(other, config.accessKey, config.secretKey) }, config)).toEqual({
      ok: false,
      reason: 'partner',
    });
    const declined = { ...ipn, resultCode: 1006, message: 'Transaction denied by user.' };
    expect(parseMomoIpn({ ...declined, signature: momoIpnSignature(declined, config.accessKey, config.secretKey) }, config)).toEqual({
      ok: true,
      notice: expect.objectContaining({ success: false, responseCode: '1006' }),
    });
  });

  it('reads resultCode 9000 (authorized, not captured) as pending, never as paid', () => {
    const authorized = {
      partnerCode: 'MOMO',
      orderId: 'MM1',
      requestId: 'MM1',
      amount: 50000,
      orderInfo: 'x',
      orderType: 'momo_wallet',
      transId: 1,
      resultCode: 9000,
      message: 'Authorized.',
      payType: 'qr',
      responseTime: 1,
      extraData: '',
    };
    const parsed = parseMomoIpn({ ...authorized, signature: momoIpnSignature(authorized, config.accessKey, config.secretKey) }, config);
    expect(parsed).toEqual({ ok: true, notice: expect.objectContaining({ success: false, pending: true, responseCode: '9000' }) });
  });
});

describe('mock gateway and gateway text', () => {
  it('a mock notice verifies only with the server key and unchanged fields', () => {
    const key = mockKey('server-secret-0123456789abcdef0123456789');
    const notice = {
      provider: 'MOCK' as const,
      paymentId: 'P1',
      amount: 10_000,
      success: true,
      transactionNo: 'M1',
      bankCode: null,
      responseCode: '00',
      paidAt: null,
    };
    const signature = signMockNotice(notice, key);
    expect(verifyMockNotice(notice, signature, key)).toBe(true);
    expect(verifyMockNotice({ ...notice, amount: 20_000 }, signature, key)).toBe(false);
    expect(verifyMockNotice(notice, signature, mockKey('another-secret-0123456789abcdef0123456'))).toBe(false);
  });

  it('gateway text is ASCII without diacritics (VNPay refuses them); Vietnam time is UTC+7', () => {
    expect(gatewayText('Nạp tiền ví Đà Nẵng #1 ✓')).toBe('Nap tien vi Da Nang 1');
    expect(vietnamTimestamp(Date.UTC(2026, 11, 31, 17, 0, 5))).toBe('20270101000005');
  });
});
