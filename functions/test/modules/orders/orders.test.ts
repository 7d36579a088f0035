import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';

// The orders module through the API (in-process, on the emulators): the moves by their actors, refusals, strangers.
beforeAll(requireEmulators);

const open = (token: string, body: Record<string, unknown> = {}) => call('POST', '/orders', { token, body, headers: { 'idempotency-key': randomUUID() } });

describe('orders', () => {
  it('OPEN → ACCEPTED → DONE by staff; a finished one cannot be cancelled; strangers see nothing', async () => {
    const owner = await registerVerified();
    const admin = await adminTokens();
    const opened = await open(owner.accessToken, { note: 'First' });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ status: 'OPEN', note: 'First', closedAt: null, allowed: ['cancel'] });
    const id = opened.body.id as string;

    expect((await call('POST', `/orders/admin/${id}/accept`, { token: owner.accessToken, body: {} })).status).toBe(403);
    const accepted = await call('POST', `/orders/admin/${id}/accept`, { token: admin.accessToken, body: {} });
    expect(accepted.body.status).toBe('ACCEPTED');
    const again = await call('POST', `/orders/admin/${id}/accept`, { token: admin.accessToken, body: {} });
    expect([again.status, again.body.code]).toEqual([409, 'ORDER_TRANSITION']);
    expect((await call('POST', `/orders/admin/${id}/complete`, { token: admin.accessToken, body: {} })).body.status).toBe('DONE');
    const late = await call('POST', `/orders/${id}/cancel`, { token: owner.accessToken, body: {} });
    expect([late.status, late.body.code]).toEqual([409, 'ORDER_TRANSITION']);

    const stranger = await registerVerified();
    expect((await call('GET', `/orders/${id}`, { token: stranger.accessToken })).status).toBe(404);
    expect((await call('POST', `/orders/${id}/cancel`, { token: stranger.accessToken, body: {} })).status).toBe(404);
    const mine = await call('GET', '/orders', { token: owner.accessToken });
    expect(mine.body.items.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([[id, 'DONE']]);
  });

  it('its owner cancels an OPEN one once; bad input is 400', async () => {
    const owner = await registerVerified();
    const id = (await open(owner.accessToken)).body.id as string;
    const cancelled = await call('POST', `/orders/${id}/cancel`, { token: owner.accessToken, body: { reason: 'Changed my mind' } });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', allowed: [] });
    expect(cancelled.body.closedAt).toEqual(expect.any(String));
    expect((await call('POST', `/orders/${id}/cancel`, { token: owner.accessToken, body: {} })).status).toBe(409);
    expect((await open(owner.accessToken, { note: '' })).status).toBe(400);
    expect((await call('GET', '/orders')).status).toBe(401);
  });
});
