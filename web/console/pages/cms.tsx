// CMS: the home screens' banners and sections and the help pages (each a draft beside what is live: publish,
// unpublish, archive, restore, and roll back to a published version), each app's config (versions, feature flags,
// maintenance: edited at the revision read, so a newer edit is never overwritten, then published), and the audit.
import { useState } from 'preact/hooks';
import { ENUMS, FIELD_ENUMS, unwrap, type Schemas } from '../../client';
import { lang, t, when } from '../i18n';
import { api, can } from '../session';
import { Action, Badge, Facts, ListPage, Loaded, Tabs, confirmDialog, go, href, toast, useLoad } from '../ui';

type Surface = Schemas['CmsSurface'];
type Status = Schemas['CmsBannerRecord']['status'];
type Text = { vi: string; en: string };
/** A published version as the versions lists give it (its content aside). */
type Version = Omit<Schemas['CmsBannerVersion'], 'content'>;
/** A banner, a section or a page as the admin operations give it. */
type Content = Schemas['CmsBannerRecord'] | Schemas['CmsSectionRecord'] | Schemas['CmsPageRecord'];
const surfaceOf = (r: Content): Surface | undefined => ('surface' in r.draft ? r.draft.surface : undefined);
type Query = { limit: number; cursor?: string; status?: Status; surface?: Surface };
type Path = { params: { path: { id: string } } };
const SURFACES = ENUMS.CmsSurface;
const STATUSES = FIELD_ENUMS['CmsBannerRecord.status'];
const local = (text: Text | null | undefined) => (text ? text[lang.get()] || text.vi : '—');

// Each kind's operations, typed by the client (the page kind has no surface filter).
const KINDS = {
  banners: {
    base: '/cms/admin/banners',
    list: async (query: Query) => unwrap(await api.GET('/cms/admin/banners', { params: { query } })),
    get: async (id: string) => unwrap(await api.GET('/cms/admin/banners/{id}', idPath(id))),
    versions: async (id: string) => unwrap(await api.GET('/cms/admin/banners/{id}/versions', { params: { path: { id }, query: { limit: 50 } } })),
    publish: async (id: string, revision: number) => unwrap(await api.POST('/cms/admin/banners/{id}/publish', { ...idPath(id), body: { revision } })),
    unpublish: async (id: string) => unwrap(await api.POST('/cms/admin/banners/{id}/unpublish', { ...idPath(id), body: {} })),
    archive: async (id: string) => unwrap(await api.DELETE('/cms/admin/banners/{id}', idPath(id))),
    restore: async (id: string) => unwrap(await api.POST('/cms/admin/banners/{id}/restore', idPath(id))),
    rollback: async (id: string, version: number, revision: number) =>
      unwrap(await api.POST('/cms/admin/banners/{id}/rollback', { ...idPath(id), body: { version, revision } })),
  },
  sections: {
    base: '/cms/admin/sections',
    list: async (query: Query) => unwrap(await api.GET('/cms/admin/sections', { params: { query } })),
    get: async (id: string) => unwrap(await api.GET('/cms/admin/sections/{id}', idPath(id))),
    versions: async (id: string) => unwrap(await api.GET('/cms/admin/sections/{id}/versions', { params: { path: { id }, query: { limit: 50 } } })),
    publish: async (id: string, revision: number) => unwrap(await api.POST('/cms/admin/sections/{id}/publish', { ...idPath(id), body: { revision } })),
    unpublish: async (id: string) => unwrap(await api.POST('/cms/admin/sections/{id}/unpublish', { ...idPath(id), body: {} })),
    archive: async (id: string) => unwrap(await api.DELETE('/cms/admin/sections/{id}', idPath(id))),
    restore: async (id: string) => unwrap(await api.POST('/cms/admin/sections/{id}/restore', idPath(id))),
    rollback: async (id: string, version: number, revision: number) =>
      unwrap(await api.POST('/cms/admin/sections/{id}/rollback', { ...idPath(id), body: { version, revision } })),
  },
  pages: {
    base: '/cms/admin/pages',
    list: async ({ surface: _surface, ...query }: Query) => unwrap(await api.GET('/cms/admin/pages', { params: { query } })),
    get: async (id: string) => unwrap(await api.GET('/cms/admin/pages/{id}', idPath(id))),
    versions: async (id: string) => unwrap(await api.GET('/cms/admin/pages/{id}/versions', { params: { path: { id }, query: { limit: 50 } } })),
    publish: async (id: string, revision: number) => unwrap(await api.POST('/cms/admin/pages/{id}/publish', { ...idPath(id), body: { revision } })),
    unpublish: async (id: string) => unwrap(await api.POST('/cms/admin/pages/{id}/unpublish', { ...idPath(id), body: {} })),
    archive: async (id: string) => unwrap(await api.DELETE('/cms/admin/pages/{id}', idPath(id))),
    restore: async (id: string) => unwrap(await api.POST('/cms/admin/pages/{id}/restore', idPath(id))),
    rollback: async (id: string, version: number, revision: number) =>
      unwrap(await api.POST('/cms/admin/pages/{id}/rollback', { ...idPath(id), body: { version, revision } })),
  },
};
function idPath(id: string): Path {
  return { params: { path: { id } } };
}
type Kind = keyof typeof KINDS;
const KIND_IDS = Object.keys(KINDS) as Kind[];
const LABELS = { banners: 'cms.banners', sections: 'cms.sections', pages: 'cms.pages', config: 'cms.config', audit: 'cms.audit' } as const;
type TabId = keyof typeof LABELS;

/** The tabs the administrator's permissions open (all cms.manage today; each asked for itself). */
export const cmsTabs = (): TabId[] => [
  ...KIND_IDS.filter((k) => can('GET', KINDS[k].base)),
  ...(can('GET', '/cms/admin/config/{surface}') ? (['config'] as const) : []),
  ...(can('GET', '/cms/admin/audit') ? (['audit'] as const) : []),
];

export function CmsPage(props: { tab?: string; id?: string }) {
  const tabs = cmsTabs();
  const tab = tabs.includes(props.tab as TabId) ? (props.tab as TabId) : tabs[0];
  if (!tab) return <p class="error">{t('err.forbidden')}</p>;
  return (
    <>
      <Tabs tabs={tabs.map((id) => ({ id, label: t(LABELS[id]) }))} current={tab} onChange={(id) => go('cms', id)} />
      {tab === 'config' ? (
        <AppConfig surface={SURFACES.includes(props.id as Surface) ? (props.id as Surface) : 'CON'} />
      ) : tab === 'audit' ? (
        <Audit />
      ) : props.id ? (
        <ContentDetail kind={tab} id={props.id} />
      ) : (
        <ContentList key={tab} kind={tab} />
      )}
    </>
  );
}

/** The moves of a record (its `allowed` list decides which are shown). */
function Moves(props: { kind: Kind; record: Content; onDone: () => void }) {
  const { kind, record: r } = props;
  const spec = KINDS[kind];
  // `ask`: a question answered before the move (cancelled: nothing is sent).
  const run = (work: () => Promise<unknown>, ask?: string) => async () => {
    if (ask && !(await confirmDialog(ask))) return;
    await work();
    toast(t('common.done'));
    props.onDone();
  };
  return (
    <div class="row">
      {r.allowed.includes('publish') && (
        <Action
          op={['POST', `${spec.base}/{id}/publish`]}
          testid={`publish-${r.id}`}
          // The draft at the revision shown: a newer edit by someone else is refused (409), not published unseen.
          run={run(() => spec.publish(r.id, r.revision), t('cms.publishAsk', { title: local(r.draft.title), revision: r.revision }))}
        >
          {t('cms.publish')}
        </Action>
      )}
      {r.allowed.includes('unpublish') && (
        <Action op={['POST', `${spec.base}/{id}/unpublish`]} variant="secondary" testid={`unpublish-${r.id}`} run={run(() => spec.unpublish(r.id))}>
          {t('cms.unpublish')}
        </Action>
      )}
      {r.allowed.includes('archive') && (
        <Action op={['DELETE', `${spec.base}/{id}`]} variant="danger" run={run(() => spec.archive(r.id), t('cms.archiveAsk', { title: local(r.draft.title) }))}>
          {t('cms.archive')}
        </Action>
      )}
      {r.allowed.includes('restore') && (
        <Action op={['POST', `${spec.base}/{id}/restore`]} variant="secondary" run={run(() => spec.restore(r.id))}>
          {t('cat.restore')}
        </Action>
      )}
    </div>
  );
}

function ContentList(props: { kind: Kind }) {
  const { kind } = props;
  const fetchPage = async (cursor: string | undefined, f: Record<string, string>) =>
    (await KINDS[kind].list({
      limit: 25,
      ...(cursor ? { cursor } : {}),
      ...(f.status ? { status: f.status as Status } : {}),
      ...(f.surface ? { surface: f.surface as Surface } : {}),
    })) as { items: Content[]; nextCursor: string | null }; // the kind's own record type, one of the three
  return (
    <ListPage<Content>
      testid={`page-cms-${kind}`}
      title={t(LABELS[kind])}
      rowKey={(r) => r.id}
      fetchPage={fetchPage}
      onOpen={(r) => go('cms', kind, r.id)}
      filters={[
        { name: 'status', label: t('common.status'), options: STATUSES },
        ...(kind === 'pages' ? [] : [{ name: 'surface', label: t('bc.surfaces'), options: SURFACES }]),
      ]}
      columns={[
        { label: t('bc.title'), cell: (r) => local(r.draft.title) },
        ...(kind === 'pages' ? [] : [{ label: t('bc.surfaces'), cell: (r: Content) => surfaceOf(r) ?? '—' }]),
        { label: t('cms.live'), cell: (r) => (r.liveVersion === null ? '—' : `v${r.liveVersion}`) },
        { label: t('cms.draft'), cell: (r) => (r.liveRevision === r.revision ? t('cms.same') : t('cms.changed', { revision: r.revision })) },
        { label: t('cms.updated'), cell: (r) => `${when(r.updatedAt)} · ${r.updatedBy}` },
        { label: t('common.status'), cell: (r) => <Badge value={r.status} /> },
      ]}
      actions={(r, reload) => <Moves kind={kind} record={r} onDone={reload} />}
    />
  );
}

function ContentDetail(props: { kind: Kind; id: string }) {
  const { kind, id } = props;
  const spec = KINDS[kind];
  const state = useLoad(async () => {
    const [record, versions] = await Promise.all([KINDS[kind].get(id), KINDS[kind].versions(id)]);
    return {
      record: record as Content,
      versions: versions.items,
    };
  }, [kind, id]);
  return (
    <section data-testid="cms-detail">
      <a href={href('cms', kind)}>← {t('common.back')}</a>
      <Loaded state={state}>
        {({ record: r, versions }) => (
          <>
            <header class="row">
              <h2>{local(r.draft.title)}</h2>
              <Badge value={r.status} />
              <span class="grow" />
              <Moves kind={kind} record={r} onDone={state.reload} />
            </header>
            <Facts
              rows={[
                ['Id', <code>{r.id}</code>],
                [t('cms.live'), r.liveVersion === null ? '—' : `v${r.liveVersion} (${t('cms.revision')} ${r.liveRevision ?? '—'}) · ${when(r.publishedAt)}`],
                [t('cms.draft'), `${t('cms.revision')} ${r.revision} · ${when(r.updatedAt)} · ${r.updatedBy}`],
              ]}
            />
            <div class="columns">
              <div>
                <h3>{t('cms.draft')}</h3>
                <pre class="content">{JSON.stringify(r.draft, null, 2)}</pre>
              </div>
              <div>
                <h3>{t('cms.live')}</h3>
                <pre class="content">{r.live ? JSON.stringify(r.live, null, 2) : '—'}</pre>
              </div>
            </div>
            <Versions
              versions={versions}
              liveVersion={r.liveVersion}
              canRollBack={r.allowed.includes('rollback')}
              op={['POST', `${spec.base}/{id}/rollback`]}
              rollBack={(version) => spec.rollback(r.id, version, r.revision)}
              onDone={state.reload}
            />
          </>
        )}
      </Loaded>
    </section>
  );
}

/** The published versions, each but the live one offered to roll back to (at the draft's revision shown). */
function Versions(props: {
  versions: Version[];
  liveVersion: number | null;
  canRollBack: boolean;
  op: [method: string, path: string];
  rollBack: (version: number) => Promise<unknown>;
  onDone: () => void;
}) {
  return (
    <>
      <h3>{t('cms.versions')}</h3>
      <table data-testid="cms-versions">
        <tbody>
          {props.versions.map((v) => (
            <tr key={v.version}>
              <td>v{v.version}</td>
              <td>{when(v.at)}</td>
              <td>
                <code>{v.by}</code>
              </td>
              <td>{v.rollbackOf ? t('cms.rollbackOf', { version: v.rollbackOf }) : (v.note ?? '')}</td>
              <td>
                {props.canRollBack && v.version !== props.liveVersion && (
                  <Action
                    op={props.op}
                    variant="secondary"
                    testid={`rollback-${v.version}`}
                    run={async () => {
                      if (!(await confirmDialog(t('cms.rollbackAsk', { version: v.version })))) return;
                      await props.rollBack(v.version);
                      toast(t('common.done'));
                      props.onDone();
                    }}
                  >
                    {t('cms.rollback')}
                  </Action>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

const loadConfig = async (surface: Surface) => unwrap(await api.GET('/cms/admin/config/{surface}', { params: { path: { surface } } }));
type ConfigRecord = Awaited<ReturnType<typeof loadConfig>>;

function AppConfig(props: { surface: Surface }) {
  const { surface } = props;
  const state = useLoad(async () => {
    const [record, versions] = await Promise.all([
      loadConfig(surface),
      api.GET('/cms/admin/config/{surface}/versions', { params: { path: { surface }, query: { limit: 20 } } }).then(unwrap),
    ]);
    return { record, versions: versions.items };
  }, [surface]);
  return (
    <section data-testid="cms-config">
      <Tabs tabs={SURFACES.map((s) => ({ id: s, label: s }))} current={surface} onChange={(s) => go('cms', 'config', s)} />
      <Loaded state={state}>
        {({ record, versions }) => (
          <ConfigEditor key={`${record.id}:${record.revision}`} record={record} versions={versions} surface={surface} onDone={state.reload} />
        )}
      </Loaded>
    </section>
  );
}

function ConfigEditor(props: { record: ConfigRecord; versions: Version[]; surface: Surface; onDone: () => void }) {
  const { record: r, surface } = props;
  const [minVersion, setMinVersion] = useState(r.draft.minVersion);
  const [latestVersion, setLatestVersion] = useState(r.draft.latestVersion);
  const [maintenance, setMaintenance] = useState(r.draft.maintenance.active);
  const [messageVi, setMessageVi] = useState(r.draft.maintenance.message?.vi ?? '');
  const [messageEn, setMessageEn] = useState(r.draft.maintenance.message?.en ?? '');
  const [flags, setFlags] = useState<Record<string, boolean>>(r.draft.flags);
  const live = r.live as ConfigRecord['draft'] | null;
  // Publish sends the saved draft: while the form holds unsaved edits, it is not offered (it would not publish them).
  const dirty =
    minVersion !== r.draft.minVersion ||
    latestVersion !== r.draft.latestVersion ||
    maintenance !== r.draft.maintenance.active ||
    messageVi !== (r.draft.maintenance.message?.vi ?? '') ||
    messageEn !== (r.draft.maintenance.message?.en ?? '') ||
    JSON.stringify(flags) !== JSON.stringify(r.draft.flags);
  const path = { params: { path: { surface } } };
  const save = async () => {
    const message = messageVi.trim() || messageEn.trim() ? { vi: messageVi.trim() || messageEn.trim(), en: messageEn.trim() || messageVi.trim() } : null;
    // At the revision this form was filled from: another administrator's newer edit is refused (409), not overwritten.
    unwrap(
      await api.PATCH('/cms/admin/config/{surface}', {
        ...path,
        body: { revision: r.revision, minVersion, latestVersion, flags, maintenance: { active: maintenance, message, until: r.draft.maintenance.until } },
      }),
    );
    toast(t('common.done'));
    props.onDone();
  };
  return (
    <>
      <Facts
        rows={[
          [t('cms.live'), r.liveVersion === null ? '—' : `v${r.liveVersion} · ${when(r.publishedAt)}`],
          [t('cms.draft'), `${t('cms.revision')} ${r.revision} · ${when(r.updatedAt)} · ${r.updatedBy}`],
          [t('cms.liveMaintenance'), live ? (live.maintenance.active ? t('cms.on') : t('cms.off')) : '—'],
        ]}
      />
      <form
        class="card form"
        data-testid="config-form"
        data-revision={r.revision}
        onSubmit={(e) => {
          e.preventDefault();
        }}
      >
        <label>
          {t('cms.minVersion')}
          <input name="minVersion" value={minVersion} onInput={(e) => setMinVersion(e.currentTarget.value)} />
        </label>
        <label>
          {t('cms.latestVersion')}
          <input name="latestVersion" value={latestVersion} onInput={(e) => setLatestVersion(e.currentTarget.value)} />
        </label>
        <label class="check">
          <input type="checkbox" name="maintenance" checked={maintenance} onChange={(e) => setMaintenance(e.currentTarget.checked)} />
          {t('cms.maintenance')}
        </label>
        <label>
          {t('cms.message')} (vi)
          <input name="messageVi" value={messageVi} onInput={(e) => setMessageVi(e.currentTarget.value)} />
        </label>
        <label>
          {t('cms.message')} (en)
          <input name="messageEn" value={messageEn} onInput={(e) => setMessageEn(e.currentTarget.value)} />
        </label>
        {Object.keys(flags).length > 0 && (
          <fieldset>
            <legend>{t('cms.flags')}</legend>
            {Object.entries(flags).map(([name, on]) => (
              <label class="check" key={name}>
                <input type="checkbox" checked={on} onChange={(e) => setFlags({ ...flags, [name]: e.currentTarget.checked })} />
                <code>{name}</code>
              </label>
            ))}
          </fieldset>
        )}
        <div class="row">
          <Action op={['PATCH', '/cms/admin/config/{surface}']} variant="secondary" testid="config-save" run={save}>
            {t('common.save')}
          </Action>
          {dirty ? <span class="muted">{t('cms.saveFirst')}</span> : null}
          {r.allowed.includes('publish') && !dirty && (
            <Action
              op={['POST', '/cms/admin/config/{surface}/publish']}
              testid="config-publish"
              run={async () => {
                if (!(await confirmDialog(t('cms.publishAsk', { title: surface, revision: r.revision })))) return;
                unwrap(await api.POST('/cms/admin/config/{surface}/publish', { ...path, body: { revision: r.revision } }));
                toast(t('common.done'));
                props.onDone();
              }}
            >
              {t('cms.publish')}
            </Action>
          )}
        </div>
      </form>
      <Versions
        versions={props.versions}
        liveVersion={r.liveVersion}
        canRollBack={r.allowed.includes('rollback')}
        op={['POST', '/cms/admin/config/{surface}/rollback']}
        rollBack={async (version) => unwrap(await api.POST('/cms/admin/config/{surface}/rollback', { ...path, body: { version, revision: r.revision } }))}
        onDone={props.onDone}
      />
    </>
  );
}

const fetchAudit = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/cms/admin/audit', {
      params: {
        query: {
          limit: 25,
          ...(cursor ? { cursor } : {}),
          ...(f.kind ? { kind: f.kind as Schemas['CmsAuditEntry']['kind'] } : {}),
          ...(f.entityId ? { entityId: f.entityId } : {}),
          ...(f.by ? { by: f.by } : {}),
        },
      },
    }),
  );

function Audit() {
  return (
    <ListPage<Schemas['CmsAuditEntry']>
      testid="page-cms-audit"
      title={t('cms.audit')}
      rowKey={(a) => a.id}
      fetchPage={fetchAudit}
      filters={[
        { name: 'kind', label: t('cms.kind'), options: ['banner', 'section', 'page', 'appConfig'] },
        { name: 'entityId', label: 'Id' },
        { name: 'by', label: t('cms.by') },
      ]}
      columns={[
        { label: t('cms.at'), cell: (a) => when(a.at) },
        { label: t('cms.kind'), cell: (a) => `${a.kind} · ${a.entityId}` },
        { label: t('cms.action'), cell: (a) => <Badge value={a.action} /> },
        { label: t('cms.by'), cell: (a) => <code>{a.by}</code> },
        { label: t('cms.version'), cell: (a) => (a.version === null ? `r${a.revision}` : `v${a.version} · r${a.revision}`) },
        { label: t('com.note'), cell: (a) => a.note ?? '' },
      ]}
    />
  );
}
