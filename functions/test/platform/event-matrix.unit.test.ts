import fs from 'node:fs';
import path from 'node:path';
import { appLinkOf, eventPolicies, inboxKindOf, policyFor, SURFACES, type EventPolicy } from '../../src/modules/notifications/events';
// The hub's table is the rows the module definitions declare (`events`): loading the module list registers them all.
import { MODULES, REGISTRY } from '../../src/modules';

const MODULE_EVENTS = MODULES.flatMap((m) => (m.events ?? []) as readonly EventPolicy[]);
// Rows the spec does not list (a module's own events beyond the matrix): checked where they are sent.
const BEYOND_SPEC = [
  'ride.sos',
  'wallet.transfer.received',
  'wallet.withdrawal.*',
  'wallet.topup.succeeded',
  'wallet.topup.failed',
  'payment.refunded',
  'delivery.assigned',
  'delivery.picked_up',
  'delivery.delivered',
  'delivery.cancelled',
  'delivery.no_driver',
  'order.rejected',
  'order.preparing',
  'order.assigned',
  'order.pickedUp',
  'order.delivered',
  'order.unassigned',
  // The booking engine's steps beyond the spec's `.created` (booking.hotel.*, booking.parking.* and
  // booking.rental.viewing* are the spec's families and hold them already).
  ...['medical', 'school', 'homeservice'].flatMap((v) =>
    ['confirmed', 'proposed', 'cancelled', 'rejected', 'expired', 'checkedIn', 'started', 'completed', 'noShow', 'reminder'].map(
      (step) => `booking.${v}.${step}`,
    ),
  ),
  // The help desk (the spec names none): staff's replies and a ticket's moves, to its owner.
  'support.ticket.*',
  // School trips (the spec names none): a term's plan and each day's trip, to the parent or the driver.
  ...['offered', 'matched', 'driverLeft', 'planCancelled', 'started', 'pickedUp', 'droppedOff', 'skipped', 'cancelled', 'expired'].map(
    (step) => `school.trip.${step}`,
  ),
];
// Telemetry beyond the spec: realtime only, like the spec's ride:location (a courier's position for the customer).
const TELEMETRY_BEYOND_SPEC = ['courier:location'];
const EVENT_POLICIES = MODULE_EVENTS.filter((p) => !BEYOND_SPEC.includes(p.pattern) && !TELEMETRY_BEYOND_SPEC.includes(p.pattern));

// The spec's event matrix, copied verbatim from interface-spec.md (Events → Event matrix).
const rows = fs
  .readFileSync(path.join(__dirname, '..', 'fixtures', 'spec-event-matrix.md'), 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('| ') && !l.startsWith('| Event') && !l.startsWith('|---'))
  .map((l) =>
    l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim()),
  )
  .filter(([event]) => event !== 'auth OTP'); // outside the hub (SMS)

const pushPolicy = (text: string) => (text.startsWith('always') ? 'always' : text === 'no' ? 'never' : 'allowed');
const recipientsOf = (text: string) => ({
  required: text
    .split('(')[0]
    .split(',')
    .map((r) => r.trim().split(' ')[0]),
  optional:
    /\((.*) if they use the app\)/
      .exec(text)?.[1]
      .split(' and ')
      .map((r) => r.trim()) ?? [],
});

describe('event table against every row of the spec', () => {
  it('covers every spec row and nothing else', () => {
    expect(rows).toHaveLength(22);
    expect(EVENT_POLICIES.map((p) => p.pattern).sort()).toEqual(rows.map(([e]) => e).sort());
  });

  it.each(rows)('%s', (event, kind, recipients, push, websocket, sound) => {
    const policy = EVENT_POLICIES.find((p) => p.pattern === event) as EventPolicy;
    expect(policy.kind).toBe(kind.startsWith('none') ? null : kind);
    const { required, optional } = recipientsOf(recipients);
    expect(policy.recipients.filter((r) => !optional.includes(r))).toEqual(required);
    expect(policy.push).toBe(pushPolicy(push));
    expect(policy.realtime).toBe(websocket === 'none' ? null : websocket);
    expect(policy.sfx).toBe(sound === 'none' ? null : sound);
    if (policy.push !== 'never') {
      expect(policy.androidChannel).toMatch(/^app-(calls|chat|rides|orders)$/);
      for (const surface of policy.recipients) expect(policy.deepLink[surface]).toEqual({ tab: expect.any(String), screen: expect.any(String) });
    }
  });

  it('resolves event families and derived kinds', () => {
    expect(policyFor('booking.hotel.confirmed')?.pattern).toBe('booking.hotel.*');
    expect(policyFor('booking.rental.viewingRequested')?.pattern).toBe('booking.rental.viewing*');
    expect(policyFor('rental.deposit.refunded')?.kind).toBe('WALLET');
    expect(inboxKindOf(policyFor('social.like')!, 'social.like')).toBe('SOCIAL_LIKE');
    expect(policyFor('booking.medical.cancelled')?.pattern).toBe('booking.medical.cancelled');
    expect(policyFor('booking.medical.refunded')).toBeUndefined();
    expect(policyFor('booking.hotel.')).toBeUndefined();
    expect(policyFor('ride:location')?.telemetry).toBe(true);
  });

  it('uses the spec deep links, sounds, channels and app links', () => {
    expect(policyFor('call.incoming')).toMatchObject({
      push: 'always',
      androidChannel: 'app-calls',
      deepLink: { CON: { tab: 'ChatTab', screen: 'Call' } },
      ttlSec: 30,
    });
    expect(policyFor('call.missed')?.deepLink.CON).toEqual({ tab: 'ChatTab', screen: 'CallDetail' });
    expect(policyFor('ride.matched')?.deepLink.CON).toEqual({ tab: 'MapTab', screen: 'RideDetail' });
    expect(policyFor('order.created')?.deepLink.CON).toEqual({ tab: 'MapTab', screen: 'OrderTrack' });
    expect(policyFor('security.device')?.deepLink.CON).toEqual({ tab: 'AccountTab', screen: 'AuthSessions' });
    expect(appLinkOf(policyFor('ride.completed')!, 'r1')).toBe('app://rides/r1');
    expect(appLinkOf(policyFor('order.cancelled')!, 'o1')).toBe('app://orders/o1');
    expect(appLinkOf(policyFor('chat.message')!, 'c1')).toBe('app://chat/c1');
    expect(new Set(EVENT_POLICIES.flatMap((p) => p.recipients))).toEqual(new Set(SURFACES));
  });
});

describe('event table derived from the module list', () => {
  it("is the hub's table: every module's rows, and no row no module declares", () => {
    expect(
      eventPolicies()
        .map((p) => p.pattern)
        .sort(),
    ).toEqual(MODULE_EVENTS.map((p) => p.pattern).sort());
    expect([...REGISTRY.events].sort()).toEqual(MODULE_EVENTS.map((p) => p.pattern).sort());
    for (const p of MODULE_EVENTS) expect(policyFor(p.pattern.replace(/\*$/, 'x'))).toBe(p);
  });

  it('includes the wallet and payments rows, each owned by its module', () => {
    expect(REGISTRY.ownerOf('events', 'wallet.transfer.received')).toBe('wallet');
    expect(REGISTRY.ownerOf('events', 'wallet.withdrawal.*')).toBe('wallet');
    expect(REGISTRY.ownerOf('events', 'wallet.topup.succeeded')).toBe('payments');
    expect(REGISTRY.ownerOf('events', 'payment.refunded')).toBe('payments');
    expect(REGISTRY.ownerOf('events', 'ride.matched')).toBe('rides');
    expect(REGISTRY.ownerOf('events', 'order.created')).toBe('orders');
    expect(REGISTRY.ownerOf('events', 'order.delivered')).toBe('orders');
  });

  it.each(TELEMETRY_BEYOND_SPEC)('%s (telemetry beyond the spec) is realtime only, like ride:location', (pattern) => {
    const policy = MODULE_EVENTS.find((p) => p.pattern === pattern) as EventPolicy;
    expect(policy).toMatchObject({ kind: null, push: 'never', realtime: pattern, sfx: null, androidChannel: null, telemetry: true });
    expect(REGISTRY.ownerOf('events', pattern)).toBe('driver');
  });

  it.each(BEYOND_SPEC)('%s (beyond the spec) is a complete row', (pattern) => {
    const policy = MODULE_EVENTS.find((p) => p.pattern === pattern) as EventPolicy;
    expect(policy.recipients.length).toBeGreaterThan(0);
    expect(policy.push).not.toBe('never');
    expect(policy.androidChannel).toMatch(/^app-(calls|chat|rides|orders)$/);
    for (const surface of policy.recipients) expect(policy.deepLink[surface]).toEqual({ tab: expect.any(String), screen: expect.any(String) });
  });
});

describe('event ownership', () => {
  const { CHAT_EVENTS } = require('../../src/modules/chat/chat.events') as typeof import('../../src/modules/chat/chat.events');
  const { SOCIAL_EVENTS } = require('../../src/modules/social/social.events') as typeof import('../../src/modules/social/social.events');

  it('a module builds dispatch inputs only for its own events (the type check of npm test fails otherwise)', () => {
    const own = CHAT_EVENTS.notice({ event: 'call.missed', entityId: 'c1' });
    // @ts-expect-error: ride.matched is not a chat event
    const foreign = CHAT_EVENTS.notice({ event: 'ride.matched', entityId: 'r1' });
    // A family row accepts its members: social.* → social.like.
    const member = SOCIAL_EVENTS.notice({ event: 'social.like', entityId: 'p1' });
    expect([own.event, foreign.event, member.event]).toEqual(['call.missed', 'ride.matched', 'social.like']);
  });

  it('each pattern has one owner: a conflicting second declaration throws', () => {
    const { registerEvents } = require('../../src/modules/notifications/events') as typeof import('../../src/modules/notifications/events');
    const chatRow = CHAT_EVENTS.rows[0];
    expect(() => registerEvents([chatRow])).not.toThrow();
    expect(() => registerEvents([{ ...chatRow, sfx: 'other' }])).toThrow(/declared twice/);
  });
});
