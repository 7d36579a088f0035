import { FieldPath, FieldValue, type Transaction } from 'firebase-admin/firestore';
import { ConflictError } from '../../core/errors/app-error';
import type { ErrorCode } from '../../core/errors/codes';
import { db } from '../../core/firebase/firebase';

// Capacity per unit of time (platform/kits/inventory/units.ts), one document per resource and unit:
// `{collection}/{resourceId}_{unit}` holds each booking's take of that unit (`entries`), so availability is the
// capacity less the live entries: CONFIRMED ones, and HELD ones until their hold runs out. An expired hold frees its
// capacity the moment it ends, without a write (read lazily; the next write of the document drops it). A booking
// holds, confirms or releases all its units in the caller's transaction, read first and written after every read,
// and doing it again changes nothing: an entry is keyed by the booking. A unit document takes one write per booking
// move; a resource's busiest unit (the last room on New Year's Eve) is the hot spot, so callers queue a resource's
// transactions in the instance (platform/kits/firestore/one-at-a-time).

export type EntryState = 'HELD' | 'CONFIRMED';

export interface UnitEntry {
  qty: number;
  state: EntryState;
  /** A hold's end (epoch ms); null once confirmed. */
  until: number | null;
}

export interface UnitDocument {
  resourceId: string;
  unit: string;
  entries: Record<string, UnitEntry>;
  updatedAt: number;
}

/** Whether an entry takes capacity at `now`. */
export const isLive = (entry: UnitEntry, now: number) => entry.state === 'CONFIRMED' || (entry.until !== null && entry.until > now);

/** The capacity the live entries take, leaving out `except` (the booking asking again). */
export function takenOf(doc: Pick<UnitDocument, 'entries'> | undefined, now: number, except?: string): number {
  if (!doc) return 0;
  let taken = 0;
  for (const [bookingId, entry] of Object.entries(doc.entries)) if (bookingId !== except && isLive(entry, now)) taken += entry.qty;
  return taken;
}

/** The first unit short of `qty` (and what it has left), or null when every unit has room. */
export function shortUnit(
  units: readonly string[],
  docs: ReadonlyArray<Pick<UnitDocument, 'entries'> | undefined>,
  capacityOf: (unit: string) => number,
  qty: number,
  now: number,
  bookingId?: string,
): { unit: string; available: number } | null {
  for (const [i, unit] of units.entries()) {
    const available = Math.max(0, capacityOf(unit) - takenOf(docs[i], now, bookingId));
    if (available < qty) return { unit, available };
  }
  return null;
}

export interface InventorySpec {
  /** The collection of unit documents (the owning module declares it; API only). */
  collection: string;
  /** 409 when a unit lacks room: `details` { unit, available, requested }. */
  unavailableCode: ErrorCode;
}

export interface HoldRequest {
  resourceId: string;
  units: readonly string[];
  capacityOf(unit: string): number;
  bookingId: string;
  qty: number;
  until: number;
  now: number;
}

/** Booking ids are field names in `entries` (dotted update paths): plain id characters, never Firestore's reserved `__…__`. */
const BOOKING_ID = /^(?!__.*__$)[A-Za-z0-9_-]{1,128}$/;
/** Resource ids and units make a document id `{resourceId}_{unit}`: no `_` (unambiguous) and no `/` in either. */
const KEY_PART = /^[A-Za-z0-9:.-]{1,200}$/;
/** At most this many units in one booking (a year of nights, a month of hours). */
export const MAX_UNITS_PER_BOOKING = 1_000;

const invalid = (what: string, value: unknown) => new Error(`inventory: ${what} (got ${JSON.stringify(value)})`);
const checkedBookingId = (id: string) => {
  if (!BOOKING_ID.test(id)) throw invalid(`a booking id must match ${BOOKING_ID}`, id);
  return id;
};
/** The units of one booking: some, each once, each a valid key part, under the cap. */
function checkedUnits(resourceId: string, units: readonly string[]): readonly string[] {
  if (!KEY_PART.test(resourceId)) throw invalid(`a resource id must match ${KEY_PART}`, resourceId);
  if (units.length === 0 || units.length > MAX_UNITS_PER_BOOKING) throw invalid(`a booking takes 1..${MAX_UNITS_PER_BOOKING} units`, units.length);
  if (new Set(units).size !== units.length) throw invalid('a unit appears twice', units);
  const bad = units.find((u) => !KEY_PART.test(u));
  if (bad !== undefined) throw invalid(`a unit must match ${KEY_PART}`, bad);
  return units;
}
/** A unit's capacity: a whole number ≥ 0 (anything else would let every hold through). */
function checkedCapacity(capacityOf: (unit: string) => number): (unit: string) => number {
  return (unit) => {
    const capacity = capacityOf(unit);
    if (!Number.isSafeInteger(capacity) || capacity < 0) throw invalid(`the capacity of ${unit} must be a whole number ≥ 0`, capacity);
    return capacity;
  };
}

export function defineInventory(spec: InventorySpec) {
  const ref = (resourceId: string, unit: string) => db().collection(spec.collection).doc(`${resourceId}_${unit}`);
  const read = async (resourceId: string, units: readonly string[], tx?: Transaction): Promise<Array<UnitDocument | undefined>> => {
    if (units.length === 0) return [];
    const refs = units.map((unit) => ref(resourceId, unit));
    const snaps = tx ? await tx.getAll(...refs) : await db().getAll(...refs);
    return snaps.map((s) => (s.exists ? (s.data() as UnitDocument) : undefined));
  };

  /** Sets (or with `null` removes) one booking's entry in each unit, dropping the entries that ended. */
  function writeEntries(
    tx: Transaction,
    p: { resourceId: string; units: readonly string[]; docs: ReadonlyArray<UnitDocument | undefined> },
    bookingId: string,
    entry: UnitEntry | null,
    now: number,
  ) {
    for (const [i, unit] of p.units.entries()) {
      const doc = p.docs[i];
      if (!doc) {
        if (entry) tx.set(ref(p.resourceId, unit), { resourceId: p.resourceId, unit, entries: { [bookingId]: entry }, updatedAt: now } satisfies UnitDocument);
        continue;
      }
      const ended = Object.entries(doc.entries)
        .filter(([id, e]) => id !== bookingId && !isLive(e, now))
        .map(([id]) => id);
      const changes: Record<string, unknown> = { updatedAt: now, [`entries.${bookingId}`]: entry ?? FieldValue.delete() };
      for (const id of ended) changes[`entries.${id}`] = FieldValue.delete();
      tx.update(ref(p.resourceId, unit), changes);
    }
  }

  /**
   * Replaces the booking's entry in every unit by `next` (a take, a longer hold) when each one is as `holds` wants it
   * (a live hold; for a confirmation a take already counts); `held: false` and nothing written otherwise.
   */
  async function rewriteLiveHold(
    tx: Transaction,
    p: { resourceId: string; units: readonly string[]; bookingId: string; now: number },
    holds: (entry: UnitEntry) => boolean,
    next: (qty: number) => UnitEntry,
  ): Promise<{ held: boolean; write(): void }> {
    checkedBookingId(p.bookingId);
    checkedUnits(p.resourceId, p.units);
    const docs = await read(p.resourceId, p.units, tx);
    const entries = docs.map((d) => d?.entries[p.bookingId]);
    const held = entries.every((e) => e !== undefined && holds(e));
    return {
      held,
      write: () => {
        if (held) writeEntries(tx, { resourceId: p.resourceId, units: p.units, docs }, p.bookingId, next(entries[0]!.qty), p.now);
      },
    };
  }

  // The unit documents between the first and the last unit (ids `{resourceId}_{unit}` sort as the units do): one
  // query whose reads are the units booked, not one per unit asked (a day's 144 five-minute slots read 1–3).
  const readSpan = async (resourceId: string, units: readonly string[]): Promise<Array<UnitDocument | undefined>> => {
    const sorted = [...units].sort();
    const snap = await db()
      .collection(spec.collection)
      .orderBy(FieldPath.documentId())
      .startAt(`${resourceId}_${sorted[0]}`)
      .endAt(`${resourceId}_${sorted[sorted.length - 1]}`)
      .get();
    const byId = new Map(snap.docs.map((d) => [d.id, d.data() as UnitDocument]));
    return units.map((unit) => byId.get(`${resourceId}_${unit}`));
  };

  return {
    /**
     * Each unit's capacity left at `now` (no transaction: a view that may be a moment old). For the units of one span
     * (a day's slots, a stay's nights): it reads every booked unit between the first and the last, asked for or not.
     */
    async available(resourceId: string, units: readonly string[], capacityOf: (unit: string) => number, now: number) {
      const docs = await readSpan(resourceId, checkedUnits(resourceId, units));
      const capacity = checkedCapacity(capacityOf);
      return units.map((unit, i) => ({ unit, available: Math.max(0, capacity(unit) - takenOf(docs[i], now)) }));
    },

    /**
     * Reads the units and refuses (409 with the spec's code) when one lacks `qty` beside the others' live entries;
     * `write()` then holds them for the booking until `until` (after every read of the transaction); `write({ until })`
     * holds them until another time, `write('CONFIRMED')` takes them for good at once (a booking paid in the same
     * transaction). Holding again for the same booking replaces its hold.
     */
    async txHold(tx: Transaction, h: HoldRequest): Promise<{ write(as?: 'CONFIRMED' | { until: number }): void }> {
      checkedBookingId(h.bookingId);
      checkedUnits(h.resourceId, h.units);
      if (!Number.isSafeInteger(h.qty) || h.qty < 1) throw invalid('a hold takes a whole quantity ≥ 1', h.qty);
      const docs = await read(h.resourceId, h.units, tx);
      // A confirmed take is not turned back into a hold.
      if (docs.some((d) => d?.entries[h.bookingId]?.state === 'CONFIRMED')) throw invalid('the booking holds a confirmed take already', h.bookingId);
      const short = shortUnit(h.units, docs, checkedCapacity(h.capacityOf), h.qty, h.now, h.bookingId);
      if (short)
        throw new ConflictError(`Not enough left for ${short.unit}: ${short.available} of the ${h.qty} asked`, { ...short, requested: h.qty }).withCode(
          spec.unavailableCode,
        );
      return {
        write: (as = { until: h.until }) =>
          writeEntries(
            tx,
            { resourceId: h.resourceId, units: h.units, docs },
            h.bookingId,
            as === 'CONFIRMED' ? { qty: h.qty, state: 'CONFIRMED', until: null } : { qty: h.qty, state: 'HELD', until: as.until },
            h.now,
          ),
      };
    },

    /**
     * Turns the booking's live hold into a confirmed take of each unit. `held: false` (nothing written) when a unit no
     * longer holds it live (the hold ran out or was released): the caller refuses or holds anew.
     */
    txConfirm: (tx: Transaction, p: { resourceId: string; units: readonly string[]; bookingId: string; now: number }) =>
      rewriteLiveHold(
        tx,
        p,
        (e) => isLive(e, p.now),
        (qty) => ({ qty, state: 'CONFIRMED', until: null }),
      ),

    /**
     * Holds the booking's live hold longer (until `until`: waiting for a partner's answer), without asking for room
     * again: it holds it already. `held: false` (nothing written) when a unit no longer holds it live.
     */
    txExtend: (tx: Transaction, p: { resourceId: string; units: readonly string[]; bookingId: string; until: number; now: number }) =>
      rewriteLiveHold(
        tx,
        p,
        (e) => e.state === 'HELD' && isLive(e, p.now),
        (qty) => ({ qty, state: 'HELD', until: p.until }),
      ),

    /** Gives the booking's units back (a hold or a confirmed take); none left is nothing to do. */
    async txRelease(tx: Transaction, p: { resourceId: string; units: readonly string[]; bookingId: string; now: number }): Promise<{ write(): void }> {
      checkedBookingId(p.bookingId);
      checkedUnits(p.resourceId, p.units);
      const docs = await read(p.resourceId, p.units, tx);
      const holding = docs.some((d) => d?.entries[p.bookingId] !== undefined);
      return {
        write: () => {
          if (holding) writeEntries(tx, { resourceId: p.resourceId, units: p.units, docs }, p.bookingId, null, p.now);
        },
      };
    },
  };
}

export type Inventory = ReturnType<typeof defineInventory>;
