// A partner's or a curated listing (a place, a store, a hotel, a clinic …) as an administrator moderates it: each
// kind's admin list with status and partner filters, hidden with a reason its managers see, or restored. The map
// records, the merchants and the bookable listings are all this one page.
import type { ComponentChildren } from 'preact';
import { t } from '../i18n';
import { can } from '../session';
import { Action, Badge, ListPage, confirmDialog, toast, type Page } from '../ui';

export type RecordStatus = 'ACTIVE' | 'HIDDEN' | 'ARCHIVED';
export interface RecordRow {
  id: string;
  name: string;
  status: string;
  address?: string | null;
  partnerId: string | null;
}
export type RecordQuery = { limit: number; cursor?: string; status?: RecordStatus; partnerId?: string };

/** One kind: its admin list's path (`base`, which also names its hide and restore operations) and the three calls. */
export interface RecordKind<T extends RecordRow = RecordRow> {
  base: string;
  list: (query: RecordQuery) => Promise<Page<T>>;
  hide: (id: string, reason: string) => Promise<unknown>;
  restore: (id: string) => Promise<unknown>;
}

/** The kinds whose admin list the administrator's permissions open. */
export const openKinds = <K extends string>(kinds: Record<K, RecordKind<RecordRow>>): K[] =>
  (Object.keys(kinds) as K[]).filter((k) => can('GET', kinds[k].base));

const fetcherOf =
  <T extends RecordRow>(kind: RecordKind<T>) =>
  async (cursor: string | undefined, f: Record<string, string>) =>
    kind.list({
      limit: 25,
      ...(cursor ? { cursor } : {}),
      ...(f.status ? { status: f.status as RecordStatus } : {}),
      ...(f.partnerId ? { partnerId: f.partnerId } : {}),
    });

export function RecordsList<T extends RecordRow>(props: {
  kind: RecordKind<T>;
  title: string;
  testid: string;
  /** More columns after the name (a hotel's stars, a merchant's pause). */
  extraColumns?: { label: string; cell: (row: T) => ComponentChildren }[];
  /** More actions before hide or restore. */
  extraActions?: (row: T, reload: () => void) => ComponentChildren;
}) {
  const { kind } = props;
  return (
    <ListPage<T>
      testid={props.testid}
      title={props.title}
      rowKey={(r) => r.id}
      fetchPage={fetcherOf(kind)}
      filters={[
        { name: 'status', label: t('common.status'), options: ['ACTIVE', 'HIDDEN', 'ARCHIVED'] },
        { name: 'partnerId', label: t('cat.partner') },
      ]}
      columns={[
        { label: t('users.name'), cell: (r) => r.name },
        ...(props.extraColumns ?? []),
        { label: t('cat.address'), cell: (r) => r.address ?? '—' },
        { label: t('cat.partner'), cell: (r) => (r.partnerId ? <code>{r.partnerId}</code> : t('cat.curated')) },
        { label: t('common.status'), cell: (r) => <Badge value={r.status} /> },
      ]}
      actions={(r, reload) => (
        <div class="row">
          {props.extraActions?.(r, reload)}
          {r.status === 'ACTIVE' ? (
            <Action
              op={['POST', `${kind.base}/{id}/hide`]}
              variant="danger"
              testid={`hide-${r.id}`}
              run={async () => {
                const answer = await confirmDialog(`${t('cat.hide')}: ${r.name}`, 'required', 3);
                if (!answer) return;
                await kind.hide(r.id, answer.reason);
                toast(t('common.done'));
                reload();
              }}
            >
              {t('cat.hide')}
            </Action>
          ) : r.status === 'HIDDEN' ? (
            <Action
              op={['POST', `${kind.base}/{id}/restore`]}
              variant="secondary"
              testid={`restore-${r.id}`}
              run={async () => {
                await kind.restore(r.id);
                toast(t('common.done'));
                reload();
              }}
            >
              {t('cat.restore')}
            </Action>
          ) : null}
        </div>
      )}
    />
  );
}
