// The map tab's records (places, pharmacies, parking lots, fuel stations, ATMs, home-service providers) to hide
// (with a reason their managers see) or restore, and the vouchers (on or off).
import { unwrap, type Schemas } from '../../client';
import { t, vnd, when } from '../i18n';
import { api, can } from '../session';
import { Action, Badge, ListPage, Tabs, go, toast } from '../ui';
import { RecordsList, openKinds, type RecordKind } from './records';

type Promotion = Schemas['ManagedPromotion'];

type Kind = 'places' | 'pharmacy' | 'parking' | 'fuel' | 'atm' | 'home-services';
// Each kind: its admin list, hide and restore operations (the paths typed by the client).
const KINDS: Record<Kind, RecordKind> = {
  places: {
    base: '/places/admin',
    list: async (query) => unwrap(await api.GET('/places/admin', { params: { query } })),
    hide: async (id, reason) => unwrap(await api.POST('/places/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
    restore: async (id) => unwrap(await api.POST('/places/admin/{id}/restore', { params: { path: { id } } })),
  },
  pharmacy: {
    base: '/pharmacy/stores/admin',
    list: async (query) => unwrap(await api.GET('/pharmacy/stores/admin', { params: { query } })),
    hide: async (id, reason) => unwrap(await api.POST('/pharmacy/stores/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
    restore: async (id) => unwrap(await api.POST('/pharmacy/stores/admin/{id}/restore', { params: { path: { id } } })),
  },
  parking: {
    base: '/parking/lots/admin',
    list: async (query) => unwrap(await api.GET('/parking/lots/admin', { params: { query } })),
    hide: async (id, reason) => unwrap(await api.POST('/parking/lots/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
    restore: async (id) => unwrap(await api.POST('/parking/lots/admin/{id}/restore', { params: { path: { id } } })),
  },
  fuel: {
    base: '/fuel/stations/admin',
    list: async (query) => unwrap(await api.GET('/fuel/stations/admin', { params: { query } })),
    hide: async (id, reason) => unwrap(await api.POST('/fuel/stations/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
    restore: async (id) => unwrap(await api.POST('/fuel/stations/admin/{id}/restore', { params: { path: { id } } })),
  },
  atm: {
    base: '/atm/admin',
    list: async (query) => unwrap(await api.GET('/atm/admin', { params: { query } })),
    hide: async (id, reason) => unwrap(await api.POST('/atm/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
    restore: async (id) => unwrap(await api.POST('/atm/admin/{id}/restore', { params: { path: { id } } })),
  },
  'home-services': {
    base: '/home-services/providers/admin',
    list: async (query) => unwrap(await api.GET('/home-services/providers/admin', { params: { query } })),
    hide: async (id, reason) => unwrap(await api.POST('/home-services/providers/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
    restore: async (id) => unwrap(await api.POST('/home-services/providers/admin/{id}/restore', { params: { path: { id } } })),
  },
};
const LABELS: Record<Kind | 'vouchers', Parameters<typeof t>[0]> = {
  places: 'cat.places',
  pharmacy: 'cat.pharmacy',
  parking: 'cat.parking',
  fuel: 'cat.fuel',
  atm: 'cat.atm',
  'home-services': 'cat.homeServices',
  vouchers: 'cat.vouchers',
};

/** The tabs the administrator's permissions open (records need catalog.manage, vouchers promotions.manage). */
export const catalogTabs = (): (Kind | 'vouchers')[] => [...openKinds(KINDS), ...(can('GET', '/promotions/manage') ? (['vouchers'] as const) : [])];

export function CatalogPage(props: { kind?: string }) {
  const tabs = catalogTabs();
  const kind = tabs.includes(props.kind as Kind) ? (props.kind as Kind | 'vouchers') : tabs[0];
  if (!kind) return <p class="error">{t('err.forbidden')}</p>;
  return (
    <>
      <Tabs tabs={tabs.map((id) => ({ id, label: t(LABELS[id]) }))} current={kind} onChange={(id) => go('catalog', id)} />
      {kind === 'vouchers' ? <Vouchers /> : <RecordsList key={kind} kind={KINDS[kind]} title={t(LABELS[kind])} testid={`page-${kind}`} />}
    </>
  );
}

const fetchVouchers = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/promotions/manage', {
      params: { query: { limit: 25, ...(cursor ? { cursor } : {}), ...(f.partnerId ? { partnerId: f.partnerId } : {}) } },
    }),
  );

function Vouchers() {
  return (
    <ListPage<Promotion>
      testid="page-vouchers"
      title={t('cat.vouchers')}
      rowKey={(p) => p.id}
      fetchPage={fetchVouchers}
      filters={[{ name: 'partnerId', label: t('cat.partner') }]}
      columns={[
        { label: t('cat.code'), cell: (p) => <code>{p.code}</code> },
        { label: t('bc.title'), cell: (p) => p.title },
        { label: t('cat.value'), cell: (p) => (p.kind === 'PERCENT' ? `${p.value}%` : vnd(p.value)) },
        { label: t('cat.used'), cell: (p) => `${p.stats.redeemed}${p.stats.remaining === null ? '' : ` / ${p.stats.redeemed + p.stats.remaining}`}` },
        { label: t('cat.ends'), cell: (p) => when(p.endsAt) },
        { label: t('common.status'), cell: (p) => <Badge value={p.status} /> },
      ]}
      actions={(p, reload) => (
        <Action
          op={['PATCH', '/promotions/manage/{id}']}
          variant={p.status === 'ACTIVE' ? 'danger' : 'secondary'}
          run={async () => {
            unwrap(
              await api.PATCH('/promotions/manage/{id}', { params: { path: { id: p.id } }, body: { status: p.status === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE' } }),
            );
            toast(t('common.done'));
            reload();
          }}
        >
          {p.status === 'ACTIVE' ? t('cat.deactivate') : t('cat.activate')}
        </Action>
      )}
    />
  );
}
