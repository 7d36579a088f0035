import { randomUUID } from 'node:crypto';
import { promotionCommands } from '../../../src/modules/promotions';
import { PROMOTION_REDEMPTIONS } from '../../../src/modules/promotions/promotions.model';
import { AppError } from '../../../src/platform/core/errors/app-error';
import { db } from '../../../src/platform/core/firebase/firebase';
import { adminTokens, registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { testConfig } from '../../helpers/config';
import { requireEmulators } from '../../helpers/emulators';
import { activePartner, type PartnerOwner } from '../../helpers/partners';

// The commands checkout and orders call (reserve before the order exists, releaseFor when it fails or is called off),
// against the emulator: the limits under parallel reserves, one use per reference, a use given back and taken again.
beforeAll(requireEmulators);

const commands = promotionCommands(testConfig());
let admin: Tokens, owner: PartnerOwner;
beforeAll(async () => {
  [admin, owner] = await Promise.all([adminTokens(), activePartner('Cơm Tấm Ba Ghiền')]);
});

const day = 86_400_000;
async function voucher(who: Tokens, extra: Record<string, unknown> = {}) {
  const body = {
    code: `R${randomUUID().replace(/-/g, '').slice(0, 10)}`.toUpperCase(),
    title: 'Giảm 10% đơn hàng',
    kind: 'PERCENT',
    value: 10,
    maxDiscount: 50_000,
    minSpend: 0,
    startsAt: new Date(Date.now() - day).toISOString(),
    endsAt: new Date(Date.now() + day).toISOString(),
    perUserLimit: 1,
    verticals: ['ORDER'],
    ...extra,
  };
  const res = await call('POST', '/promotions/manage', { token: who.accessToken, body });
  if (res.status !== 201) throw new Error(`voucher ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; code: string };
}
const order = () => `ORDER:${randomUUID()}`;
const reserveAs = (userId: string, code: string, reference = order(), extra: Partial<Parameters<typeof commands.reserve>[0]> = {}) =>
  commands.reserve({ userId, code, vertical: 'ORDER', partnerId: null, amount: 200_000, reference, ...extra });
const outcome = async (attempt: () => Promise<unknown>): Promise<string> => {
  for (let i = 0; ; i += 1) {
    try {
      await attempt();
      return 'RESERVED';
    } catch (err) {
      // A caller retries 503 CONTENDED; anything else is the answer.
      if (!(err instanceof AppError) || err.code !== 'CONTENDED' || i === 20)
        return err instanceof AppError ? (err.code ?? String(err.statusCode)) : String(err);
    }
  }
};
const stats = async (id: string) =>
  (await call('GET', `/promotions/manage/${id}`, { token: admin.accessToken })).body.stats as { redeemed: number; remaining: number };

describe('promotionCommands', () => {
  it('40 checkouts reserving the last 6 uses at once: exactly 6 get one, and the figures agree', async () => {
    const v = await voucher(admin, { totalLimit: 6 });
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => outcome(() => reserveAs(`buyer-${randomUUID()}-${i}`, v.code))));
    const counts = outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }), {});
    expect(counts).toEqual({ RESERVED: 6, PROMOTION_EXHAUSTED: 34 });
    expect(await stats(v.id)).toEqual({ redeemed: 6, remaining: 0 });
  });

  it('one use per reference: a repeat (even in parallel) answers the same use; another voucher on it is PROMOTION_PAYABLE_TAKEN', async () => {
    const v = await voucher(admin, { perUserLimit: 2, totalLimit: 10 });
    const other = await voucher(admin);
    const userId = `buyer-${randomUUID()}`;
    const reference = order();
    const twice = await Promise.all([reserveAs(userId, v.code, reference), reserveAs(userId, v.code, reference)]);
    expect(twice[0]).toEqual(twice[1]);
    expect(twice[0]).toMatchObject({ code: v.code, promotionId: v.id, discount: 20_000, amount: 200_000 });
    // The repeat names another amount: the first use is answered (the caller compares `amount`).
    expect(await reserveAs(userId, v.code, reference, { amount: 90_000 })).toEqual(twice[0]);
    expect(await stats(v.id)).toEqual({ redeemed: 1, remaining: 9 });
    await expect(reserveAs(userId, other.code, reference)).rejects.toMatchObject({ code: 'PROMOTION_PAYABLE_TAKEN' });
    // The per-user count took one use: a second order takes the second, a third is over the limit.
    await reserveAs(userId, v.code);
    await expect(reserveAs(userId, v.code)).rejects.toMatchObject({ code: 'PROMOTION_USER_LIMIT' });
  });

  it('releaseFor gives the use back (idempotent, nothing held is nothing to do); the same reference takes it again', async () => {
    const v = await voucher(admin, { totalLimit: 1 });
    const first = `buyer-${randomUUID()}`;
    const reference = order();
    const held = await reserveAs(first, v.code, reference);
    await expect(reserveAs(`buyer-${randomUUID()}`, v.code)).rejects.toMatchObject({ code: 'PROMOTION_EXHAUSTED' });
    await commands.releaseFor(reference, 'The checkout failed');
    await commands.releaseFor(reference, 'The checkout failed');
    await commands.releaseFor(order(), 'Never reserved');
    expect(await stats(v.id)).toEqual({ redeemed: 0, remaining: 1 });
    const stored = (await db().collection(PROMOTION_REDEMPTIONS).doc(held.redemptionId).get()).data();
    expect(stored).toMatchObject({ status: 'RELEASED', releaseReason: 'The checkout failed' });

    // A retried checkout names the same order: the same use is taken again, counted once.
    const again = await reserveAs(first, v.code, reference);
    expect(again.redemptionId).toBe(held.redemptionId);
    expect((await db().collection(PROMOTION_REDEMPTIONS).doc(held.redemptionId).get()).data()).toMatchObject({ status: 'REDEEMED', releaseReason: null });
    expect(await stats(v.id)).toEqual({ redeemed: 1, remaining: 0 });
    // Once given back, another voucher may hold the reference.
    await commands.releaseFor(reference, 'Order cancelled');
    const other = await voucher(admin);
    expect((await reserveAs(first, other.code, reference)).promotionId).toBe(other.id);
  });

  it('a use reserved for an order comes back only through the system: the consumer’s own release is refused', async () => {
    const me = await registerVerified();
    const v = await voucher(admin);
    const held = await reserveAs(me.user.id, v.code);
    const res = await call('DELETE', `/promotions/redemptions/${held.redemptionId}`, { token: me.accessToken });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PROMOTION_RELEASE_REFUSED');
    const listed = (await call('GET', '/promotions/redemptions', { token: me.accessToken })).body.items;
    expect(listed).toEqual([expect.objectContaining({ id: held.redemptionId, vertical: 'ORDER', payable: null, status: 'REDEEMED' })]);
  });

  it('a partner’s voucher applies to its own stores only; terms are checked as a redemption checks them; preview uses nothing', async () => {
    const theirs = await voucher(owner, { partnerId: owner.partnerId, kind: 'FIXED', value: 25_000, maxDiscount: undefined, minSpend: 100_000 });
    const userId = `buyer-${randomUUID()}`;
    await expect(reserveAs(userId, theirs.code)).rejects.toMatchObject({ code: 'PROMOTION_NOT_APPLICABLE' });
    await expect(reserveAs(userId, theirs.code, order(), { partnerId: `other-${randomUUID()}` })).rejects.toMatchObject({ code: 'PROMOTION_NOT_APPLICABLE' });
    await expect(reserveAs(userId, theirs.code, order(), { partnerId: owner.partnerId, amount: 99_999 })).rejects.toMatchObject({
      code: 'PROMOTION_MIN_SPEND',
    });
    await expect(reserveAs(userId, theirs.code, order(), { partnerId: owner.partnerId, vertical: 'BOOKING' })).rejects.toMatchObject({
      code: 'PROMOTION_NOT_APPLICABLE',
    });
    await expect(reserveAs(userId, 'NOSUCHCODE')).rejects.toMatchObject({ code: 'PROMOTION_NOT_FOUND' });
    const preview = await commands.preview({ userId, code: theirs.code.toLowerCase(), vertical: 'ORDER', partnerId: owner.partnerId, amount: 150_000 });
    expect(preview).toMatchObject({ promotionId: theirs.id, discount: 25_000 });
    expect((await stats(theirs.id)).redeemed).toBe(0);
    expect(await reserveAs(userId, theirs.code, order(), { partnerId: owner.partnerId })).toMatchObject({ discount: 25_000 });
    await expect(commands.preview({ userId, code: theirs.code, vertical: 'ORDER', partnerId: owner.partnerId, amount: 150_000 })).rejects.toMatchObject({
      code: 'PROMOTION_USER_LIMIT',
    });
  });
});
