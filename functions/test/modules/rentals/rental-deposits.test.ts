import { randomUUID } from 'node:crypto';
import { registerVerified, type Tokens } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { testConfig } from '../../helpers/config';
import { requireEmulators } from '../../helpers/emulators';
import { area } from '../../helpers/geo';
import { inboxOf } from '../../helpers/notifications';
import { partnerCast, type PartnerOwner } from '../../helpers/partners';
import { waitFor } from '../../helpers/wait';
import { earnings, ledgerCheck, topUp, walletOf } from '../../helpers/wallet';
import { createRentalDeposits } from '../../../src/modules/rentals/rentals.deposits';
import { onDepositWritten } from '../../../src/modules/rentals/rentals.triggers';
import { RENTAL_DEPOSITS } from '../../../src/modules/rentals/rentals.collections';
import type { DepositRecord } from '../../../src/modules/rentals/rentals.deposits.model';
import { db } from '../../../src/platform/core/firebase/firebase';
import type { DocumentEvent } from '../../../src/platform/core/module/module';

// A rental deposit's whole life through the API: held in the tenant's wallet (the ledger's HELD), released to the
// landlord on the lease (less the commission), refunded when the landlord declines or the tenant withdraws in time,
// forfeited after the free window; a second release refused; strangers refused; both ledgers balanced.
beforeAll(requireEmulators);
jest.setTimeout(90_000);

let admin: Tokens, owner: PartnerOwner, rival: PartnerOwner, user: Tokens;
beforeAll(async () => {
  ({ admin, owner, rival, user } = await partnerCast('Nhà cho thuê Cô Tư', 'Nhà cho thuê Khác'));
  await topUp(user, 30_000_000);
});

async function listingWithDeposit(depositVnd: number) {
  const made = await call('POST', '/rentals/partner/listings', {
    token: owner.accessToken,
    headers: { 'idempotency-key': randomUUID() },
    body: {
      partnerId: owner.partnerId,
      name: 'Phòng trọ Bình Thạnh',
      location: area(),
      kind: 'ROOM',
      monthlyRentVnd: 4_000_000,
      depositVnd,
      areaM2: 25,
      bedrooms: 0,
      bathrooms: 1,
    },
  });
  expect(made.status).toBe(201);
  return made.body.id as string;
}
const pay = (who: Tokens, listingId: string, key = randomUUID()) =>
  call('POST', `/rentals/listings/${listingId}/deposits`, { token: who.accessToken, headers: { 'idempotency-key': key } });
const move = (who: Tokens, path: string, body: Record<string, unknown> = {}) => call('POST', path, { token: who.accessToken, body });

describe('rental deposits', () => {
  it('held in the wallet, then released to the landlord on the lease less 10 %; released again is 409; both told; the ledgers balance', async () => {
    const listing = await listingWithDeposit(8_000_000);
    const [before, earned] = [await walletOf(user), await earnings(owner)];
    const key = randomUUID();
    const paid = await pay(user, listing, key);
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ status: 'HELD', amountVnd: 8_000_000, listingId: listing, settled: false });
    expect((await pay(user, listing, key)).body.id).toBe(paid.body.id);
    const held = await walletOf(user);
    expect([held.balance, held.held]).toEqual([before.balance - 8_000_000, before.held + 8_000_000]);

    expect((await move(owner, `/rentals/deposits/${paid.body.id}/confirm-lease`)).body.code).toBe('RENTAL_DEPOSIT_NOT_ALLOWED');
    expect((await move(rival, `/rentals/deposits/${paid.body.id}/decline`, { reason: 'x' })).status).toBe(404);
    const stranger = await registerVerified();
    expect((await call('GET', `/rentals/deposits/${paid.body.id}`, { token: stranger.accessToken })).status).toBe(404);

    const released = await move(user, `/rentals/deposits/${paid.body.id}/confirm-lease`);
    expect(released.body).toMatchObject({ status: 'RELEASED', settled: true });
    expect((await move(user, `/rentals/deposits/${paid.body.id}/confirm-lease`)).body.code).toBe('RENTAL_DEPOSIT_TRANSITION');
    expect((await move(admin, `/admin/rentals/deposits/${paid.body.id}/refund`, { reason: 'x' })).body.code).toBe('RENTAL_DEPOSIT_TRANSITION');
    const after = await walletOf(user);
    expect([after.balance, after.held]).toEqual([before.balance - 8_000_000, before.held]);
    expect(await earnings(owner)).toBe(earned + 7_200_000);
    expect((await ledgerCheck(user.user.id)).ok).toBe(true);
    expect((await ledgerCheck(owner.user.id)).ok).toBe(true);
    // The trigger delivered again, twice, for the release: no second capture, no second notice.
    const released0 = (await db().collection(RENTAL_DEPOSITS).doc(paid.body.id).get()).data() as DepositRecord;
    const change = (): DocumentEvent => ({
      id: `evt-${randomUUID()}`,
      time: new Date().toISOString(),
      params: {},
      before: { id: paid.body.id, data: { ...released0, status: 'HELD', settled: false } },
      after: { id: paid.body.id, data: { ...released0 } },
    });
    for (let i = 0; i < 2; i++) await onDepositWritten(change(), testConfig());
    expect(await earnings(owner)).toBe(earned + 7_200_000);
    await waitFor(async () => ((await inboxOf(user.user.id, { entityId: paid.body.id, event: 'rental.deposit.released' })).length === 1 ? true : undefined), {
      what: 'one release notice',
    });
    const events = await call('GET', `/rentals/deposits/${paid.body.id}/events`, { token: user.accessToken });
    expect(events.body.map((e: { action: string }) => e.action)).toEqual(['confirmLease']);
    for (const who of [user, owner])
      await waitFor(
        async () => {
          const kinds = (await inboxOf(who.user.id, { entityId: paid.body.id })).map((n) => n.event);
          return kinds.includes('rental.deposit.held') && kinds.includes('rental.deposit.released') ? true : undefined;
        },
        { what: 'the deposit notices' },
      );
  });

  it('refunded: declined by the landlord (reason), withdrawn in time by the tenant, or by an administrator; the wallet whole again', async () => {
    const listing = await listingWithDeposit(2_000_000);
    const before = await walletOf(user);
    const a = await pay(user, listing);
    const declined = await move(owner, `/rentals/deposits/${a.body.id}/decline`, { reason: 'Đã cho thuê' });
    expect(declined.body).toMatchObject({ status: 'REFUNDED', settled: true, outcome: { by: owner.user.id, reason: 'Đã cho thuê' } });
    expect((await call('GET', `/rentals/deposits/${a.body.id}`, { token: user.accessToken })).body.outcome.by).toBe('STAFF');
    const b = await pay(user, listing);
    expect((await move(user, `/rentals/deposits/${b.body.id}/withdraw`)).body).toMatchObject({ status: 'REFUNDED', settled: true });
    const c = await pay(user, listing);
    expect((await move(admin, `/admin/rentals/deposits/${c.body.id}/refund`, { reason: 'Tranh chấp' })).body.status).toBe('REFUNDED');
    expect(await walletOf(user)).toMatchObject({ balance: before.balance, held: before.held });
    const mine = await call('GET', '/rentals/deposits?status=REFUNDED', { token: user.accessToken });
    expect(mine.body.items.map((d: { id: string }) => d.id)).toEqual(expect.arrayContaining([a.body.id, b.body.id, c.body.id]));
    const theirs = await call('GET', `/rentals/deposits?partnerId=${owner.partnerId}`, { token: owner.accessToken });
    expect(theirs.body.items.map((d: { id: string }) => d.id)).toEqual(expect.arrayContaining([a.body.id]));
    expect((await call('GET', `/rentals/deposits?partnerId=${owner.partnerId}`, { token: rival.accessToken })).status).toBe(404);
  });

  it('withdrawn after the free window: FORFEITED to the landlord; a listing without a deposit is 422; the landlord cannot pay its own', async () => {
    const listing = await listingWithDeposit(1_000_000);
    const paid = await pay(user, listing);
    const earned = await earnings(owner);
    const later = createRentalDeposits(testConfig(), () => Date.now() + 49 * 3_600_000);
    const forfeited = await later.act({ userId: user.user.id, roles: user.user.roles }, paid.body.id, 'withdraw', null);
    expect(forfeited).toMatchObject({ status: 'FORFEITED', settled: true });
    expect(await earnings(owner)).toBe(earned + 900_000);
    // An administrator does not settle a deposit of their own.
    await topUp(admin, 2_000_000);
    const own = await pay(admin, listing);
    expect((await move(admin, `/admin/rentals/deposits/${own.body.id}/refund`, { reason: 'x' })).body.code).toBe('RENTAL_DEPOSIT_SELF_MANAGE');
    // A dispute settled for the landlord: an administrator releases the deposit (less the commission).
    await topUp(user, 1_000_000);
    const disputed = await pay(user, listing);
    const earnedBefore = await earnings(owner);
    expect((await move(user, `/admin/rentals/deposits/${disputed.body.id}/release`, { reason: 'x' })).status).toBe(403);
    expect((await move(admin, `/admin/rentals/deposits/${disputed.body.id}/release`, { reason: 'Đã ký hợp đồng' })).body).toMatchObject({
      status: 'RELEASED',
      settled: true,
    });
    expect(await earnings(owner)).toBe(earnedBefore + 900_000);
    const none = await listingWithDeposit(0);
    expect((await pay(user, none)).body.code).toBe('RENTAL_NO_DEPOSIT');
    expect((await pay(owner, listing)).body.code).toBe('RENTAL_OWN_LISTING');
  });
});
