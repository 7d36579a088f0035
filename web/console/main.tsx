// The admin console: sign-in, then one page per area, routed by the URL's hash (#/users/abc), so Hosting serves
// one file at /admin.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { lang, setLang, t, type TextKey } from './i18n';
import { ApplicationsPage } from './pages/applications';
import { BookingsPage, bookingTabs } from './pages/bookings';
import { BroadcastsPage } from './pages/broadcasts';
import { CatalogPage, catalogTabs } from './pages/catalog';
import { CmsPage, cmsTabs } from './pages/cms';
import { CommercePage, commerceTabs } from './pages/commerce';
import { ModerationPage } from './pages/moderation';
import { MoneyPage } from './pages/money';
import { OverviewPage } from './pages/overview';
import { RidesPage, rideTabs } from './pages/rides';
import { SupportPage, supportTabs } from './pages/support';
import { SessionsPage, UsersPage } from './pages/users';
import { can, loadMe, me, signOut } from './session';
import { SignIn } from './signin';
import { useSignal } from './state';
import { Dialogs, Toasts, errorText, href, route } from './ui';

// Each area, what opens it (an area the administrator cannot read is not in the menu: the operation its first page
// calls, or a test of its own), its page.
type Opens = [method: string, path: string] | (() => boolean);
const AREAS: { id: string; label: TextKey; op: Opens; page: (args: string[]) => preact.JSX.Element }[] = [
  { id: 'overview', label: 'nav.overview', op: ['GET', '/users/admin/overview'], page: () => <OverviewPage /> },
  { id: 'users', label: 'nav.users', op: ['GET', '/users/admin'], page: ([id]) => <UsersPage id={id} /> },
  { id: 'applications', label: 'nav.applications', op: ['GET', '/driver/admin/applications'], page: ([kind, id]) => <ApplicationsPage kind={kind} id={id} /> },
  { id: 'money', label: 'nav.money', op: ['GET', '/payments/admin'], page: ([tab, id]) => <MoneyPage tab={tab} id={id} /> },
  { id: 'rides', label: 'nav.rides', op: () => rideTabs().length > 0, page: ([tab]) => <RidesPage tab={tab} /> },
  { id: 'commerce', label: 'nav.commerce', op: () => commerceTabs().length > 0, page: ([tab, id]) => <CommercePage tab={tab} id={id} /> },
  { id: 'bookings', label: 'nav.bookings', op: () => bookingTabs().length > 0, page: ([tab]) => <BookingsPage tab={tab} /> },
  { id: 'support', label: 'nav.support', op: () => supportTabs().length > 0, page: ([tab, id]) => <SupportPage tab={tab} id={id} /> },
  { id: 'moderation', label: 'nav.moderation', op: ['GET', '/chat/admin/reports'], page: ([tab]) => <ModerationPage tab={tab} /> },
  { id: 'catalog', label: 'nav.catalog', op: () => catalogTabs().length > 0, page: ([kind]) => <CatalogPage kind={kind} /> },
  { id: 'cms', label: 'nav.cms', op: () => cmsTabs().length > 0, page: ([tab, id]) => <CmsPage tab={tab} id={id} /> },
  { id: 'broadcasts', label: 'nav.broadcasts', op: ['POST', '/notifications/broadcast'], page: () => <BroadcastsPage /> },
];

function App() {
  useSignal(lang);
  const profile = useSignal(me);
  const path = useSignal(route);
  const [starting, setStarting] = useState(true);
  const [failed, setFailed] = useState<unknown>();
  useEffect(() => {
    void loadMe()
      .catch((error: unknown) => setFailed(error))
      .finally(() => setStarting(false));
  }, []);
  if (starting) return <p class="muted center">{t('common.loading')}</p>;
  // The API could not be reached: the stored session stays, a reload tries again.
  if (failed && !profile) return <p class="error center">{errorText(failed)}</p>;
  if (!profile) return <SignIn />;
  const areas = AREAS.filter((a) => (typeof a.op === 'function' ? a.op() : can(...a.op)));
  const [first = areas[0]?.id ?? 'sessions', ...rest] = path;
  const area = areas.find((a) => a.id === first);
  return (
    <div class="shell">
      <aside>
        <h1>{t('app.title')}</h1>
        <nav data-testid="menu">
          {areas.map((a) => (
            <a key={a.id} href={href(a.id)} class={a.id === first ? 'on' : ''} data-area={a.id}>
              {t(a.label)}
            </a>
          ))}
          <a href={href('sessions')} class={first === 'sessions' ? 'on' : ''} data-area="sessions">
            {t('users.sessions')}
          </a>
        </nav>
      </aside>
      <div class="main">
        <header class="top row">
          <span data-testid="me">
            {profile.name} · {profile.email}
          </span>
          <span class="grow" />
          <button type="button" class="secondary" onClick={() => setLang(lang.get() === 'vi' ? 'en' : 'vi')} data-testid="lang">
            {lang.get() === 'vi' ? 'English' : 'Tiếng Việt'}
          </button>
          <button type="button" class="secondary" onClick={() => void signOut()} data-testid="signout">
            {t('signout')}
          </button>
        </header>
        {/* Keyed by the route: another record's page starts afresh (no state of the one before). */}
        <main key={path.join('/')}>{first === 'sessions' ? <SessionsPage /> : area ? area.page(rest) : <p class="error">{t('err.forbidden')}</p>}</main>
      </div>
      <Dialogs />
      <Toasts />
    </div>
  );
}

document.documentElement.lang = lang.get();
render(<App />, document.getElementById('app')!);
