// Driver and partner applications: the waiting ones appear live; a detail shows the papers in the page (images and
// PDFs, fetched with the session's token) and the decision: approve (drivers: with capabilities), reject or ask
// for information with a reason.
import { useEffect, useState } from 'preact/hooks';
import { ENUMS, unwrap, type Schemas } from '../../client';
import { t, when } from '../i18n';
import { api } from '../session';
import { Action, Badge, Facts, ListPage, Loaded, Tabs, confirmDialog, go, href, toast, useLoad } from '../ui';

type Application = Schemas['Application'];
type Kind = 'driver' | 'partner';
const STATUSES = ENUMS.ApplicationStatus;
const CAPABILITIES = ENUMS.DriverCapability;

const listOf = (kind: Kind) => async (cursor: string | undefined, f: Record<string, string>) => {
  const query = { limit: 25, ...(cursor ? { cursor } : {}), ...(f.status ? { status: f.status as Schemas['ApplicationStatus'] } : {}) };
  const page = unwrap(
    kind === 'driver'
      ? await api.GET('/driver/admin/applications', { params: { query } })
      : await api.GET('/partners/admin/applications', { params: { query } }),
  );
  return { items: page.applications, nextCursor: page.nextCursor };
};
const fetchers = { driver: listOf('driver'), partner: listOf('partner') };

export function ApplicationsPage(props: { kind?: string; id?: string }) {
  const kind: Kind = props.kind === 'partner' ? 'partner' : 'driver';
  if (props.id) return <ApplicationDetail kind={kind} id={props.id} />;
  return (
    <>
      <Tabs
        tabs={[
          { id: 'driver', label: t('apps.driver') },
          { id: 'partner', label: t('apps.partner') },
        ]}
        current={kind}
        onChange={(id) => go('applications', id)}
      />
      <ListPage<Application>
        key={kind}
        testid="page-applications"
        title={`${t('nav.applications')} · ${kind === 'driver' ? t('apps.driver') : t('apps.partner')}`}
        rowKey={(a) => a.id}
        fetchPage={fetchers[kind]}
        initialFilters={{ status: 'SUBMITTED' }}
        filters={[{ name: 'status', label: t('common.status'), options: STATUSES }]}
        onOpen={(a) => go('applications', kind, a.id)}
        liveEverySec={10}
        columns={[
          { label: t('apps.applicant'), cell: (a) => String(a.details.fullName ?? a.details.businessName ?? a.userId) },
          { label: t('common.status'), cell: (a) => <Badge value={a.status} /> },
          { label: t('apps.papers'), cell: (a) => `${a.papers.length}${a.missingPapers.length ? ` (−${a.missingPapers.length})` : ''}` },
          { label: t('common.created'), cell: (a) => when(a.createdAt) },
        ]}
      />
    </>
  );
}

function ApplicationDetail(props: { kind: Kind; id: string }) {
  const path = { path: { id: props.id } };
  const state = useLoad(async () => {
    const params = { path: { id: props.id } };
    return unwrap(
      props.kind === 'driver' ? await api.GET('/driver/admin/applications/{id}', { params }) : await api.GET('/partners/admin/applications/{id}', { params }),
    );
  }, [props.kind, props.id]);
  const [decided, setDecided] = useState<Application | undefined>();
  const [capabilities, setCapabilities] = useState<Schemas['DriverCapability'][]>(['RIDE', 'COURIER', 'DELIVERY']);
  const app = decided?.id === props.id ? decided : state.data;
  const op: [string, string] = ['PATCH', props.kind === 'driver' ? '/driver/admin/applications/{id}' : '/partners/admin/applications/{id}'];
  const decide = async (status: 'APPROVED' | 'REJECTED' | 'NEEDS_INFO', reason?: string) => {
    const result =
      props.kind === 'driver'
        ? await api.PATCH('/driver/admin/applications/{id}', { params: path, body: status === 'APPROVED' ? { status, capabilities } : { status, reason } })
        : await api.PATCH('/partners/admin/applications/{id}', { params: path, body: status === 'APPROVED' ? { status } : { status, reason } });
    setDecided(unwrap(result));
    toast(t('common.done'));
  };
  const ask = (status: 'REJECTED' | 'NEEDS_INFO') => async () => {
    const answer = await confirmDialog(status === 'REJECTED' ? t('apps.reject') : t('apps.needsInfo'), 'required');
    if (answer) await decide(status, answer.reason);
  };
  return (
    <section data-testid="page-application">
      <a href={href('applications', props.kind)}>← {t('common.back')}</a>
      <Loaded state={{ data: app, error: state.error }}>
        {(a) => (
          <>
            <h2>
              {String(a.details.fullName ?? a.details.businessName ?? a.id)} <Badge value={a.status} />
            </h2>
            <Facts
              rows={[
                ['Id', <code>{a.id}</code>],
                [t('apps.applicant'), <a href={href('users', a.userId)}>{a.userId}</a>],
                ...Object.entries(a.details).map(([k, v]) => [k, detailText(v)] as [string, string]),
                [t('apps.missing'), a.missingPapers.join(', ') || '—'],
                [t('common.reason'), a.reason],
              ]}
            />
            <h3>{t('apps.papers')}</h3>
            <div class="papers">
              {a.papers.map((paper) => (
                <Paper key={paper.id} paper={paper} />
              ))}
            </div>
            {(a.status === 'SUBMITTED' || a.status === 'NEEDS_INFO') && (
              <div class="card">
                {props.kind === 'driver' && (
                  <fieldset>
                    <legend>{t('apps.capabilities')}</legend>
                    {CAPABILITIES.map((c) => (
                      <label key={c} class="check">
                        <input
                          type="checkbox"
                          checked={capabilities.includes(c)}
                          onChange={() => setCapabilities(capabilities.includes(c) ? capabilities.filter((x) => x !== c) : [...capabilities, c])}
                        />{' '}
                        {c}
                      </label>
                    ))}
                  </fieldset>
                )}
                <div class="row">
                  <Action op={op} testid="approve" run={() => decide('APPROVED')}>
                    {t('apps.approve')}
                  </Action>
                  {a.status === 'SUBMITTED' && (
                    <Action op={op} variant="secondary" testid="needs-info" run={ask('NEEDS_INFO')}>
                      {t('apps.needsInfo')}
                    </Action>
                  )}
                  <Action op={op} variant="danger" testid="reject" run={ask('REJECTED')}>
                    {t('apps.reject')}
                  </Action>
                </div>
              </div>
            )}
            <h3>{t('apps.history')}</h3>
            <ul>
              {a.history.map((h, i) => (
                <li key={i}>
                  {when(h.at)} · <Badge value={h.status} /> {h.reason ?? ''}
                </li>
              ))}
            </ul>
          </>
        )}
      </Loaded>
    </section>
  );
}

// A detail as text: nested records (a vehicle) as "key: value" pairs, empty values left out.
const detailText = (value: unknown): string =>
  value === null || value === undefined
    ? '—'
    : typeof value === 'object'
      ? Object.entries(value as Record<string, unknown>)
          .filter(([, v]) => v !== null && v !== undefined)
          .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
          .join(' · ')
      : String(value);

// The kinds a paper may be (the API reads them from the bytes): anything else is offered as bytes, never rendered.
const PAPER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'application/pdf']);

/** A paper shown in the page: fetched with the token (its file is not public), shown from a blob URL. */
function Paper(props: { paper: Schemas['KycPaper'] }) {
  const [url, setUrl] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let created: string | undefined;
    let live = true;
    void (async () => {
      const result = await api.GET('/kyc/papers/{id}/file', { params: { path: { id: props.paper.id } }, parseAs: 'blob' });
      if (!live) return;
      if (!result.response.ok || !result.data) return setError(`HTTP ${result.response.status}`);
      const type = PAPER_TYPES.has(props.paper.contentType) ? props.paper.contentType : 'application/octet-stream';
      created = URL.createObjectURL(new Blob([result.data as Blob], { type }));
      setUrl(created);
    })().catch((e: unknown) => live && setError(String(e)));
    return () => {
      live = false;
      if (created) URL.revokeObjectURL(created);
    };
  }, [props.paper.id, props.paper.contentType]);
  const { paper } = props;
  return (
    <figure class="paper" data-paper={paper.kind}>
      {error ? (
        <p class="error">{error}</p>
      ) : !url ? (
        <p class="muted">{t('common.loading')}</p>
      ) : paper.contentType === 'application/pdf' ? (
        <iframe src={url} title={paper.filename} />
      ) : PAPER_TYPES.has(paper.contentType) ? (
        <img src={url} alt={paper.kind} />
      ) : null}
      <figcaption>
        {paper.kind} · {paper.filename} · {Math.round(paper.sizeBytes / 1024)} KB{' '}
        {url && (
          <a href={url} target="_blank" rel="noopener">
            {t('apps.openPaper')}
          </a>
        )}
      </figcaption>
    </figure>
  );
}
