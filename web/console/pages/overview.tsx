// Overview: the admin overview operation's counters (refreshed every 30 s; the session's samples drawn as a line)
// and the rides of the last 24 hours when the administrator may see them.
import { useEffect } from 'preact/hooks';
import { unwrap } from '../../client';
import { t } from '../i18n';
import { api, can } from '../session';
import { Facts, Loaded, Sparkline, useLoad } from '../ui';

const SAMPLES_KEY = 'superapp.admin.overviewSamples';
const readSamples = (): number[] => {
  try {
    return JSON.parse(sessionStorage.getItem(SAMPLES_KEY) ?? '[]') as number[];
  } catch {
    return [];
  }
};

export function OverviewPage() {
  const overview = useLoad(async () => {
    const data = unwrap(await api.GET('/users/admin/overview'));
    const samples = [...readSamples(), data.total].slice(-60);
    sessionStorage.setItem(SAMPLES_KEY, JSON.stringify(samples));
    return { data, samples };
  }, []);
  const rides = useLoad(
    async () => (can('GET', '/rides/admin/stats') ? unwrap(await api.GET('/rides/admin/stats', { params: { query: { hours: 24 } } })) : null),
    [],
  );
  const { reload: reloadOverview } = overview;
  const { reload: reloadRides } = rides;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      reloadOverview();
      reloadRides();
    }, 30_000);
    return () => clearInterval(timer);
  }, [reloadOverview, reloadRides]);
  return (
    <section data-testid="page-overview">
      <h2>{t('nav.overview')}</h2>
      <Loaded state={overview}>
        {({ data, samples }) => (
          <div class="cards">
            <div class="card">
              <h3>{t('overview.users')}</h3>
              <p class="big" data-testid="overview-total">
                {data.total}
              </p>
              <Sparkline values={samples} label={t('overview.trend')} />
              <p class="muted">
                {t('overview.disabled')}: {data.disabled}
              </p>
            </div>
            <div class="card">
              <h3>{t('overview.pending')}</h3>
              <Facts
                rows={[
                  [t('apps.driver'), data.pendingApplications.DRIVER],
                  [t('apps.partner'), data.pendingApplications.PARTNER],
                ]}
              />
            </div>
            <div class="card">
              <h3>{t('overview.byRole')}</h3>
              <Facts rows={Object.entries(data.byRole).map(([role, n]) => [role, n] as [string, number])} />
            </div>
            <div class="card">
              <h3>{t('overview.byHat')}</h3>
              <Facts rows={Object.entries(data.byHat).map(([hat, n]) => [hat, n] as [string, number])} />
            </div>
          </div>
        )}
      </Loaded>
      <Loaded state={rides}>
        {(stats) =>
          stats && (
            <div class="card wide">
              <h3>
                {t('overview.rides')} (24 h): {stats.booked}
              </h3>
              <div class="bars">
                {Object.entries(stats.byStatus).map(([status, n]) => (
                  <div key={status} class="bar" title={`${status}: ${n}`}>
                    <span style={{ height: `${stats.booked ? Math.max(2, (Number(n) / stats.booked) * 100) : 2}%` }} />
                    <small>{status}</small>
                  </div>
                ))}
              </div>
            </div>
          )
        }
      </Loaded>
    </section>
  );
}
