import { auditEntryFor } from '../../../src/modules/users/users.triggers';
import type { UserRecord } from '../../../src/modules/users/users.model';

describe('audit trail of access changes', () => {
  const base: Partial<UserRecord> = { roles: ['USER'], disabled: false, permissions: [], name: 'Lan', updatedBy: 'admin-1' };

  it('records role, lock and permission changes with who made them', () => {
    const entry = auditEntryFor('u1', { ...base, roles: ['USER'] }, { ...base, roles: ['USER', 'DRIVER'], disabled: true }, 5);
    expect(entry).toEqual({
      userId: 'u1',
      by: 'admin-1',
      at: 5,
      changes: [
        { field: 'roles', before: ['USER'], after: ['USER', 'DRIVER'] },
        { field: 'disabled', before: false, after: true },
      ],
    });
    expect(auditEntryFor('u1', { ...base }, { ...base, permissions: ['*'], updatedBy: 'system:ADMIN_EMAILS' }, 6)?.by).toBe('system:ADMIN_EMAILS');
  });

  it('ignores writes that change none of them, and creations', () => {
    expect(auditEntryFor('u1', base, { ...base, name: 'Lan Nguyen' }, 1)).toBeUndefined();
    expect(auditEntryFor('u1', undefined, base, 1)).toBeUndefined();
  });
});
