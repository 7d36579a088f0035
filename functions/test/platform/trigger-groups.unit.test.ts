import { MODULES } from '../../src/modules';
import type { TriggerDefinition } from '../../src/platform/core/module/module';
import { concerns, groupFunctionName, groupTriggers, runGroup } from '../../src/platform/core/module/trigger-groups';

// Triggers of several modules on one document path are one Cloud Function (one invocation per write, not one each).
const trigger = (document: string, on: TriggerDefinition['on'], options?: TriggerDefinition['options']): TriggerDefinition => ({
  document,
  on,
  ...(options ? { options } : {}),
  load: () => async () => undefined,
});

describe('trigger groups', () => {
  it('a path with one handler keeps the handler’s name and settings', () => {
    const [group] = groupTriggers([
      { name: 'calls', triggers: { callStatusChanged: trigger('calls/{callId}', 'updated', { memory: '512MiB', timeoutSeconds: 120 }) } },
    ]);
    expect(group).toMatchObject({ name: 'callStatusChanged', document: 'calls/{callId}', on: 'updated', options: { memory: '512MiB', timeoutSeconds: 120 } });
    expect(group.handlers.map((h) => h.name)).toEqual(['callStatusChanged']);
  });

  it('handlers of several modules on one path share a function named after the path, listening to what each needs', () => {
    const groups = groupTriggers([
      { name: 'payments', triggers: { paymentStatusChanged: trigger('payments/{paymentId}', 'written') } },
      {
        name: 'orders',
        triggers: {
          orderPaymentChanged: trigger('payments/{paymentId}', 'updated', { timeoutSeconds: 90 }),
          orderStatusChanged: trigger('orders/{orderId}', 'updated'),
        },
      },
      { name: 'users', triggers: { audit: trigger('users/{userId}', 'updated') } },
      { name: 'driver', triggers: { pool: trigger('users/{userId}', 'updated', { memory: '512MiB' }) } },
    ]);
    expect(groups.map((g) => [g.name, g.on, g.handlers.map((h) => `${h.module}.${h.name}`)])).toEqual([
      ['paymentsChanged', 'written', ['payments.paymentStatusChanged', 'orders.orderPaymentChanged']],
      ['orderStatusChanged', 'updated', ['orders.orderStatusChanged']],
      ['usersChanged', 'updated', ['users.audit', 'driver.pool']],
    ]);
    expect(groups[0].options).toEqual({ memory: '256MiB', timeoutSeconds: 90 });
    expect(groups[2].options).toEqual({ memory: '512MiB', timeoutSeconds: 60 });
  });

  it('refuses a function name used twice', () => {
    expect(() =>
      groupTriggers([
        { name: 'a', triggers: { usersChanged: trigger('profiles/{id}', 'written') } },
        { name: 'b', triggers: { x: trigger('users/{userId}', 'written'), y: trigger('users/{userId}', 'created') } },
      ]),
    ).toThrow('usersChanged is used twice');
  });

  it('refuses two triggers of one path whose wildcards are named differently', () => {
    expect(() =>
      groupTriggers([
        { name: 'a', triggers: { x: trigger('users/{userId}', 'updated') } },
        { name: 'b', triggers: { y: trigger('users/{uid}', 'updated') } },
      ]),
    ).toThrow('y watches users/{uid}, another trigger users/{userId}');
  });

  it('names a nested path after its collections', () => {
    expect(groupFunctionName('conversations/{conversationId}/messages/{messageId}')).toBe('conversationsMessagesChanged');
    expect(groupFunctionName('ride_sos/{sosId}')).toBe('rideSosChanged');
  });

  it.each([
    ['created', { before: false, after: true }, true],
    ['created', { before: true, after: true }, false],
    ['updated', { before: true, after: true }, true],
    ['updated', { before: false, after: true }, false],
    ['updated', { before: true, after: false }, false],
    ['deleted', { before: true, after: false }, true],
    ['deleted', { before: true, after: true }, false],
    ['written', { before: false, after: true }, true],
    ['written', { before: true, after: false }, true],
  ] as const)('a handler on %s is called for %j: %s', (on, change, called) => {
    expect(concerns(on, change)).toBe(called);
  });

  it('runs the handlers the change concerns; one that fails keeps none of the others from ending, then fails the delivery', async () => {
    const [group] = groupTriggers([
      { name: 'a', triggers: { onCreate: trigger('things/{id}', 'created'), onUpdate: trigger('things/{id}', 'updated') } },
      { name: 'b', triggers: { failing: trigger('things/{id}', 'written'), slow: trigger('things/{id}', 'written') } },
    ]);
    const created = { id: 'e1', time: '2026-11-29T00:00:00Z', params: { id: 't' }, before: undefined, after: { id: 't', data: {} } };
    const ran: string[] = [];
    const runOne = async ({ name }: { name: string }) => {
      if (name === 'slow') await new Promise((resolve) => setTimeout(resolve, 20));
      ran.push(name);
      if (name === 'failing') throw new Error('boom');
    };
    await expect(runGroup(group, created, runOne)).rejects.toThrow('boom');
    expect(ran.sort()).toEqual(['failing', 'onCreate', 'slow']);
    ran.length = 0;
    const updated = { ...created, before: { id: 't', data: {} } };
    await expect(runGroup(group, updated, async ({ name }) => void ran.push(name))).resolves.toBe(3);
    expect(ran.sort()).toEqual(['failing', 'onUpdate', 'slow']);
  });

  it('the trigger functions deployed (a rename is a deploy that deletes one and creates another: change this list on purpose)', () => {
    expect(
      groupTriggers(MODULES)
        .map((g) => g.name)
        .sort(),
    ).toEqual([
      'bookingStatusChanged',
      'callStatusChanged',
      'chatMessageCreated',
      'deliveryStatusChanged',
      'incidentStatusChanged',
      'orderStatusChanged',
      'paymentsChanged',
      'rentalDepositChanged',
      'reviewWritten',
      'rideSosCreated',
      'rideStatusChanged',
      'schoolTripChanged',
      'schoolTripPlanChanged',
      'socialCommentCreated',
      'socialFollowCreated',
      'socialLikeCreated',
      'socialPostCountsChanged',
      'socialPostWritten',
      'socialShareCreated',
      'ticketMessageCreated',
      'ticketStatusChanged',
      'usersChanged',
      'walletTransferCreated',
      'walletWithdrawalChanged',
    ]);
  });

  it('the module list: payments (payments, orders, bookings) and users (users, driver) share functions; every other path has its own', () => {
    const groups = groupTriggers(MODULES);
    const shared = groups.filter((g) => g.handlers.length > 1).map((g) => [g.name, g.handlers.map((h) => h.name).sort()]);
    expect(shared).toEqual(
      expect.arrayContaining([
        ['paymentsChanged', ['bookingPaymentChanged', 'orderPaymentChanged', 'paymentStatusChanged']],
        ['usersChanged', ['driverAccountChanged', 'userAuditTrail']],
      ]),
    );
    const handlers = MODULES.reduce((n, m) => n + Object.keys(m.triggers ?? {}).length, 0);
    expect(groups.reduce((n, g) => n + g.handlers.length, 0)).toBe(handlers);
  });
});
