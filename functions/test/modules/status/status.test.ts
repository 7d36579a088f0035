import { randomUUID } from 'node:crypto';
import { registerVerified } from '../../helpers/accounts';
import { withStaff } from '../../helpers/admins';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';

// The status page through the API (in-process, on the emulators): public reads, incidents moved by administrators
// holding status.manage only, refusals.
beforeAll(requireEmulators);
const staff = withStaff();

const open = (token: string, body: Record<string, unknown>) =>
  call('POST', '/status/admin/incidents', { token, body, headers: { 'idempotency-key': randomUUID() } });
const move = (token: string, id: string, action: string, body: Record<string, unknown>) =>
  call('POST', `/status/admin/incidents/${id}/${action}`, { token, body });
const stateOf = (page: { components: Array<{ name: string; state: string }> }, name: string) => page.components.find((c) => c.name === name)?.state;

describe('status page', () => {
  it('OPEN → MONITORING → OPEN → RESOLVED by a status manager; the public page follows; a RESOLVED incident stays so', async () => {
    const manager = await staff.limitedAdmin(['status.manage']);
    const before = await call('GET', '/status');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ service: 'superapp-backend', version: expect.any(String) });
    expect(before.body.components.map((c: { name: string }) => c.name)).toEqual(['api', 'firestore', 'auth', 'storage', 'push', 'mail', 'sms', 'payments']);

    const opened = await open(manager.accessToken, {
      title: 'Top-ups delayed',
      impact: 'MAJOR',
      components: ['payments', 'payments'],
      message: 'Investigating.',
    });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      status: 'OPEN',
      components: ['payments'],
      monitorUntil: null,
      resolvedAt: null,
      updates: [{ status: 'OPEN', message: 'Investigating.' }],
    });
    const id = opened.body.id as string;
    let page = (await call('GET', '/status')).body;
    expect(page.incidents.map((i: { id: string }) => i.id)).toContain(id);
    expect(stateOf(page, 'payments')).toBe('PARTIAL_OUTAGE');
    expect(page.status).not.toBe('OPERATIONAL');

    const monitored = await move(manager.accessToken, id, 'monitor', { message: 'A fix is out.', impact: 'MINOR', monitorMinutes: 10 });
    expect(monitored.body).toMatchObject({ status: 'MONITORING', impact: 'MINOR' });
    const window = Date.parse(monitored.body.monitorUntil) - Date.parse(monitored.body.updatedAt);
    expect(window).toBe(10 * 60_000);
    expect(stateOf((await call('GET', '/status')).body, 'payments')).toBe('DEGRADED');
    expect((await move(manager.accessToken, id, 'monitor', { message: 'Again.' })).body.code).toBe('INCIDENT_TRANSITION');

    expect((await move(manager.accessToken, id, 'reopen', { message: 'Not fixed.' })).body).toMatchObject({ status: 'OPEN', monitorUntil: null });
    const resolved = await move(manager.accessToken, id, 'resolve', { message: 'Fixed for good.' });
    expect(resolved.body).toMatchObject({ status: 'RESOLVED', resolvedAt: expect.any(String) });
    expect(resolved.body.updates.map((u: { status: string }) => u.status)).toEqual(['OPEN', 'MONITORING', 'OPEN', 'RESOLVED']);
    for (const action of ['resolve', 'reopen', 'monitor']) {
      const again = await move(manager.accessToken, id, action, { message: 'Once more.' });
      expect([action, again.status, again.body.code]).toEqual([action, 409, 'INCIDENT_TRANSITION']);
    }

    page = (await call('GET', '/status')).body;
    expect(page.incidents.map((i: { id: string }) => i.id)).not.toContain(id);
    expect(page.recentlyResolved[0]).toMatchObject({ id, status: 'RESOLVED' });
    const history = await call('GET', `/status/admin/incidents/${id}/history`, { token: manager.accessToken });
    expect(
      history.body.items.map((m: { action: string; from: string; to: string; by: string; reason: string }) => [m.action, m.from, m.to, m.by, m.reason]),
    ).toEqual([
      ['monitor', 'OPEN', 'MONITORING', manager.user.id, 'A fix is out.'],
      ['reopen', 'MONITORING', 'OPEN', manager.user.id, 'Not fixed.'],
      ['resolve', 'OPEN', 'RESOLVED', manager.user.id, 'Fixed for good.'],
    ]);
  });

  it('only administrators holding status.manage open and move incidents; bad input is 400; an unknown incident 404', async () => {
    const manager = await staff.limitedAdmin(['status.manage']);
    const other = await staff.limitedAdmin(['users.manage']);
    const user = await registerVerified();
    const body = { title: 'Push delayed', impact: 'OUTAGE', components: ['push'], message: 'Looking into it.' };
    expect((await open(user.accessToken, body)).status).toBe(403);
    const refused = await open(other.accessToken, body);
    expect([refused.status, refused.body.code]).toEqual([403, 'PERMISSION_REQUIRED']);
    expect((await open(manager.accessToken, { ...body, components: [] })).status).toBe(400);
    expect((await open(manager.accessToken, { ...body, components: ['fax'] })).status).toBe(400);
    expect((await open(manager.accessToken, { ...body, impact: 'SEVERE' })).status).toBe(400);

    const id = (await open(manager.accessToken, body)).body.id as string;
    expect(stateOf((await call('GET', '/status')).body, 'push')).toBe('MAJOR_OUTAGE');
    expect((await move(other.accessToken, id, 'resolve', { message: 'Mine now.' })).status).toBe(403);
    expect((await move(manager.accessToken, id, 'monitor', { message: 'Short.', monitorMinutes: 1 })).status).toBe(400);
    expect((await move(manager.accessToken, id, 'resolve', {})).status).toBe(400);
    expect((await move(manager.accessToken, 'no-such-incident', 'resolve', { message: 'Gone.' })).status).toBe(404);
    expect((await move(manager.accessToken, id, 'resolve', { message: 'Back.' })).body.status).toBe('RESOLVED');
    expect(stateOf((await call('GET', '/status')).body, 'push')).toBe('OPERATIONAL');
  });

  it('a retried opening (same Idempotency-Key, at once) opens one incident; two racing resolves move it once, the other is 409', async () => {
    const manager = await staff.limitedAdmin(['status.manage']);
    const body = { title: 'SMS slow', impact: 'MINOR', components: ['sms'], message: 'Watching.' };
    const k = randomUUID();
    const opened = await Promise.all(
      Array.from({ length: 5 }, () => call('POST', '/status/admin/incidents', { token: manager.accessToken, body, headers: { 'idempotency-key': k } })),
    );
    const created = opened.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    expect(opened.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'IDEMPOTENCY_IN_PROGRESS'))).toBe(true);
    const id = created[0].body.id as string;

    const raced = await Promise.all([
      move(manager.accessToken, id, 'resolve', { message: 'Fixed.' }),
      move(manager.accessToken, id, 'resolve', { message: 'Fixed too.' }),
    ]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 409]);
    const history = await call('GET', `/status/admin/incidents/${id}/history`, { token: manager.accessToken });
    expect(history.body.items.filter((e: { action: string }) => e.action === 'resolve')).toHaveLength(1);
  });
});
