// Rides: the SOS queue (live every 5 s: someone on a trip asked for help), each alert with its ride and place,
// resolved with a note.
import { unwrap, type Schemas } from '../../client';
import { t, when } from '../i18n';
import { api } from '../session';
import { Action, Badge, ListPage, confirmDialog, toast } from '../ui';

type Sos = Schemas['RideSos'];

const fetchSos = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/rides/admin/sos', {
      params: { query: { limit: 25, ...(cursor ? { cursor } : {}), ...(f.status ? { status: f.status as Sos['status'] } : {}) } },
    }),
  );

export function RidesPage() {
  return (
    <ListPage<Sos>
      testid="page-sos"
      title={t('rides.sos')}
      rowKey={(s) => s.id}
      fetchPage={fetchSos}
      initialFilters={{ status: 'OPEN' }}
      filters={[{ name: 'status', label: t('common.status'), options: ['OPEN', 'RESOLVED'] }]}
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
