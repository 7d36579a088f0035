import { ValidationError } from '../../platform/core/errors/app-error';
import { logger } from '../../platform/core/logging/logger';
import { newHandoverCodeState } from '../../platform/kits/handover/handover';
import { stableId } from '../../platform/kits/ids/stable-id';
import { vnd } from '../../platform/kits/money/money';
import { transition, type TransitionStore } from '../../platform/kits/state-machine/state-machine';
import { iso } from '../../platform/kits/time/time';
import { accounts } from '../users';
import { noSuchDelivery, type DeliveryCore } from './delivery.context';
import { noDriverDeadline } from './delivery.deadlines';
import type { DeliveryDispatch } from './delivery.dispatch';
import { placingMachine, type DeliveryStatus } from './delivery.machine';
import type { DeliveryContact, DeliveryPaymentMethod, DeliveryPoint, DeliveryRecord, ParcelSize, QuoteTerms } from './delivery.model';
import { checkedDistance, feeOf, honouredQuote, signQuote } from './delivery.pricing';
import { deliveryRepo } from './delivery.repo';
import type { DeliverySettlement } from './delivery.settlement';

// Quotes and placing a parcel: the quote's signed terms (the price is never the client's), the sender's contact, the
// fee held from the wallet (WALLET), the no-driver timer, the parcel stored as the first move of its history, then
// the first search for a driver.

export interface QuoteInput {
  pickup: DeliveryPoint;
  dropoff: DeliveryPoint;
  size: ParcelSize;
  codAmount?: number;
}

export interface PlaceInput {
  quoteId: string;
  sender?: { name?: string; phone?: string };
  recipient: DeliveryContact;
  parcel: { description: string };
  codAmount?: number;
  paymentMethod: DeliveryPaymentMethod;
  note?: string | null;
}

/** A parcel before its first write: NEW, so that placing it is a move like the others. */
type Placing = Omit<DeliveryRecord, 'status'> & { status: 'NEW' | DeliveryStatus };

const point = (p: DeliveryPoint): DeliveryPoint => ({ lat: p.lat, lng: p.lng, address: p.address });

export function createDeliveryPlacing(
  { deps, now, schedulers }: DeliveryCore,
  { dispatchOrRetry }: Pick<DeliveryDispatch, 'dispatchOrRetry'>,
  { releaseHold }: Pick<DeliverySettlement, 'releaseHold'>,
) {
  const { settings, payments } = deps;

  function quote(senderId: string, input: QuoteInput) {
    const at = now();
    const distanceM = checkedDistance(input.pickup, input.dropoff, settings);
    const codVnd = input.codAmount ?? 0;
    const price = feeOf(distanceM, input.size, codVnd, settings);
    const terms: QuoteTerms = {
      senderId,
      pickup: point(input.pickup),
      dropoff: point(input.dropoff),
      size: input.size,
      codVnd,
      distanceM,
      feeVnd: price.feeVnd,
      expiresAt: at + settings.quoteTtlSec * 1_000,
    };
    return {
      quoteId: signQuote(terms, deps.quoteKey),
      currency: 'VND' as const,
      feeVnd: price.feeVnd,
      breakdown: { baseVnd: price.baseVnd, distanceVnd: price.distanceVnd, sizeMultiplier: price.sizeMultiplierBp / 10_000, codFeeVnd: price.codFeeVnd },
      distanceM,
      size: input.size,
      codAmount: codVnd,
      pickup: terms.pickup,
      dropoff: terms.dropoff,
      expiresAt: iso(terms.expiresAt),
    };
  }

  /** Who the driver calls at the pickup: as given, else the account's name and phone (a phone is required). */
  async function senderContact(senderId: string, given: PlaceInput['sender']): Promise<DeliveryContact> {
    const account = given?.name !== undefined && given.phone !== undefined ? undefined : await accounts.get(senderId);
    const phone = given?.phone ?? account?.phone ?? null;
    if (!phone)
      throw new ValidationError('Validation failed: body.sender.phone: required, your account has no phone number', [
        { field: 'body.sender.phone', message: 'required: your account has no phone number' },
      ]);
    return { name: given?.name ?? account?.name ?? 'Sender', phone };
  }

  function newDelivery(id: string, senderId: string, terms: QuoteTerms, sender: DeliveryContact, input: PlaceInput, at: number): DeliveryRecord {
    return {
      id,
      senderId,
      driverId: null,
      status: 'CREATED',
      pickup: { ...terms.pickup, contact: sender },
      dropoff: { ...terms.dropoff, contact: { name: input.recipient.name, phone: input.recipient.phone } },
      parcel: { size: terms.size, description: input.parcel.description },
      note: input.note ?? null,
      distanceM: terms.distanceM,
      feeVnd: terms.feeVnd,
      codVnd: terms.codVnd,
      payment: { method: input.paymentMethod, holdPaymentId: null, feePaymentId: null, cancelFeePaymentId: null },
      codSettledAt: null,
      codes: { pickup: newHandoverCodeState(), dropoff: newHandoverCodeState() },
      pickupProof: null,
      deliveryProof: null,
      driver: null,
      cancelledBy: null,
      cancelReason: null,
      cancellationFeeVnd: 0,
      rating: null,
      assignBy: at + settings.noDriverWindowSec * 1_000,
      nextDispatchAt: null,
      dispatchAttempts: 0,
      createdAt: at,
      assignedAt: null,
      pickedUpAt: null,
      deliveredAt: null,
      endedAt: null,
      updatedAt: at,
    };
  }

  /** The fee held in the sender's wallet (409 WALLET_INSUFFICIENT_FUNDS, nothing stored); a retry finds its first hold. */
  async function holdFee(d: DeliveryRecord, at: number): Promise<string> {
    const holdOnce = (key: string) =>
      payments.hold({
        payerId: d.senderId,
        amount: vnd(d.feeVnd),
        purpose: 'DELIVERY',
        ref: { type: 'DELIVERY', id: d.id },
        description: 'Parcel delivery (held until delivered)',
        idempotencyKey: key,
      });
    const first = await holdOnce(d.id);
    if (first.status === 'AUTHORIZED' && first.amount === d.feeVnd) return first.id;
    // The first attempt's hold was given back (that attempt failed), or held another quote's fee (given back now):
    // a new one, so a hold never covers less, or more, than the fee it secures.
    if (first.status === 'AUTHORIZED') await releaseHold(first.id, 'The placing was retried at another fee');
    return (await holdOnce(`${d.id}-${at}`)).id;
  }

  /** Stores the parcel as the move NEW → CREATED; a parcel stored already (a racing retry) is given back as it is. */
  async function store(record: DeliveryRecord, at: number): Promise<{ delivery: DeliveryRecord; created: boolean }> {
    const placing: TransitionStore<Placing, Placing['status'], 'place'> = {
      load: async (tx) => (await deliveryRepo.get(record.id, tx)) ?? { ...record, status: 'NEW' },
      save: (tx, next, previous) => {
        if (previous.status === 'NEW') deliveryRepo.create(tx, next as DeliveryRecord);
      },
      ref: () => deliveryRepo.ref(record.id),
    };
    const result = await transition(placingMachine, placing, {
      action: 'place',
      by: record.senderId,
      now: at,
      missing: noSuchDelivery,
      rolesOf: () => ['SENDER'],
      apply: (_p, to) => ({ ...record, status: to }),
      tolerant: 'refused',
    });
    return { delivery: result.after as DeliveryRecord, created: result.changed };
  }

  /** Places a parcel from its quote (Idempotency-Key: a retry answers the same parcel), then searches for a driver. */
  async function place(senderId: string, input: PlaceInput, idempotencyKey: string): Promise<{ delivery: DeliveryRecord; created: boolean }> {
    const at = now();
    const id = stableId({ scope: 'delivery.place', caller: senderId, key: idempotencyKey, prefix: 'D' });
    const existing = await deliveryRepo.get(id);
    if (existing) return { delivery: existing, created: false };
    const terms = honouredQuote(input.quoteId, senderId, input.codAmount, at, deps.quoteKey);
    const record = newDelivery(id, senderId, terms, await senderContact(senderId, input.sender), input, at);
    if (input.paymentMethod === 'WALLET') record.payment.holdPaymentId = await holdFee(record, at);
    // Armed before the parcel is stored: a request that dies in between leaves a hold that this task gives back.
    await noDriverDeadline.arm(schedulers.noDriver, record, at);
    let stored: { delivery: DeliveryRecord; created: boolean };
    try {
      stored = await store(record, at);
    } catch (err) {
      const found = await deliveryRepo.get(id).then(
        (d) => (d ? 'stored' : 'none'),
        () => 'unknown',
      );
      if (found === 'none') await releaseHold(record.payment.holdPaymentId, 'The delivery could not be placed');
      else if (found === 'unknown') logger.warn('delivery placing failed and its parcel could not be read: the no-driver task decides', { deliveryId: id });
      throw err;
    }
    if (!stored.created) return stored;
    return { delivery: (await dispatchOrRetry(stored.delivery)) ?? stored.delivery, created: true };
  }

  return { quote, place };
}

export type DeliveryPlacing = ReturnType<typeof createDeliveryPlacing>;
