import type { AppConfig } from '../../platform/core/config';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { ForbiddenError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { logger } from '../../platform/core/logging/logger';
import { IdempotencyKeyReusedError } from '../../platform/kits/idempotency/idempotency';
import { holdsPermission } from '../../platform/core/auth/roles';
import { db } from '../../platform/core/firebase/firebase';
import { paginate } from '../../platform/kits/firestore/paginate';
import { readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { stableId } from '../../platform/kits/ids/stable-id';
import { vnd } from '../../platform/kits/money/money';
import { readHistory, transition, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { actorLabel } from '../bookings';
import { partnerMembers, partnerRoleOf } from '../partners';
import { paymentCommands } from '../payments';
import { RENTAL_DEPOSITS } from './rentals.collections';
import { rentalListings } from './rentals.catalog';
import {
  depositDeadline,
  depositMachine,
  depositView,
  type DepositAction,
  type DepositActor,
  type DepositRecord,
  type DepositStatus,
} from './rentals.deposits.model';

// The deposit's life on the payments face: paid as a hold in the tenant's wallet (one transaction with the deposit's
// creation, so no hold is ever without its deposit), captured to the landlord's owner less the commission when
// released or forfeited, released back to the wallet when refunded. Each move is one transaction of the deposit
// (state-machine kit); its money follows in the request and again in the trigger, once (the payment's own status).

/** Withdrawn within 48 hours of paying, a deposit is refunded; later it is forfeited to the landlord. */
export const DEPOSIT_FREE_WITHDRAW_HOURS = 48;
/** Without a lease within 14 days, the deposit is refunded (one timer: the deadline kit's tasks wait at most ~24 days). */
export const DEPOSIT_LEASE_DAYS = 14;
export const DEPOSITS_PERMISSION = 'bookings.manage' as const;

const deposits = () => typedCollection<DepositRecord>(RENTAL_DEPOSITS);
const notFound = () => new NotFoundError('No such deposit').withCode('RENTAL_DEPOSIT_NOT_FOUND');

type Viewer = { userId: string; roles: readonly string[]; permissions?: string[] };
type Caller = { by: string; role: DepositActor };

export function createRentalDeposits(config: Readonly<AppConfig>, now: () => number = Date.now) {
  const payments = () => paymentCommands(config);
  const store = (id: string): TransitionStore<DepositRecord, DepositStatus, DepositAction> => ({
    load: (tx) => readRecord(deposits().doc(id), tx),
    save: (tx, next) => {
      tx.set(deposits().doc(id), next);
    },
    ref: () => db().collection(RENTAL_DEPOSITS).doc(id),
  });
  const load = async (id: string) => (await readRecord(deposits().doc(id))) ?? Promise.reject(notFound());
  const isAdmin = (v: Viewer) => v.roles.includes('ADMIN') && holdsPermission(v.permissions, DEPOSITS_PERMISSION);

  /** The caller as the deposit's tenant, its landlord's member, or an administrator with bookings.manage; else 404. */
  async function callerOf(v: Viewer, d: DepositRecord, asAdmin = false): Promise<Caller> {
    if (asAdmin) {
      if (!isAdmin(v)) throw notFound();
      if (d.consumerId === v.userId || (await partnerRoleOf(d.partnerId, v.userId)) !== undefined)
        throw new ForbiddenError('Another administrator settles a deposit of yours').withCode('RENTAL_DEPOSIT_SELF_MANAGE');
      return { by: v.userId, role: 'ADMIN' };
    }
    if (d.consumerId === v.userId) return { by: v.userId, role: 'TENANT' };
    if ((await partnerRoleOf(d.partnerId, v.userId)) !== undefined) return { by: v.userId, role: 'LANDLORD' };
    if (isAdmin(v)) return { by: v.userId, role: 'ADMIN' };
    throw notFound();
  }
  const audienceOf = (c: Caller) => (c.role === 'TENANT' ? 'TENANT' : c.role === 'LANDLORD' ? 'LANDLORD' : 'ADMIN') as 'TENANT' | 'LANDLORD' | 'ADMIN';

  async function move(d: DepositRecord, caller: Caller | 'SYSTEM', action: DepositAction, reason: string | null) {
    const at = now();
    const moved = await transition(depositMachine, store(d.id), {
      action,
      by: caller === 'SYSTEM' ? 'system:rentals' : caller.by,
      rolesOf: () => [caller === 'SYSTEM' ? 'SYSTEM' : caller.role],
      apply: (x, to) => ({ ...x, status: to, outcome: { by: caller === 'SYSTEM' ? 'system:rentals' : caller.by, reason }, updatedAt: at }),
      reason,
      now: at,
      missing: notFound,
      deadline: depositDeadline.expiry(),
      tolerant: caller === 'SYSTEM' ? 'refused' : undefined,
    });
    // The trigger settles what this could not (a gateway hiccup): logged, the deposit answered as moved.
    return settle(moved.after).catch((err: unknown) => {
      logger.warn('deposit money left to its trigger', { depositId: d.id, error: (err as Error).message });
      return moved.after;
    });
  }

  /**
   * The money of an ended deposit, once: captured to the landlord's owner (RELEASED, FORFEITED) or released to the
   * tenant's wallet (REFUNDED), then marked `settled`. Once the hold is no longer AUTHORIZED its money has moved (only
   * this settles a deposit's hold, and the deposit's status never changes after it ends).
   */
  async function settle(d: DepositRecord): Promise<DepositRecord> {
    if (d.status === 'HELD' || d.settled) return d;
    const payment = await payments().get(d.paymentId);
    if (payment.status === 'AUTHORIZED') {
      // The request and the trigger may settle side by side: the one that finds the hold moved already is done too.
      const movedMeanwhile = (err: unknown) => ((err as { code?: string }).code === 'PAYMENT_TRANSITION' ? undefined : Promise.reject(err));
      if (d.status === 'REFUNDED') await payments().release(d.paymentId, `Deposit ${d.id} refunded`).catch(movedMeanwhile);
      else {
        const owner = (await partnerMembers(d.partnerId)).find((m) => m.role === 'OWNER');
        if (!owner) {
          // An operator's to settle (the deposit stays `settled: false`); retrying would not find an owner either.
          logger.error('deposit left to an operator: its landlord has no owner to pay', { depositId: d.id, partnerId: d.partnerId });
          return d;
        }
        await payments().capture(d.paymentId, { payeeId: owner.userId, feeBp: config.BOOKING_COMMISSION_BP }).catch(movedMeanwhile);
      }
    }
    return inTransaction(async (tx) => {
      const current = await readRecord(deposits().doc(d.id), tx);
      if (!current) return d;
      if (!current.settled) tx.update(deposits().doc(d.id), { settled: true, updatedAt: now() });
      return { ...current, settled: true };
    });
  }

  return {
    /**
     * Pays a listing's deposit: its amount set aside in the tenant's wallet (409 WALLET_INSUFFICIENT_FUNDS: top up
     * first) and the deposit HELD, in one transaction; the same key answers the same deposit.
     */
    async pay(v: Viewer, listingId: string, idempotencyKey: string) {
      const [listing] = await rentalListings().activeByIds([listingId]);
      if (!listing || !listing.partnerId) throw new NotFoundError('No such rental listing');
      if (listing.details.depositVnd <= 0) throw new UnprocessableError('This listing asks for no deposit').withCode('RENTAL_NO_DEPOSIT');
      if ((await partnerRoleOf(listing.partnerId, v.userId)) !== undefined)
        throw new ForbiddenError('You manage this listing: a deposit comes from a tenant').withCode('RENTAL_OWN_LISTING');
      const id = stableId({ scope: 'rentals.deposit', caller: v.userId, key: idempotencyKey });
      const at = now();
      const record = await inTransaction(async (tx) => {
        const [existing, hold] = await Promise.all([
          readRecord(deposits().doc(id), tx),
          payments().txHold(tx, {
            payerId: v.userId,
            amount: vnd(listing.details.depositVnd),
            purpose: 'RENTAL_DEPOSIT',
            ref: { type: 'RENTAL_DEPOSIT', id },
            description: `Đặt cọc: ${listing.name}`,
            idempotencyKey: `rental-deposit-${id}`,
          }),
        ]);
        if (existing) {
          if (existing.listingId !== listingId) throw new IdempotencyKeyReusedError();
          return existing;
        }
        const created: DepositRecord = {
          id,
          status: 'HELD',
          listingId,
          listingName: listing.name,
          partnerId: listing.partnerId!,
          consumerId: v.userId,
          amountVnd: listing.details.depositVnd,
          paymentId: hold.payment.id,
          freeWithdrawUntil: at + DEPOSIT_FREE_WITHDRAW_HOURS * 3_600_000,
          leaseBy: at + DEPOSIT_LEASE_DAYS * 86_400_000,
          settled: false,
          outcome: null,
          createdAt: at,
          updatedAt: at,
        };
        hold.write();
        tx.create(deposits().doc(id), created);
        return created;
      });
      return depositView(depositDeadline.settle(record, now()).entity, 'TENANT');
    },

    async get(v: Viewer, id: string) {
      const d = await load(id);
      const caller = await callerOf(v, d);
      return depositView(depositDeadline.settle(d, now()).entity, audienceOf(caller));
    },

    /** The tenant's deposits, or a landlord's (its members; an administrator), newest first. */
    async list(v: Viewer, q: { partnerId?: string; status?: DepositStatus; limit: number; cursor?: string }) {
      let query: FirebaseFirestore.Query<DepositRecord> = deposits();
      let audience: 'TENANT' | 'LANDLORD' | 'ADMIN' = 'TENANT';
      if (q.partnerId) {
        const member = (await partnerRoleOf(q.partnerId, v.userId)) !== undefined;
        if (!member && !isAdmin(v)) throw new NotFoundError('No such partner');
        audience = member ? 'LANDLORD' : 'ADMIN';
        query = query.where('partnerId', '==', q.partnerId);
      } else query = query.where('consumerId', '==', v.userId);
      if (q.status) query = query.where('status', '==', q.status);
      const page = await paginate(
        query,
        [{ field: 'createdAt', direction: 'desc' }],
        { limit: q.limit, cursor: q.cursor, query: `rentals:deposits:${q.partnerId ?? 'mine'}:${q.status ?? ''}`, caller: v.userId },
        (doc) => doc.data(),
      );
      const at = now();
      return { items: page.items.map((d) => depositView(depositDeadline.settle(d, at).entity, audience)), nextCursor: page.nextCursor };
    },

    async history(v: Viewer, id: string) {
      const d = await load(id);
      const caller = await callerOf(v, d);
      const label = (by: string) => actorLabel(by, d.consumerId, caller.role === 'TENANT' ? 'CONSUMER' : 'ADMIN');
      return (await readHistory<DepositStatus, DepositAction>(db().collection(RENTAL_DEPOSITS).doc(id))).map((e) => ({
        action: e.action,
        from: e.from ?? null,
        to: e.to,
        by: label(e.by),
        at: e.at,
        reason: e.reason ?? null,
      }));
    },

    /**
     * A move by its party: the tenant confirms the lease (RELEASED) or withdraws (REFUNDED within the free window,
     * FORFEITED after it); the landlord declines (REFUNDED); an administrator releases or refunds (a dispute).
     */
    async act(v: Viewer, id: string, what: 'confirmLease' | 'withdraw' | 'decline' | 'release' | 'refund', reason: string | null) {
      const d = await load(id);
      const caller = await callerOf(v, d, what === 'release' || what === 'refund');
      const action: DepositAction =
        what === 'withdraw'
          ? now() <= d.freeWithdrawUntil
            ? 'withdraw'
            : 'forfeit'
          : what === 'release'
            ? 'adminRelease'
            : what === 'refund'
              ? 'adminRefund'
              : what;
      return depositView(await move(d, caller, action, reason), audienceOf(caller));
    },

    /** The lease window's task (at least once): refunds a deposit still HELD. */
    expire: (id: string) =>
      depositDeadline.run(id, {
        load: (depositId) => readRecord(deposits().doc(depositId)),
        expire: async (depositId) => move(await load(depositId), 'SYSTEM', 'expire', 'No lease within the window'),
        now,
      }),

    settle,
  };
}

export type RentalDeposits = ReturnType<typeof createRentalDeposits>;
