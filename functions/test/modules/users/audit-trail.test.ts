import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { requireEmulators } from '../../helpers/emulators';
import { waitFor } from '../../helpers/wait';
import { db } from '../../../src/platform/core/firebase/firebase';
import { AUDIT_LOG, auditEntryFor, recordAudit } from '../../../src/modules/users/users.triggers';

beforeAll(requireEmulators);

const entriesOf = async (userId: string) => (await db().collection(AUDIT_LOG).where('userId', '==', userId).get()).docs.map((d) => d.data());

describe('audit trail trigger (users/{userId})', () => {
  it('fires on the emulator: a role change and a lock by an administrator are recorded with who, before and after', async () => {
    const admin = await adminTokens();
    const target = await registerVerified();
    await call('PATCH', `/users/admin/${target.user.id}/roles`, { token: admin.accessToken, body: { roles: ['USER', 'PARTNER_OWNER'] } });
    await call('DELETE', `/users/admin/${target.user.id}`, { token: admin.accessToken });
    const entries = await waitFor(async () => {
      const found = await entriesOf(target.user.id);
      return found.length >= 2 ? found : undefined;
    });
    const changes = entries.flatMap((e) => e.changes as Array<{ field: string; before: unknown; after: unknown }>);
    expect(entries.every((e) => e.by === admin.user.id)).toBe(true);
    expect(changes).toEqual(
      expect.arrayContaining([
        { field: 'roles', before: ['USER'], after: ['USER', 'PARTNER_OWNER'] },
        { field: 'disabled', before: false, after: true },
      ]),
    );
    // A profile rename is not an access change: no entry.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await entriesOf(target.user.id)).toHaveLength(entries.length);
  });

  it('a duplicated delivery of one event writes one entry', async () => {
    const userId = `audit-${randomUUID()}`;
    const eventId = `evt-${randomUUID()}`;
    const entry = auditEntryFor(userId, { roles: ['USER'], updatedBy: 'a' }, { roles: ['USER', 'ADMIN'], updatedBy: 'a' }, Date.now());
    expect(await recordAudit(eventId, entry)).toBe('written');
    expect(await recordAudit(eventId, entry)).toBe('duplicate');
    expect(await entriesOf(userId)).toHaveLength(1);
  });
});
