// Bookings: every vertical's bookings (hotels, parking, rental viewings, clinics, schools, home services) to find and
// cancel (everything paid is refunded by the bookings module), rental deposits in dispute settled for the landlord or
// the tenant, and the bookable listings (hotels, rentals, clinics, schools) to hide or restore.
import { FIELD_ENUMS, unwrap, type Schemas } from '../../client';
import { t, vnd, when } from '../i18n';
import { api } from '../session';
import { Action, Badge, ListPage, Tabs, confirmDialog, go, openTabs, toast, useActionKeys, type Page } from '../ui';
import { RecordsList, type RecordKind } from './records';

type Booking = Schemas['Booking'];
type Deposit = Schemas['RentalDeposit'];
const ENDED = new Set<string>(['COMPLETED', 'CANCELLED', 'REJECTED', 'NO_SHOW', 'EXPIRED']);

type ListingKind = 'hotels' | 'rentals' | 'clinics' | 'schools';
const LISTINGS: Record<ListingKind, RecordKind> = {
  hotels: {
    base: '/hotels/admin',
    list: async (query) => unwrap(await api.GET('/hotels/admin', { params: { query } })),
    hide: async (id, reason) => unwrap(await api.POST('/hotels/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
    restore: async (id) => unwrap(await api.POST('/hotels/admin/{id}/restore', { params: { path: { id } } })),
  },
  rentals: {
    base: '/rentals/listings/admin',
    list: async (query) => unwrap(await api.GET('/rentals/listings/admin', { params: { query } })),
    hide: async (id, reason) => unwrap(await api.POST('/rentals/listings/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
    restore: async (id) => unwrap(await api.POST('/rentals/listings/admin/{id}/restore', { params: { path: { id } } })),
  },
  clinics: {
    base: '/medical/clinics/admin',
    list: async (query) => unwrap(await api.GET('/medical/clinics/admin', { params: { query } })),
    hide: async (id, reason) => unwrap(await api.POST('/medical/clinics/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
    restore: async (id) => unwrap(await api.POST('/medical/clinics/admin/{id}/restore', { params: { path: { id } } })),
  },
  schools: {
    base: '/schools/admin',
    list: async (query) => unwrap(await api.GET('/schools/admin', { params: { query } })),
    hide: async (id, reason) => unwrap(await api.POST('/schools/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
    restore: async (id) => unwrap(await api.POST('/schools/admin/{id}/restore', { params: { path: { id } } })),
  },
};

const TABS = [
  { id: 'bookings', label: 'bk.bookings', op: ['GET', '/admin/bookings'] },
  // Deposits are listed per landlord (the API's list for administrators); settling one needs bookings.manage.
  { id: 'deposits', label: 'bk.deposits', op: ['POST', '/admin/rentals/deposits/{id}/release'] },
  { id: 'hotels', label: 'bk.hotels', op: ['GET', LISTINGS.hotels.base] },
  { id: 'rentals', label: 'bk.rentals', op: ['GET', LISTINGS.rentals.base] },
  { id: 'clinics', label: 'bk.clinics', op: ['GET', LISTINGS.clinics.base] },
  { id: 'schools', label: 'bk.schools', op: ['GET', LISTINGS.schools.base] },
] as const;

/** The tabs the administrator's permissions open (bookings.manage, catalog.manage). */
export const bookingTabs = () => openTabs(TABS);

export function BookingsPage(props: { tab?: string }) {
  const tabs = bookingTabs();
  const tab = tabs.find((x) => x.id === props.tab) ?? tabs[0];
  if (!tab) return <p class="error">{t('err.forbidden')}</p>;
  return (
    <>
      <Tabs tabs={tabs.map((x) => ({ id: x.id, label: t(x.label) }))} current={tab.id} onChange={(id) => go('bookings', id)} />
      {tab.id === 'bookings' && <Bookings />}
      {tab.id === 'deposits' && <Deposits />}
      {tab.id in LISTINGS && <RecordsList key={tab.id} kind={LISTINGS[tab.id as ListingKind]} title={t(tab.label)} testid={`page-${tab.id}`} />}
    </>
  );
}

const fetchBookings = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/admin/bookings', {
      params: {
        query: {
          limit: 25,
          ...(cursor ? { cursor } : {}),
          ...(f.vertical ? { vertical: f.vertical as Booking['vertical'] } : {}),
          ...(f.status ? { status: f.status as Booking['status'] } : {}),
          ...(f.consumerId ? { consumerId: f.consumerId } : {}),
          ...(f.partnerId ? { partnerId: f.partnerId } : {}),
        },
      },
    }),
  );

function Bookings() {
  const keys = useActionKeys();
  return (
    <ListPage<Booking>
      testid="page-bookings"
      title={t('bk.bookings')}
      rowKey={(b) => b.id}
      fetchPage={fetchBookings}
      liveEverySec={15}
      filters={[
        { name: 'vertical', label: t('bk.vertical'), options: FIELD_ENUMS['Booking.vertical'] },
        { name: 'status', label: t('common.status'), options: FIELD_ENUMS['Booking.status'] },
        { name: 'consumerId', label: t('com.consumer') },
        { name: 'partnerId', label: t('cat.partner') },
      ]}
      columns={[
        { label: t('bk.vertical'), cell: (b) => b.vertical },
        { label: t('bk.resource'), cell: (b) => (b.resource.parentName ? `${b.resource.parentName} · ${b.resource.name}` : b.resource.name) },
        { label: t('bk.starts'), cell: (b) => when(b.startsAt) },
        { label: t('com.consumer'), cell: (b) => <code>{b.consumerId}</code> },
        { label: t('bk.price'), cell: (b) => `${vnd(b.priceVnd)} · ${t('bk.paid')} ${vnd(b.payment.paidVnd)}` },
        { label: t('common.status'), cell: (b) => <Badge value={b.status} /> },
      ]}
      actions={(b, reload) =>
        !ENDED.has(b.status) && (
          <Action
            op={['POST', '/admin/bookings/{id}/cancel']}
            variant="danger"
            testid={`cancel-booking-${b.id}`}
            run={async () => {
              const answer = await confirmDialog(t('bk.cancel', { name: b.resource.name }), 'required');
              if (!answer) return;
              const action = `${b.id}\n${answer.reason}`;
              unwrap(
                await api.POST('/admin/bookings/{id}/cancel', {
                  params: { path: { id: b.id }, header: { 'idempotency-key': keys.keyFor(action) } },
                  body: { reason: answer.reason },
                }),
              );
              keys.settled(action);
              toast(t('common.done'));
              reload();
            }}
          >
            {t('com.cancel')}
          </Action>
        )
      }
    />
  );
}

// The API lists deposits per landlord: without a partner, nothing to show yet.
const fetchDeposits = async (cursor: string | undefined, f: Record<string, string>): Promise<Page<Deposit>> =>
  f.partnerId
    ? unwrap(
        await api.GET('/rentals/deposits', {
          params: {
            query: { partnerId: f.partnerId, limit: 25, ...(cursor ? { cursor } : {}), ...(f.status ? { status: f.status as Deposit['status'] } : {}) },
          },
        }),
      )
    : { items: [], nextCursor: null };

function Deposits() {
  const keys = useActionKeys();
  const settle = async (d: Deposit, to: 'release' | 'refund', reload: () => void) => {
    const answer = await confirmDialog(t(to === 'release' ? 'bk.release' : 'bk.refund', { amount: vnd(d.amountVnd) }), 'required');
    if (!answer) return;
    const action = `${d.id}\n${to}\n${answer.reason}`;
    const call = { params: { path: { id: d.id }, header: { 'idempotency-key': keys.keyFor(action) } }, body: { reason: answer.reason } };
    unwrap(to === 'release' ? await api.POST('/admin/rentals/deposits/{id}/release', call) : await api.POST('/admin/rentals/deposits/{id}/refund', call));
    keys.settled(action);
    toast(t('common.done'));
    reload();
  };
  return (
    <>
      <p class="muted">{t('bk.depositsHint')}</p>
      <ListPage<Deposit>
        testid="page-deposits"
        title={t('bk.deposits')}
        rowKey={(d) => d.id}
        fetchPage={fetchDeposits}
        filters={[
          { name: 'partnerId', label: t('cat.partner') },
          { name: 'status', label: t('common.status'), options: FIELD_ENUMS['RentalDeposit.status'] },
        ]}
        columns={[
          { label: t('common.created'), cell: (d) => when(d.createdAt) },
          { label: t('bk.listing'), cell: (d) => d.listingName },
          { label: t('com.consumer'), cell: (d) => <code>{d.consumerId}</code> },
          { label: t('bk.amount'), cell: (d) => vnd(d.amountVnd) },
          { label: t('bk.leaseBy'), cell: (d) => when(d.leaseBy) },
          { label: t('common.status'), cell: (d) => <Badge value={d.status} /> },
        ]}
        actions={(d, reload) =>
          d.status === 'HELD' && (
            <div class="row">
              <Action
                op={['POST', '/admin/rentals/deposits/{id}/release']}
                variant="secondary"
                testid={`release-${d.id}`}
                run={() => settle(d, 'release', reload)}
              >
                {t('bk.toLandlord')}
              </Action>
              <Action
                op={['POST', '/admin/rentals/deposits/{id}/refund']}
                variant="secondary"
                testid={`refund-${d.id}`}
                run={() => settle(d, 'refund', reload)}
              >
                {t('bk.toTenant')}
              </Action>
            </div>
          )
        }
      />
    </>
  );
}
