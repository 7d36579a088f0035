import { call as sharedCall } from '../../helpers/api';
import type { Tokens } from '../../helpers/accounts';
import { withStaff } from '../../helpers/admins';
import { advance, draftOf, freeCourier, handoverPhoto, place, useOrdersApp, walletOrder } from '../../helpers/orders';
import { ordersRepo } from '../../../src/modules/orders/orders.repo';
import { walletOf } from '../../helpers/wallet';

// The parties' moves through the API: cancellations and what they give back, refusals (409 with a code, 400 naming
// the field), races, the courier's proof of delivery, the rating and the chat, the administrators' cancel.

const staff = withStaff();
const { doubles, app, cast } = useOrdersApp();

const post = (id: string, action: string, token: Tokens | undefined, body: Record<string, unknown> = {}) =>
  app.call('POST', `/orders/${id}/${action}`, { token, body });
const cashOrder = () => place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));

describe('calling an order off', () => {
  it('the consumer cancels before the store confirmed, free: the hold, the stock and the voucher go back, once', async () => {
    const voucher = { code: 'GIAM20K', redemptionId: 'r-1', promotionId: 'p-1' };
    const order = await walletOrder(app, cast.consumer, cast.owner.partnerId, cast.store, { discount: 20_000, voucher });
    const cancelled = await post(order.id, 'cancel', cast.consumer, { reason: 'Đặt nhầm' });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'CONSUMER', cancelReason: 'Đặt nhầm', payment: { settled: 'RELEASED' } });
    expect((await app.payments.get(order.payment.paymentId!)).status).toBe('CANCELLED');
    expect((await walletOf(cast.consumer)).held).toBe(0);
    expect([await doubles.returned(cast.store, 'pho-bo'), await doubles.returned(cast.store, 'ca-phe-sua')]).toEqual([2, 1]);
    expect(doubles.released.filter((r) => r === `ORDER:${order.id}`)).toHaveLength(1);
    // A repeat answers the order as it is and gives nothing back twice.
    expect((await post(order.id, 'cancel', cast.consumer)).body.status).toBe('CANCELLED');
    await app.service.settle((await ordersRepo.get(order.id))!);
    expect([await doubles.returned(cast.store, 'pho-bo'), doubles.released.filter((r) => r === `ORDER:${order.id}`).length]).toEqual([2, 1]);
  });

  it('the store cancels a confirmed order with a reason (none: 400), and rejects a placed one with a reason', async () => {
    const order = await walletOrder(app, cast.consumer, cast.owner.partnerId, cast.store);
    await post(order.id, 'confirm', cast.staff);
    expect((await post(order.id, 'cancel', cast.consumer)).body).toMatchObject({ code: 'ORDER_TRANSITION', details: { status: 'CONFIRMED' } });
    const bare = await post(order.id, 'cancel', cast.staff);
    expect([bare.status, bare.body.details[0].field]).toEqual([400, 'body.reason']);
    const cancelled = await post(order.id, 'cancel', cast.staff, { reason: 'Hết nguyên liệu' });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'STORE', payment: { settled: 'RELEASED' } });

    const rejected = await walletOrder(app, cast.consumer, cast.owner.partnerId, cast.store);
    expect((await post(rejected.id, 'reject', cast.staff)).body.details[0].field).toBe('body.reason');
    const done = await post(rejected.id, 'reject', cast.staff, { reason: 'Quán đóng cửa sớm' });
    expect(done.body).toMatchObject({ status: 'REJECTED', cancelReason: 'Quán đóng cửa sớm', payment: { settled: 'RELEASED' } });
    expect((await app.payments.get(rejected.payment.paymentId!)).status).toBe('CANCELLED');
  });

  it('racing: the store’s confirm against the consumer’s cancel — one wins, the other is 409', async () => {
    for (let round = 0; round < 3; round++) {
      const order = await walletOrder(app, cast.consumer, cast.owner.partnerId, cast.store);
      const [confirm, cancel] = await Promise.all([post(order.id, 'confirm', cast.staff), post(order.id, 'cancel', cast.consumer)]);
      expect([confirm.status, cancel.status].sort()).toEqual([200, 409]);
      const winner = confirm.status === 200 ? 'confirm' : 'cancel';
      const status = (await app.call('GET', `/orders/${order.id}`, { token: cast.consumer })).body.status;
      expect(status).toBe(winner === 'confirm' ? 'CONFIRMED' : 'CANCELLED');
      const actions = (await app.call('GET', `/orders/${order.id}/events`, { token: cast.consumer })).body.items.map((e: { action: string }) => e.action);
      expect(actions).toEqual(['place', winner]);
    }
  });

  it('two racing confirms move the order once', async () => {
    const order = await cashOrder();
    const answers = await Promise.all([1, 2, 3].map(() => post(order.id, 'confirm', cast.staff)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const actions = (await app.call('GET', `/orders/${order.id}/events`, { token: cast.staff })).body.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(['place', 'confirm']);
  });
});

describe('moves the order’s status does not allow are 409 with a code', () => {
  it('out of order, after the end, or by the wrong party', async () => {
    const courier = await freeCourier(doubles);
    const order = await cashOrder();
    const early = await post(order.id, 'preparing', cast.staff);
    expect(early.body).toMatchObject({ code: 'ORDER_TRANSITION', details: { status: 'PLACED', allowed: ['confirm', 'reject'] } });
    expect((await post(order.id, 'ready', cast.staff)).body.code).toBe('ORDER_TRANSITION');
    expect((await post(order.id, 'confirm', cast.consumer)).body.code).toBe('ROLE_REQUIRED');
    expect((await post(order.id, 'cancel', cast.staff, { reason: 'x' })).body).toMatchObject({ code: 'ORDER_TRANSITION', details: { status: 'PLACED' } });
    await advance(app, cast, order.id, 'DELIVERED', courier);
    for (const [action, token, body] of [
      ['cancel', cast.consumer, {}],
      ['cancel', cast.staff, { reason: 'late' }],
      ['reject', cast.staff, { reason: 'late' }],
      ['confirm', cast.staff, {}],
      ['pickup', courier, {}],
    ] as const) {
      const res = await post(order.id, action, token, body);
      expect([action, res.status, res.body.code, res.body.details?.status]).toEqual([action, 409, 'ORDER_TRANSITION', 'DELIVERED']);
    }
    const admin = await app.call('POST', `/orders/admin/${order.id}/cancel`, { token: staff.admin(), body: { reason: 'x' } });
    expect(admin.body.code).toBe('ORDER_TRANSITION');
    expect((await post('no-such-order', 'confirm', cast.staff)).status).toBe(404);
  });
});

describe('the courier’s proof of delivery', () => {
  it('wrong codes are counted (422 with the tries left) up to 5, then only a photo of the courier’s own proves it', async () => {
    const courier = await freeCourier(doubles);
    const order = await cashOrder();
    await advance(app, cast, order.id, 'PICKED_UP', courier);
    const code = (await app.call('GET', `/orders/${order.id}`, { token: cast.consumer })).body.handoverCode as string;
    const wrong = code === '0000' ? '1111' : '0000';
    // A stranger's guess is not counted (404), nor a malformed code (400).
    expect((await post(order.id, 'deliver', cast.stranger, { code: wrong })).status).toBe(404);
    expect((await post(order.id, 'deliver', courier, { code: '12a4' })).body.details[0].field).toBe('body.code');
    expect((await post(order.id, 'deliver', courier, {})).status).toBe(400);
    const first = await post(order.id, 'deliver', courier, { code: wrong });
    expect([first.status, first.body.code, first.body.details.attemptsLeft]).toEqual([422, 'ORDER_HANDOVER_INVALID', 4]);
    // Racing guesses never pass the limit (the handover kit's): 3 more are wrong, the 5th wrong one locks, the rest find it locked.
    const racing = await Promise.all([1, 2, 3, 4, 5, 6].map(() => post(order.id, 'deliver', courier, { code: wrong })));
    expect(racing.filter((r) => r.status === 422)).toHaveLength(3);
    expect(racing.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(['ORDER_HANDOVER_LOCKED', 'ORDER_HANDOVER_LOCKED', 'ORDER_HANDOVER_LOCKED']);
    expect((await ordersRepo.handover(order.id))!.failedAttempts).toBe(5);
    expect((await post(order.id, 'deliver', courier, { code })).body.code).toBe('ORDER_HANDOVER_LOCKED');

    const theirs = await handoverPhoto(cast.consumer);
    expect((await post(order.id, 'deliver', courier, { photoMediaId: theirs })).body.code).toBe('ORDER_PROOF_INVALID');
    const photo = await handoverPhoto(courier);
    // A photo proves the hand-over where the courier is: at the drop-off.
    await doubles.moveCourier(courier.user.id, order.dropoff);
    const delivered = await post(order.id, 'deliver', courier, { photoMediaId: photo });
    expect(delivered.body).toMatchObject({ status: 'DELIVERED', proof: { kind: 'PHOTO', mediaId: photo }, payment: { settled: 'COLLECTED' } });
    expect((await post(order.id, 'deliver', courier, { photoMediaId: photo })).body.status).toBe('DELIVERED');
  });
});

describe('after delivery', () => {
  it('the consumer rates the store and the courier once; the courier never sees the stars; others 404', async () => {
    const courier = await freeCourier(doubles);
    const order = await cashOrder();
    expect((await post(order.id, 'rate', cast.consumer, { store: { stars: 5 } })).body.code).toBe('ORDER_RATING_WINDOW');
    await advance(app, cast, order.id, 'DELIVERED', courier);
    const body = { store: { stars: 5, comment: 'Phở ngon' }, courier: { stars: 4 } };
    expect((await post(order.id, 'rate', cast.other, body)).status).toBe(404);
    expect((await post(order.id, 'rate', cast.consumer, { store: { stars: 6 } })).body.details[0].field).toBe('body.store.stars');
    const rated = await post(order.id, 'rate', cast.consumer, body);
    expect([rated.status, rated.body.store, rated.body.courier]).toEqual([201, { stars: 5, comment: 'Phở ngon' }, { stars: 4, comment: null }]);
    expect((await post(order.id, 'rate', cast.consumer, body)).body.code).toBe('ORDER_ALREADY_RATED');
    const views = await Promise.all([cast.consumer, cast.staff, courier].map((token) => app.call('GET', `/orders/${order.id}`, { token })));
    expect(views.map((v) => v.body.rating && [v.body.rating.store?.stars ?? null, v.body.rating.courier?.stars ?? null])).toEqual([
      [5, 4],
      [5, null],
      [null, null],
    ]);
  });
});

describe('the order’s chat', () => {
  it('its consumer, the store’s staff and its courier share one conversation while the order runs', async () => {
    const courier = await freeCourier(doubles);
    const order = await cashOrder();
    const mine = await post(order.id, 'chat', cast.consumer);
    expect(mine.status).toBe(200);
    expect((await post(order.id, 'chat', cast.staff)).body.conversationId).toBe(mine.body.conversationId);
    expect((await post(order.id, 'chat', cast.rival)).status).toBe(404);
    await advance(app, cast, order.id, 'COURIER_ASSIGNED');
    expect((await post(order.id, 'chat', courier)).body.conversationId).toBe(mine.body.conversationId);
    const members = await sharedCall('GET', `/chat/conversations/${mine.body.conversationId}`, { token: courier.accessToken });
    expect(members.status).toBe(200);
    await advance(app, cast, order.id, 'DELIVERED', courier);
    expect((await post(order.id, 'chat', cast.consumer)).body.code).toBe('ORDER_TRANSITION');
  });
});

describe('an administrator’s cancel (orders.manage)', () => {
  it('until delivery, courier released and money back; never their own order; needs the permission', async () => {
    const courier = await freeCourier(doubles);
    const order = await walletOrder(app, cast.consumer, cast.owner.partnerId, cast.store);
    await advance(app, cast, order.id, 'PICKED_UP', courier);
    const url = `/orders/admin/${order.id}/cancel`;
    expect((await app.call('POST', url, { token: await staff.limitedAdmin([]), body: { reason: 'x' } })).body.code).toBe('PERMISSION_REQUIRED');
    expect((await app.call('POST', url, { token: staff.admin(), body: {} })).status).toBe(400);
    const cancelled = await app.call('POST', url, { token: staff.admin(), body: { reason: 'Khách báo mất liên lạc với tài xế' } });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelledBy: 'ADMIN', payment: { settled: 'RELEASED' } });
    expect((await doubles.courierState(courier.user.id)).jobId).toBeNull();

    const own = await place(app, draftOf(staff.admin().user.id, cast.owner.partnerId, cast.store));
    const refused = await app.call('POST', `/orders/admin/${own.id}/cancel`, { token: staff.admin(), body: { reason: 'mine' } });
    expect([refused.status, refused.body.code]).toEqual([403, 'ORDER_SELF_MANAGE']);
  });
});
