// Broadcasts: compose a message to the chosen apps' accounts and follow the job live (its counters, polled once a
// second until DONE). The API has no list of broadcasts: the ones sent from this browser are remembered here.
import { useEffect, useState } from 'preact/hooks';
import { ENUMS, unwrap, type Schemas } from '../../client';
import { t } from '../i18n';
import { api } from '../session';
import { Action, Badge, toast } from '../ui';

type Broadcast = Schemas['Broadcast'];
type Surface = Schemas['Surface'];
const SURFACES = ENUMS.Surface;
const RECENT_KEY = 'superapp.admin.broadcasts';
const recentIds = (): string[] => {
  try {
    return JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as string[];
  } catch {
    return [];
  }
};

export function BroadcastsPage() {
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [surfaces, setSurfaces] = useState<Surface[]>(['CON', 'PAR', 'DRV']);
  const [ids, setIds] = useState<string[]>(recentIds());
  return (
    <section data-testid="page-broadcasts">
      <h2>{t('nav.broadcasts')}</h2>
      <form class="card" onSubmit={(e) => e.preventDefault()}>
        <h3>{t('bc.compose')}</h3>
        <label>
          {t('bc.title')}
          <input name="title" maxLength={120} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        </label>
        <label>
          {t('bc.body')}
          <textarea name="body" maxLength={1000} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
        </label>
        <fieldset>
          <legend>{t('bc.surfaces')}</legend>
          {SURFACES.map((s) => (
            <label key={s} class="check">
              <input
                type="checkbox"
                checked={surfaces.includes(s)}
                onChange={() => setSurfaces(surfaces.includes(s) ? surfaces.filter((x) => x !== s) : [...surfaces, s])}
              />{' '}
              {s}
            </label>
          ))}
        </fieldset>
        <Action
          op={['POST', '/notifications/broadcast']}
          testid="send-broadcast"
          run={async () => {
            if (!title.trim() || !body.trim() || surfaces.length === 0) return toast(t('err.generic', { code: 'VALIDATION_FAILED' }), 'error');
            const job = unwrap(await api.POST('/notifications/broadcast', { body: { title: title.trim(), body: body.trim(), surfaces } }));
            const next = [job.broadcastId, ...ids.filter((x) => x !== job.broadcastId)].slice(0, 20);
            localStorage.setItem(RECENT_KEY, JSON.stringify(next));
            setIds(next);
            setTitle('');
            setBody('');
          }}
        >
          {t('bc.send')}
        </Action>
      </form>
      <h3>{t('bc.recent')}</h3>
      {ids.map((id) => (
        <BroadcastProgress key={id} id={id} />
      ))}
    </section>
  );
}

function BroadcastProgress(props: { id: string }) {
  const [job, setJob] = useState<Broadcast | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let polls = 0;
    const poll = async () => {
      polls++;
      const result = await api.GET('/notifications/broadcast/{id}', { params: { path: { id: props.id } } });
      if (!live) return;
      if (!result.data) return setError(`HTTP ${result.response.status}`);
      setJob(result.data);
      // Once a second for two minutes, then every ten seconds (a big audience takes a while).
      if (result.data.status !== 'DONE') timer = setTimeout(poll, polls < 120 ? 1000 : 10_000);
    };
    void poll().catch((e: unknown) => live && setError(String(e)));
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.id]);
  return (
    <div class="card" data-broadcast={props.id} data-status={job?.status}>
      {error ? (
        <p class="error">{error}</p>
      ) : job ? (
        <>
          <strong>{job.title}</strong> <Badge value={job.status} /> <span class="muted">{job.surfaces.join(', ')}</span>
          <p>{t('bc.progress', { pages: job.pagesDone, items: job.inboxItems })}</p>
        </>
      ) : (
        <p class="muted">{t('common.loading')}</p>
      )}
    </div>
  );
}
