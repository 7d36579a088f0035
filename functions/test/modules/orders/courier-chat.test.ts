import { leaveContextConversation } from '../../../src/modules/chat';
import { CONVERSATIONS } from '../../../src/modules/chat/chat.collections';
import { contextConversationId } from '../../../src/modules/chat/conversations.model';
import { ordersRepo } from '../../../src/modules/orders/orders.repo';
import { db } from '../../../src/platform/core/firebase/firebase';
import type { Tokens } from '../../helpers/accounts';
import { advance, draftOf, freeCourier, place, useOrdersApp } from '../../helpers/orders';

// A released courier and the order's chat opened at the same time: the open read the order while they were its
// courier, then the release committed and its trigger took them out of the conversation, then the open's
// transaction ran. The open re-reads the order in its own transaction, so it never adds them back.
jest.setTimeout(90_000);

const { doubles, app, cast } = useOrdersApp();

const post = (id: string, action: string, token: Tokens, body: Record<string, unknown> = {}) => app.call('POST', `/orders/${id}/${action}`, { token, body });
const members = async (orderId: string) =>
  ((
    await db()
      .collection(CONVERSATIONS)
      .doc(contextConversationId({ type: 'ORDER', id: orderId }))
      .get()
  ).get('memberIds') as string[] | undefined) ?? [];

async function assigned() {
  const courier = await freeCourier(doubles);
  const order = await place(app, draftOf(cast.consumer.user.id, cast.owner.partnerId, cast.store));
  await advance(app, cast, order.id, 'READY_FOR_PICKUP');
  if ((await app.service.searchCourier(order.id)) !== 'assigned') throw new Error('not assigned');
  return { courier, order };
}

/** The next read of the order (the open's first) returns it as it was, after `meanwhile` ran. */
function staleReadAfter(meanwhile: () => Promise<void>) {
  const read = ordersRepo.get.bind(ordersRepo);
  return jest.spyOn(ordersRepo, 'get').mockImplementationOnce(async (id, tx) => {
    const stale = await read(id, tx);
    await meanwhile();
    return stale;
  });
}

describe('the order’s chat and a released courier', () => {
  it('the courier’s own open, overtaken by their give-up and its leave: 404, and they are not added back', async () => {
    const { courier, order } = await assigned();
    // The consumer opened the conversation before: it exists, without the courier.
    expect((await post(order.id, 'chat', cast.consumer)).status).toBe(200);
    const spy = staleReadAfter(async () => {
      expect((await post(order.id, 'give-up', courier)).status).toBe(200);
      await leaveContextConversation({ type: 'ORDER', id: order.id }, courier.user.id);
    });
    try {
      const opened = await post(order.id, 'chat', courier);
      expect(opened.status).toBe(404);
    } finally {
      spy.mockRestore();
    }
    expect(await members(order.id)).toEqual([cast.consumer.user.id]);
  });

  it('the store’s open with the courier it read, overtaken by the release: the store joins, the courier does not', async () => {
    const { courier, order } = await assigned();
    const spy = staleReadAfter(async () => {
      expect((await post(order.id, 'give-up', courier)).status).toBe(200);
      await leaveContextConversation({ type: 'ORDER', id: order.id }, courier.user.id);
    });
    try {
      expect((await post(order.id, 'chat', cast.staff)).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect((await members(order.id)).sort()).toEqual([cast.consumer.user.id, cast.staff.user.id].sort());
    // The courier of the order now joins as usual when they open it.
    const next = await freeCourier(doubles);
    expect(await app.service.searchCourier(order.id)).toBe('assigned');
    expect((await post(order.id, 'chat', next)).status).toBe(200);
    expect(await members(order.id)).toContain(next.user.id);
    expect(await members(order.id)).not.toContain(courier.user.id);
  });
});
