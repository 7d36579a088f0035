import { Timestamp } from 'firebase-admin/firestore';
import type { LogEntry } from 'firebase-functions/logger';
import * as z from 'zod/mini';
import { lazySchema, timestamp, type RecordOf } from '../../src/platform/kits/firestore/documents';
import { setLogSink } from '../../src/platform/core/logging/logger';
import type { DocumentEvent } from '../../src/platform/core/module/module';
import { collectionRecords, SKIPPED, typedTrigger, type RecordChange, type RecordReader } from '../../src/platform/core/module/triggers';
import { onRideWritten } from '../../src/modules/rides/rides.triggers';
import { onPaymentWritten } from '../../src/modules/payments/payments.triggers';
import type { DispatchInput } from '../../src/modules/notifications';
import { testConfig } from '../helpers/config';

// Triggers read both sides of a change with their collection's converter: handlers get records (times in ms, the
// document id as `id`), never raw data. A document the converter refuses is logged and skipped (no retry loop);
// a failing handler still throws (the platform retries it).

const thingDocument = lazySchema(() => z.object({ name: z.string(), count: z.number(), at: timestamp('when.') }));
type Thing = { id: string } & RecordOf<typeof thingDocument>;

const event = (before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined, id = 'T1'): DocumentEvent => ({
  id: 'evt-1',
  time: '2026-11-25T18:00:00.000Z',
  params: { thingId: id },
  before: before && { id, data: before },
  after: after && { id, data: after },
});

let logged: LogEntry[] = [];
beforeEach(() => {
  logged = [];
  setLogSink((entry) => logged.push(entry));
});
afterAll(() => setLogSink(() => undefined));

describe('typed triggers', () => {
  it('a listened collection: each side is the record, times in ms, the document id as id; absent sides are undefined', async () => {
    const seen: Array<RecordChange<Thing>> = [];
    const trigger = typedTrigger(collectionRecords<Thing>(thingDocument), async (change) => void seen.push(change));
    await trigger(event(undefined, { name: 'a', count: 1, at: Timestamp.fromMillis(1_700_000_000_000) }));
    await trigger(event({ name: 'a', count: 1, at: Timestamp.fromMillis(5) }, undefined));
    expect(seen[0]).toEqual({
      id: 'evt-1',
      time: '2026-11-25T18:00:00.000Z',
      params: { thingId: 'T1' },
      before: undefined,
      after: { id: 'T1', name: 'a', count: 1, at: 1_700_000_000_000 },
    });
    expect(seen[1].before).toEqual({ id: 'T1', name: 'a', count: 1, at: 5 });
    expect(seen[1].after).toBeUndefined();
  });

  it('a plain collection: the data with the document id (which wins over a stored id field)', async () => {
    const trigger = typedTrigger(collectionRecords<{ id: string; name: string }>(), async ({ after }) => after);
    expect(await trigger(event(undefined, { id: 'stale', name: 'b' }, 'real'))).toEqual({ id: 'real', name: 'b' });
  });

  it('passes what follows the event (configuration, replaced dependencies) to the handler, and answers its result', async () => {
    const trigger = typedTrigger(
      collectionRecords<Thing>(thingDocument),
      async ({ after }, config: { name: string }, factor: number = 2) => (after?.count ?? 0) * factor + config.name.length,
    );
    expect(await trigger(event(undefined, { name: 'a', count: 3, at: 1 }), { name: 'xy' })).toBe(8);
    expect(await trigger(event(undefined, { name: 'a', count: 3, at: 1 }), { name: 'xy' }, 10)).toBe(32);
  });

  it('a document its converter refuses is skipped with a clear log line, not thrown (a redelivery would fail the same way)', async () => {
    // A converter that checks the stored shape, as a validating repo would.
    const strict: RecordReader<{ id: string; name: string }> = {
      fromFirestore: (snap) => ({ ...z.object({ name: z.string() }).parse(snap.data()), id: snap.id }),
    };
    let calls = 0;
    const trigger = typedTrigger(strict, async () => ++calls);
    expect(await trigger(event({ name: 'ok' }, { name: 42 }))).toBe(SKIPPED);
    expect(await trigger(event({ name: 42 }, { name: 'ok' }))).toBe(SKIPPED);
    expect(calls).toBe(0);
    const lines = logged.filter((l) => String(l.message).startsWith('trigger skipped a document'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ severity: 'ERROR', eventId: 'evt-1', documentId: 'T1', side: 'after', params: { thingId: 'T1' } });
    expect(lines[1]).toMatchObject({ side: 'before' });
    expect(String(lines[0].reason)).toMatch(/name/);
    // The same converter reads a good document.
    expect(await trigger(event({ name: 'ok' }, { name: 'fine' }))).toBe(1);
  });

  it('a converter failing for another reason than the data (a code or load error) throws: retried, not skipped', async () => {
    const broken: RecordReader<{ id: string }> = {
      fromFirestore: () => {
        throw new TypeError('schema not loaded');
      },
    };
    let calls = 0;
    const trigger = typedTrigger(broken, async () => ++calls);
    await expect(trigger(event(undefined, { name: 'a' }))).rejects.toThrow('schema not loaded');
    expect(calls).toBe(0);
    expect(logged.filter((l) => String(l.message).startsWith('trigger skipped'))).toHaveLength(0);
  });

  it('a failing handler still throws, so the platform retries it (only reading the document is final)', async () => {
    const trigger = typedTrigger(collectionRecords<Thing>(thingDocument), async () => {
      throw new Error('store unavailable');
    });
    await expect(trigger(event(undefined, { name: 'a', count: 1, at: 1 }))).rejects.toThrow('store unavailable');
    expect(logged.filter((l) => String(l.message).startsWith('trigger skipped'))).toHaveLength(0);
  });

  it('a module trigger reads its record: a ride stored with Timestamps reaches the handler in ms, with its id', async () => {
    const scheduled: Array<{ id: string; createdAt: number; confirmedAt: number | null }> = [];
    const sent: DispatchInput[] = [];
    const rides = {
      settleAndRecord: async <R>(r: R) => r,
      scheduleExpiry: async (r: { id: string; createdAt: number; confirmedAt: number | null }) => void scheduled.push(r),
    };
    const hub = { dispatch: async (input: DispatchInput) => (sent.push(input), []) };
    const ride = {
      riderId: 'u1',
      driverId: 'd1',
      status: 'CONFIRMED',
      quote: { fare: 20_000 },
      driver: null,
      createdAt: Timestamp.fromMillis(1_000),
      confirmedAt: Timestamp.fromMillis(2_000),
    };
    const change: DocumentEvent = { ...event(undefined, ride, 'R1'), params: { rideId: 'R1' } };
    expect(await onRideWritten(change, testConfig(), hub, rides)).toBe(1);
    expect(scheduled).toEqual([expect.objectContaining({ id: 'R1', createdAt: 1_000, confirmedAt: 2_000 })]);
    expect(sent[0]).toMatchObject({ event: 'ride.matched', entityId: 'R1' });
  });

  it('a module trigger tolerates a repeated delivery as before: the same event reads the same records', async () => {
    const sent: DispatchInput[] = [];
    const hub = { dispatch: async (input: DispatchInput) => (sent.push(input), []) };
    const base = { payerId: 'u1', amount: 50_000, purpose: 'TOPUP', refunds: [], createdAt: Timestamp.fromMillis(1) };
    const settled = event({ ...base, status: 'PENDING' }, { ...base, status: 'SUCCEEDED' }, 'P1');
    expect(await onPaymentWritten(settled, testConfig(), hub)).toBe(1);
    expect(await onPaymentWritten(settled, testConfig(), hub)).toBe(1);
    expect(sent.map((n) => [n.event, n.entityId])).toEqual([
      ['wallet.topup.succeeded', 'P1'],
      ['wallet.topup.succeeded', 'P1'],
    ]);
  });
});
