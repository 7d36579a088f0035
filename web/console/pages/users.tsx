// Users: find (text, role, app, locked), inspect, lock and unlock, roles and admin permissions; the administrator's
// own sessions.
import { useState } from 'preact/hooks';
import { ENUMS, unwrap, type Schemas } from '../../client';
import { t, when } from '../i18n';
import { api, can, client, me } from '../session';
import { Action, Badge, Facts, ListPage, Loaded, confirmDialog, errorText, go, href, toast, useLoad } from '../ui';

type AdminUser = Schemas['AdminUser'];
const ROLES = ENUMS.Role;
const PERMISSIONS = ENUMS.AdminPermission;

const fetchUsers = async (cursor: string | undefined, f: Record<string, string>) => {
  const query = {
    limit: 25,
    ...(cursor ? { cursor } : {}),
    ...(f.q ? { q: f.q } : {}),
    ...(f.role ? { role: f.role as Schemas['Role'] } : {}),
    ...(f.hat ? { hat: f.hat as Schemas['Surface'] } : {}),
    ...(f.disabled ? { disabled: f.disabled as 'true' | 'false' } : {}),
  };
  const page = unwrap(await api.GET('/users/admin', { params: { query } }));
  return { items: page.users, nextCursor: page.nextCursor };
};

export function UsersPage(props: { id?: string }) {
  if (props.id) return <UserDetail id={props.id} />;
  return (
    <ListPage<AdminUser>
      testid="page-users"
      title={t('nav.users')}
      rowKey={(u) => u.id}
      fetchPage={fetchUsers}
      onOpen={(u) => go('users', u.id)}
      filters={[
        { name: 'q', label: t('common.search'), placeholder: t('users.searchHint') },
        { name: 'role', label: t('users.role'), options: ROLES },
        { name: 'hat', label: t('users.apps'), options: ['CON', 'PAR', 'DRV', 'ADM'] },
        { name: 'disabled', label: t('users.state'), options: ['true', 'false'] },
      ]}
      columns={[
        { label: t('users.name'), cell: (u) => u.name },
        { label: t('users.email'), cell: (u) => u.email },
        { label: t('users.roles'), cell: (u) => u.roles.join(', ') },
        { label: t('users.state'), cell: (u) => <Badge value={u.disabled ? 'LOCKED' : 'ACTIVE'} label={u.disabled ? t('users.locked') : t('users.active')} /> },
        { label: t('common.created'), cell: (u) => when(u.createdAt) },
      ]}
    />
  );
}

function UserDetail(props: { id: string }) {
  const state = useLoad(async () => unwrap(await api.GET('/users/admin/{id}', { params: { path: { id: props.id } } })), [props.id]);
  const [user, setUser] = useState<AdminUser | undefined>();
  const shown = user?.id === props.id ? user : state.data;
  return (
    <section data-testid="page-user">
      <a href={href('users')}>← {t('common.back')}</a>
      <Loaded state={{ data: shown, error: state.error }}>
        {(u) => (
          <>
            <h2>
              {u.name} <Badge value={u.disabled ? 'LOCKED' : 'ACTIVE'} label={u.disabled ? t('users.locked') : t('users.active')} />
            </h2>
            <Facts
              rows={[
                ['Id', <code>{u.id}</code>],
                [t('users.email'), u.email],
                [t('users.phone'), u.phone],
                [t('users.roles'), u.roles.join(', ')],
                [t('users.apps'), u.hats.join(', ')],
                [t('users.permissions'), u.roles.includes('ADMIN') ? u.permissions.join(', ') || '—' : '—'],
                ['2FA', u.twoFactorEnabled ? '✓' : '—'],
                [t('common.created'), when(u.createdAt)],
              ]}
            />
            <div class="row">
              {u.disabled ? (
                <Action
                  op={['PATCH', '/users/admin/{id}']}
                  testid="unlock-user"
                  done={t('common.done')}
                  run={async () => setUser(unwrap(await api.PATCH('/users/admin/{id}', { params: { path: { id: u.id } }, body: { disabled: false } })))}
                >
                  {t('users.unlock')}
                </Action>
              ) : (
                u.id !== me.get()?.id && (
                  <Action
                    op={['PATCH', '/users/admin/{id}']}
                    variant="danger"
                    testid="lock-user"
                    run={async () => {
                      if (!(await confirmDialog(t('users.lockConfirm', { name: u.name })))) return;
                      setUser(unwrap(await api.PATCH('/users/admin/{id}', { params: { path: { id: u.id } }, body: { disabled: true } })));
                      toast(t('common.done'));
                    }}
                  >
                    {t('users.lock')}
                  </Action>
                )
              )}
              <a class="button secondary" href={href('money', 'wallet', u.id)}>
                {t('users.wallet')}
              </a>
            </div>
            <RolesEditor user={u} onSaved={setUser} />
            {can('GET', '/users/admin/{id}/sessions') && <UserSessions userId={u.id} />}
          </>
        )}
      </Loaded>
    </section>
  );
}

function RolesEditor(props: { user: AdminUser; onSaved: (u: AdminUser) => void }) {
  const { user } = props;
  return (
    <div class="cards">
      <ListEditor
        title={t('users.setRoles')}
        options={ROLES}
        fixed={['USER']}
        saved={user.roles}
        savedAt={user.updatedAt}
        op={['PATCH', '/users/admin/{id}/roles']}
        testid="save-roles"
        save={async (roles, expectedUpdatedAt) =>
          props.onSaved(unwrap(await api.PATCH('/users/admin/{id}/roles', { params: { path: { id: user.id } }, body: { roles, expectedUpdatedAt } })))
        }
      />
      {user.roles.includes('ADMIN') && (
        <ListEditor
          title={t('users.setPermissions')}
          options={PERMISSIONS}
          saved={user.permissions}
          savedAt={user.updatedAt}
          op={['PATCH', '/users/admin/{id}']}
          testid="save-permissions"
          save={async (permissions, expectedUpdatedAt) =>
            props.onSaved(unwrap(await api.PATCH('/users/admin/{id}', { params: { path: { id: user.id } }, body: { permissions, expectedUpdatedAt } })))
          }
        />
      )}
    </div>
  );
}

/**
 * A whole list (roles, permissions) edited as checkboxes and saved at the account's time it was read from: a newer
 * copy of the account replaces the list only while it has no unsaved edits; with edits, the save keeps the older time,
 * so a change made meanwhile is refused (USER_CHANGED) rather than overwritten or silently dropped here.
 */
function ListEditor<T extends string>(props: {
  title: string;
  options: readonly T[];
  fixed?: readonly T[];
  saved: T[];
  savedAt: string;
  op: [method: string, path: string];
  testid: string;
  save: (list: T[], expectedUpdatedAt: string) => Promise<void>;
}) {
  const [edit, setEdit] = useState({ list: props.saved, base: props.saved, at: props.savedAt });
  const unsaved = (e: typeof edit) => e.list.length !== e.base.length || e.list.some((x) => !e.base.includes(x));
  if (props.savedAt !== edit.at && !unsaved(edit)) setEdit({ list: props.saved, base: props.saved, at: props.savedAt });
  const toggle = (value: T) => setEdit({ ...edit, list: edit.list.includes(value) ? edit.list.filter((x) => x !== value) : [...edit.list, value] });
  return (
    <div class="card">
      <h3>{props.title}</h3>
      {props.options.map((option) => (
        <label key={option} class="check">
          <input type="checkbox" checked={edit.list.includes(option)} disabled={props.fixed?.includes(option)} onChange={() => toggle(option)} /> {option}
        </label>
      ))}
      <Action
        op={props.op}
        testid={props.testid}
        done={t('common.done')}
        run={async () => {
          await props.save(edit.list, edit.at);
          // Saved: no unsaved edits left, so the account's new copy (and its time) is taken at the next render.
          setEdit((e) => ({ ...e, base: e.list }));
        }}
      >
        {t('common.save')}
      </Action>
    </div>
  );
}

/** An account's live sessions as an administrator sees them: sign one device out, or all of them (no lock). */
function UserSessions(props: { userId: string }) {
  const path = { params: { path: { id: props.userId } } };
  const state = useLoad(async () => unwrap(await api.GET('/users/admin/{id}/sessions', { params: { path: { id: props.userId } } })), [props.userId]);
  return (
    <section class="card" data-testid="user-sessions">
      <header class="row">
        <h3>{t('users.sessions')}</h3>
        <span class="grow" />
        <Action
          op={['DELETE', '/users/admin/{id}/sessions']}
          variant="danger"
          testid="revoke-all-sessions"
          run={async () => {
            if (!(await confirmDialog(t('users.signOutAllAsk')))) return;
            const result = unwrap(await api.DELETE('/users/admin/{id}/sessions', path));
            toast(t('users.signedOut', { count: result.revoked }));
            state.reload();
          }}
        >
          {t('signout.everywhere')}
        </Action>
      </header>
      <Loaded state={state}>
        {(data) => (
          <SessionsTable
            sessions={data.sessions}
            op={['DELETE', '/users/admin/{id}/sessions/{sessionId}']}
            signOut={async (sessionId) => {
              unwrap(await api.DELETE('/users/admin/{id}/sessions/{sessionId}', { params: { path: { id: props.userId, sessionId } } }));
              toast(t('common.done'));
              state.reload();
            }}
          />
        )}
      </Loaded>
    </section>
  );
}

/** Live sessions, each but the one in use with a sign-out button. */
function SessionsTable(props: { sessions: Schemas['Session'][]; op: [method: string, path: string]; signOut: (sessionId: string) => Promise<void> }) {
  if (props.sessions.length === 0) return <p class="muted">{t('common.empty')}</p>;
  return (
    <table>
      <tbody>
        {props.sessions.map((s) => (
          <tr key={s.id} data-row={s.id}>
            <td>
              {s.surface ?? '—'} · {s.method}
            </td>
            <td>{s.deviceName ?? s.userAgent ?? '—'}</td>
            <td>{s.lastIp ?? s.ip ?? '—'}</td>
            <td>{when(s.lastUsedAt)}</td>
            <td>
              {s.current ? (
                <Badge value="current" label={t('users.thisSession')} />
              ) : (
                <Action op={props.op} variant="secondary" testid={`revoke-session-${s.id}`} run={() => props.signOut(s.id)}>
                  {t('users.signOutSession')}
                </Action>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The administrator's own sessions: sign out one device, or every other one. */
export function SessionsPage() {
  const state = useLoad(async () => unwrap(await api.GET('/auth/sessions')), []);
  return (
    <section data-testid="page-sessions">
      <h2>{t('users.sessions')}</h2>
      <Loaded state={state}>
        {(data) => (
          <SessionsTable
            sessions={data.sessions}
            op={['DELETE', '/auth/sessions/{id}']}
            signOut={async (id) => {
              unwrap(await api.DELETE('/auth/sessions/{id}', { params: { path: { id } } }));
              state.reload();
            }}
          />
        )}
      </Loaded>
      <button
        type="button"
        class="danger"
        onClick={() =>
          void client.signOut({ allSessions: true }).then(
            () => location.reload(),
            (error: unknown) => toast(errorText(error), 'error'),
          )
        }
      >
        {t('signout.everywhere')}
      </button>
    </section>
  );
}
