// Rides: the SOS queue (live every 5 s: someone on a trip asked for help), each alert with its ride and place,
// resolved with a note; the trips (a started trip whose driver cannot end it is completed at the quote or the
// distance driven); the riders' disputes, rejected or refunded in full (the API's default: all the rider paid).
import { FIELD_ENUMS, unwrap, type Schemas } from '../../client';
import { t, vnd, when } from '../i18n';
import { api } from '../session';
import { Action, Badge, ListPage, Tabs, confirmDialog, go, openTabs, toast } from '../ui';

type Sos = Schemas['RideSos'];
type Ride = Schemas['Ride'];
type Dispute = Schemas['RideDispute'];

const TABS = [
  { id: 'sos', label: 'rides.sos', op: ['GET', '/rides/admin/sos'] },
  { id: 'trips', label: 'rides.trips', op: ['GET', '/rides/admin'] },
  { id: 'disputes', label: 'rides.disputes', op: ['GET', '/rides/admin/disputes'] },
] as const;

export const rideTabs = () => openTabs(TABS);

export function RidesPage(props: { tab?: string }) {
  const tabs = rideTabs();
  const tab = tabs.find((x) => x.id === props.tab) ?? tabs[0];
  if (!tab) return <p class="error">{t('err.forbidden')}</p>;
  return (
    <>
      <Tabs tabs={tabs.map((x) => ({ id: x.id, label: t(x.label) }))} current={tab.id} onChange={(id) => go('rides', id)} />
      {tab.id === 'sos' && <SosQueue />}
      {tab.id === 'trips' && <Trips />}
      {tab.id === 'disputes' && <Disputes />}
    </>
  );
}

const fetchSos = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/rides/admin/sos', {
      params: { query: { limit: 25, ...(cursor ? { cursor } : {}), ...(f.status ? { status: f.status as Sos['status'] } : {}) } },
    }),
  );

function SosQueue() {
  return (
    <ListPage<Sos>
      testid="page-sos"
      title={t('rides.sos')}
      rowKey={(s) => s.id}
      fetchPage={fetchSos}
      initialFilters={{ status: 'OPEN' }}
      filters={[{ name: 'status', label: t('common.status'), options: FIELD_ENUMS['RideSos.status'] }]}
      liveEverySec={5}
      columns={[
        { label: t('common.created'), cell: (s) => when(s.createdAt) },
        { label: t('rides.ride'), cell: (s) => <code>{s.rideId}</code> },
        { label: t('rides.raisedBy'), cell: (s) => `${s.role} · ${s.raisedBy}` },
        { label: t('rides.message'), cell: (s) => s.message ?? '—' },
        {
          label: t('rides.where'),
          cell: (s) =>
            s.location ? (
              <a href={`https://www.google.com/maps?q=${s.location.lat},${s.location.lng}`} target="_blank" rel="noopener noreferrer">
                {s.location.lat.toFixed(5)}, {s.location.lng.toFixed(5)}
              </a>
            ) : (
              '—'
            ),
        },
        { label: t('common.status'), cell: (s) => <Badge value={s.status} /> },
      ]}
      actions={(s, reload) =>
        s.status === 'OPEN' && (
          <Action
            op={['POST', '/rides/admin/sos/{id}/resolve']}
            testid={`resolve-sos-${s.id}`}
            run={async () => {
              const answer = await confirmDialog(t('rides.resolve'), 'optional');
              if (!answer) return;
              unwrap(await api.POST('/rides/admin/sos/{id}/resolve', { params: { path: { id: s.id } }, body: answer.reason ? { note: answer.reason } : {} }));
              toast(t('common.done'));
              reload();
            }}
          >
            {t('rides.resolve')}
          </Action>
        )
      }
    />
  );
}

const fetchRides = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/rides/admin', {
      params: {
        query: {
          limit: 25,
          ...(cursor ? { cursor } : {}),
          ...(f.status ? { status: f.status as Ride['status'] } : {}),
          ...(f.riderId ? { riderId: f.riderId } : {}),
          ...(f.driverId ? { driverId: f.driverId } : {}),
        },
      },
    }),
  );

function Trips() {
  const complete = async (r: Ride, fare: 'QUOTE' | 'DRIVEN', reload: () => void) => {
    const answer = await confirmDialog(t(fare === 'QUOTE' ? 'rides.completeQuote' : 'rides.completeDriven', { fare: vnd(r.quote.fare) }), 'required');
    if (!answer) return;
    unwrap(await api.POST('/rides/admin/{id}/complete', { params: { path: { id: r.id } }, body: { fare, reason: answer.reason } }));
    toast(t('common.done'));
    reload();
  };
  return (
    <ListPage<Ride>
      testid="page-trips"
      title={t('rides.trips')}
      rowKey={(r) => r.id}
      fetchPage={fetchRides}
      filters={[
        { name: 'status', label: t('common.status'), options: FIELD_ENUMS['Ride.status'] },
        { name: 'riderId', label: t('rides.rider') },
        { name: 'driverId', label: t('rides.driver') },
      ]}
      columns={[
        { label: t('common.created'), cell: (r) => when(r.createdAt) },
        { label: t('rides.route'), cell: (r) => `${r.pickup.address ?? '…'} → ${r.dropoff.address ?? '…'}` },
        { label: t('rides.rider'), cell: (r) => <code>{r.riderId}</code> },
        { label: t('rides.driver'), cell: (r) => (r.driverId ? `${r.driver?.name ?? ''} · ${r.driverId}` : '—') },
        { label: t('rides.fare'), cell: (r) => `${vnd(r.fare ?? r.quote.fare)} · ${r.paymentMethod}` },
        { label: t('common.status'), cell: (r) => <Badge value={r.status} /> },
      ]}
      actions={(r, reload) =>
        r.status === 'IN_PROGRESS' && (
          <div class="row">
            <Action op={['POST', '/rides/admin/{id}/complete']} variant="secondary" testid={`complete-quote-${r.id}`} run={() => complete(r, 'QUOTE', reload)}>
              {t('rides.atQuote')}
            </Action>
            <Action op={['POST', '/rides/admin/{id}/complete']} variant="secondary" run={() => complete(r, 'DRIVEN', reload)}>
              {t('rides.atDriven')}
            </Action>
          </div>
        )
      }
    />
  );
}

const fetchDisputes = async (cursor: string | undefined) =>
  unwrap(await api.GET('/rides/admin/disputes', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } }));

function Disputes() {
  const resolve = async (d: Dispute, outcome: Schemas['RideDisputeResolve']['outcome'], reload: () => void) => {
    const answer = await confirmDialog(
      outcome === 'REFUNDED' ? t('rides.refundAll', { fare: d.fare === null ? '—' : vnd(d.fare) }) : t('rides.rejectDispute'),
      'required',
    );
    if (!answer) return;
    unwrap(
      await api.POST('/rides/admin/disputes/{id}/resolve', {
        params: { path: { id: d.id } },
        body: { outcome, note: answer.reason },
      }),
    );
    toast(t('common.done'));
    reload();
  };
  return (
    <ListPage<Dispute>
      testid="page-disputes"
      title={t('rides.disputes')}
      rowKey={(d) => d.id}
      fetchPage={fetchDisputes}
      liveEverySec={15}
      columns={[
        { label: t('common.created'), cell: (d) => when(d.createdAt) },
        { label: t('rides.ride'), cell: (d) => <code>{d.rideId}</code> },
        { label: t('rides.rider'), cell: (d) => <code>{d.riderId}</code> },
        { label: t('common.reason'), cell: (d) => `${d.reason}${d.message ? ` · ${d.message}` : ''}` },
        { label: t('rides.fare'), cell: (d) => (d.fare === null ? '—' : vnd(d.fare)) },
        {
          label: t('common.status'),
          cell: (d) => (
            <>
              <Badge value={d.status} /> {d.outcome ? <Badge value={d.outcome} /> : null} {d.refundAmount ? vnd(d.refundAmount) : ''}
            </>
          ),
        },
      ]}
      actions={(d, reload) =>
        d.status === 'OPEN' && (
          <div class="row">
            <Action op={['POST', '/rides/admin/disputes/{id}/resolve']} testid={`refund-dispute-${d.id}`} run={() => resolve(d, 'REFUNDED', reload)}>
              {t('rides.refund')}
            </Action>
            <Action
              op={['POST', '/rides/admin/disputes/{id}/resolve']}
              variant="danger"
              testid={`reject-dispute-${d.id}`}
              run={() => resolve(d, 'REJECTED', reload)}
            >
              {t('money.reject')}
            </Action>
          </div>
        )
      }
    />
  );
}
