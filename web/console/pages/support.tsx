// Support: the ticket queue (live every 10 s, overdue ones marked, by due time or newest), a ticket's thread with
// replies (typed or canned, public or internal notes; one Idempotency-Key per reply written, so pressing again after a
// timeout never sends it twice) and its moves, and the canned replies.
import { useState } from 'preact/hooks';
import { FIELD_ENUMS, unwrap, type Schemas } from '../../client';
import { lang, t, when } from '../i18n';
import { api, can, me } from '../session';
import { Action, Badge, Facts, ListPage, Loaded, Tabs, confirmDialog, errorText, go, href, openTabs, toast, useActionKeys, useLoad } from '../ui';

type Ticket = Schemas['StaffTicket'];
type Message = Schemas['StaffTicketMessage'];
type Canned = Schemas['CannedReply'];
type Move = 'start' | 'awaitUser' | 'resolve' | 'close';
const STATUSES = FIELD_ENUMS['StaffTicket.status'];
const CATEGORIES = FIELD_ENUMS['StaffTicket.category'];
const PRIORITIES = FIELD_ENUMS['StaffTicket.priority'];
const MOVES: { move: Move; label: 'sup.start' | 'sup.awaitUser' | 'sup.resolve' | 'sup.close'; path: string }[] = [
  { move: 'start', label: 'sup.start', path: '/support/admin/tickets/{id}/start' },
  { move: 'awaitUser', label: 'sup.awaitUser', path: '/support/admin/tickets/{id}/await-user' },
  { move: 'resolve', label: 'sup.resolve', path: '/support/admin/tickets/{id}/resolve' },
  { move: 'close', label: 'sup.close', path: '/support/admin/tickets/{id}/close' },
];

const TABS = [
  { id: 'tickets', label: 'sup.tickets', op: ['GET', '/support/admin/tickets'] },
  { id: 'canned', label: 'sup.canned', op: ['GET', '/support/admin/canned-replies'] },
] as const;
export const supportTabs = () => openTabs(TABS);

export function SupportPage(props: { tab?: string; id?: string }) {
  const tabs = supportTabs();
  const tab = tabs.find((x) => x.id === props.tab) ?? tabs[0];
  if (!tab) return <p class="error">{t('err.forbidden')}</p>;
  return (
    <>
      <Tabs tabs={tabs.map((x) => ({ id: x.id, label: t(x.label) }))} current={tab.id} onChange={(id) => go('support', id)} />
      {tab.id === 'tickets' && (props.id ? <TicketDetail id={props.id} /> : <Queue />)}
      {tab.id === 'canned' && <CannedReplies />}
    </>
  );
}

const overdue = (x: Ticket) => x.overdue.firstResponse || x.overdue.resolution;

const fetchTickets = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/support/admin/tickets', {
      params: {
        query: {
          limit: 25,
          ...(cursor ? { cursor } : {}),
          ...(f.status ? { status: f.status as Ticket['status'] } : {}),
          ...(f.category ? { category: f.category as Ticket['category'] } : {}),
          ...(f.priority ? { priority: f.priority as Ticket['priority'] } : {}),
          ...(f.assignee ? { assignee: f.assignee } : {}),
          ...(f.order ? { order: f.order as 'newest' | 'due' } : {}),
        },
      },
    }),
  );

function Queue() {
  return (
    <ListPage<Ticket>
      testid="page-tickets"
      title={t('sup.tickets')}
      rowKey={(x) => x.id}
      fetchPage={fetchTickets}
      onOpen={(x) => go('support', 'tickets', x.id)}
      liveEverySec={10}
      initialFilters={{ order: 'due' }}
      filters={[
        { name: 'status', label: t('common.status'), options: STATUSES },
        { name: 'category', label: t('sup.category'), options: CATEGORIES },
        { name: 'priority', label: t('sup.priority'), options: PRIORITIES },
        { name: 'assignee', label: t('sup.assignee'), placeholder: t('sup.assigneeHint') },
        { name: 'order', label: t('sup.order'), options: ['due', 'newest'] },
      ]}
      columns={[
        { label: t('common.created'), cell: (x) => when(x.createdAt) },
        { label: t('sup.subject'), cell: (x) => x.subject },
        { label: t('sup.category'), cell: (x) => x.category },
        { label: t('sup.priority'), cell: (x) => <Badge value={x.priority} /> },
        { label: t('sup.assignee'), cell: (x) => (x.assigneeId ? <code>{x.assigneeId}</code> : '—') },
        {
          label: t('sup.due'),
          cell: (x) => (overdue(x) ? <Badge value="OVERDUE" label={t('sup.overdue')} /> : when(x.firstResponseAt ? x.resolveDue : x.firstResponseDue)),
        },
        { label: t('common.status'), cell: (x) => <Badge value={x.status} /> },
      ]}
    />
  );
}

function TicketDetail(props: { id: string }) {
  const { id } = props;
  const state = useLoad(async () => {
    const [ticket, messages, canned] = await Promise.all([
      api.GET('/support/admin/tickets/{id}', { params: { path: { id } } }).then(unwrap),
      api.GET('/support/admin/tickets/{id}/messages', { params: { path: { id }, query: { limit: 100 } } }).then(unwrap),
      can('GET', '/support/admin/canned-replies')
        ? api.GET('/support/admin/canned-replies', { params: { query: { limit: 100 } } }).then(unwrap)
        : Promise.resolve({ items: [] as Canned[], nextCursor: null }),
    ]);
    return { ticket, messages: messages.items, canned: canned.items };
  }, [id]);
  const path = { params: { path: { id } } };
  const move = async (m: (typeof MOVES)[number]) => {
    const answer = await confirmDialog(t(m.label), 'optional');
    if (!answer) return;
    const call = { ...path, body: answer.reason ? { note: answer.reason } : {} };
    if (m.move === 'start') unwrap(await api.POST('/support/admin/tickets/{id}/start', call));
    else if (m.move === 'awaitUser') unwrap(await api.POST('/support/admin/tickets/{id}/await-user', call));
    else if (m.move === 'resolve') unwrap(await api.POST('/support/admin/tickets/{id}/resolve', call));
    else unwrap(await api.POST('/support/admin/tickets/{id}/close', call));
    toast(t('common.done'));
    state.reload();
  };
  return (
    <section data-testid="ticket-detail">
      <a href={href('support', 'tickets')}>← {t('common.back')}</a>
      <Loaded state={state}>
        {({ ticket: x, messages, canned }) => (
          <>
            <header class="row">
              <h2>{x.subject}</h2>
              <Badge value={x.status} />
              <Badge value={x.priority} />
              {overdue(x) ? <Badge value="OVERDUE" label={t('sup.overdue')} /> : null}
              <span class="grow" />
              {x.assigneeId !== me.get()?.id && (
                <Action
                  op={['POST', '/support/admin/tickets/{id}/assign']}
                  variant="secondary"
                  testid="assign-me"
                  run={async () => {
                    unwrap(await api.POST('/support/admin/tickets/{id}/assign', { ...path, body: { assigneeId: me.get()!.id } }));
                    toast(t('common.done'));
                    state.reload();
                  }}
                >
                  {t('sup.assignMe')}
                </Action>
              )}
              {MOVES.filter((m) => x.allowed.includes(m.move)).map((m) => (
                <Action key={m.move} op={['POST', m.path]} variant={m.move === 'close' ? 'danger' : 'secondary'} testid={`move-${m.move}`} run={() => move(m)}>
                  {t(m.label)}
                </Action>
              ))}
            </header>
            <Facts
              rows={[
                [t('sup.owner'), <a href={href('users', x.ownerId)}>{x.ownerId}</a>],
                [t('sup.category'), x.category],
                [t('sup.source'), x.source],
                [t('sup.link'), x.link ? `${x.link.type} · ${x.link.id}` : null],
                [t('sup.assignee'), x.assigneeId],
                [t('sup.firstResponse'), x.firstResponseAt ? when(x.firstResponseAt) : `${t('sup.due')} ${when(x.firstResponseDue)}`],
                [t('sup.resolution'), x.resolvedAt ? when(x.resolvedAt) : `${t('sup.due')} ${when(x.resolveDue)}`],
                [t('common.created'), when(x.createdAt)],
              ]}
            />
            <PriorityPicker ticket={x} onDone={state.reload} />
            <p class="message">{x.description}</p>
            <div class="thread" data-testid="thread">
              {messages.map((m: Message) => (
                <div key={m.id} class={`message ${m.from.toLowerCase()} ${m.internal ? 'internal' : ''}`}>
                  <small class="muted">
                    {m.from} · {m.authorId} · {when(m.createdAt)}
                    {m.internal ? ` · ${t('sup.internal')}` : ''}
                  </small>
                  <p>{m.body}</p>
                </div>
              ))}
            </div>
            {x.status !== 'CLOSED' && <Reply ticketId={x.id} canned={canned} onDone={state.reload} />}
          </>
        )}
      </Loaded>
    </section>
  );
}

function PriorityPicker(props: { ticket: Ticket; onDone: () => void }) {
  if (!can('PATCH', '/support/admin/tickets/{id}')) return null;
  return (
    <label class="row">
      {t('sup.priority')}
      <select
        name="priority"
        value={props.ticket.priority}
        onChange={async (e) => {
          const priority = e.currentTarget.value as Ticket['priority'];
          try {
            unwrap(await api.PATCH('/support/admin/tickets/{id}', { params: { path: { id: props.ticket.id } }, body: { priority } }));
            toast(t('common.done'));
          } catch (error) {
            toast(errorText(error), 'error');
          }
          props.onDone();
        }}
      >
        {PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
    </label>
  );
}

function Reply(props: { ticketId: string; canned: Canned[]; onDone: () => void }) {
  const [body, setBody] = useState('');
  const [cannedId, setCannedId] = useState('');
  const [internal, setInternal] = useState(false);
  const [awaitUser, setAwaitUser] = useState(false);
  // One key per reply as written: pressing Send again after a timeout retries it; a changed reply is a new one.
  const keys = useActionKeys();
  const chosen = props.canned.find((c) => c.id === cannedId);
  const empty = !body.trim() && !cannedId;
  return (
    <form class="card" data-testid="reply" onSubmit={(e) => e.preventDefault()}>
      {props.canned.length > 0 && (
        <label>
          {t('sup.canned')}
          <select name="canned" value={cannedId} onChange={(e) => setCannedId(e.currentTarget.value)}>
            <option value="">—</option>
            {props.canned.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </label>
      )}
      {chosen ? (
        <p class="muted">{chosen.body[lang.get()]}</p>
      ) : (
        <label>
          {t('sup.reply')}
          <textarea name="body" maxLength={4000} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
        </label>
      )}
      <label class="check">
        <input type="checkbox" name="internal" checked={internal} onChange={(e) => setInternal(e.currentTarget.checked)} />
        {t('sup.internalNote')}
      </label>
      <label class="check">
        <input type="checkbox" name="awaitUser" checked={awaitUser} disabled={internal} onChange={(e) => setAwaitUser(e.currentTarget.checked)} />
        {t('sup.askOwner')}
      </label>
      {!empty && (
        <Action
          op={['POST', '/support/admin/tickets/{id}/messages']}
          testid="send-reply"
          run={async () => {
            const content = chosen ? { cannedReplyId: chosen.id } : { body: body.trim() };
            const reply = JSON.stringify({ ...content, internal, awaitUser: awaitUser && !internal });
            unwrap(
              await api.POST('/support/admin/tickets/{id}/messages', {
                params: { path: { id: props.ticketId }, header: { 'idempotency-key': keys.keyFor(reply) } },
                body: { ...content, attachments: [], internal, awaitUser: awaitUser && !internal },
              }),
            );
            keys.settled(reply);
            setBody('');
            setCannedId('');
            toast(t('sup.sent'));
            props.onDone();
          }}
        >
          {internal ? t('sup.addNote') : t('sup.send')}
        </Action>
      )}
    </form>
  );
}

const fetchCanned = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/support/admin/canned-replies', {
      params: { query: { limit: 25, ...(cursor ? { cursor } : {}), ...(f.category ? { category: f.category as Ticket['category'] } : {}) } },
    }),
  );

function CannedReplies() {
  const [version, setVersion] = useState(0);
  return (
    <>
      <NewCannedReply onDone={() => setVersion((n) => n + 1)} />
      <ListPage<Canned>
        key={version}
        testid="page-canned"
        title={t('sup.canned')}
        rowKey={(c) => c.id}
        fetchPage={fetchCanned}
        filters={[{ name: 'category', label: t('sup.category'), options: CATEGORIES }]}
        columns={[
          { label: t('bc.title'), cell: (c) => c.title },
          { label: t('sup.category'), cell: (c) => c.category ?? '—' },
          { label: t('sup.reply'), cell: (c) => c.body[lang.get()] },
          { label: t('cms.updated'), cell: (c) => when(c.updatedAt) },
        ]}
        actions={(c, reload) => (
          <Action
            op={['DELETE', '/support/admin/canned-replies/{id}']}
            variant="danger"
            run={async () => {
              if (!(await confirmDialog(t('sup.deleteCanned', { title: c.title })))) return;
              unwrap(await api.DELETE('/support/admin/canned-replies/{id}', { params: { path: { id: c.id } } }));
              toast(t('common.done'));
              reload();
            }}
          >
            {t('sup.delete')}
          </Action>
        )}
      />
    </>
  );
}

function NewCannedReply(props: { onDone: () => void }) {
  const [title, setTitle] = useState('');
  const [vi, setVi] = useState('');
  const [en, setEn] = useState('');
  const [category, setCategory] = useState('');
  const keys = useActionKeys();
  if (!can('POST', '/support/admin/canned-replies')) return null;
  const ready = title.trim().length >= 2 && vi.trim() && en.trim();
  return (
    <form class="card" data-testid="new-canned" onSubmit={(e) => e.preventDefault()}>
      <h3>{t('sup.newCanned')}</h3>
      <label>
        {t('bc.title')}
        <input name="title" maxLength={120} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      </label>
      <label>
        {t('sup.reply')} (vi)
        <textarea name="vi" maxLength={4000} value={vi} onInput={(e) => setVi(e.currentTarget.value)} />
      </label>
      <label>
        {t('sup.reply')} (en)
        <textarea name="en" maxLength={4000} value={en} onInput={(e) => setEn(e.currentTarget.value)} />
      </label>
      <label>
        {t('sup.category')}
        <select name="category" value={category} onChange={(e) => setCategory(e.currentTarget.value)}>
          <option value="">—</option>
          {CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      {ready && (
        <Action
          op={['POST', '/support/admin/canned-replies']}
          testid="create-canned"
          run={async () => {
            const body = { title: title.trim(), body: { vi: vi.trim(), en: en.trim() }, category: category ? (category as Ticket['category']) : null };
            const draft = JSON.stringify(body);
            unwrap(await api.POST('/support/admin/canned-replies', { params: { header: { 'idempotency-key': keys.keyFor(draft) } }, body }));
            keys.settled(draft);
            setTitle('');
            setVi('');
            setEn('');
            toast(t('common.done'));
            props.onDone();
          }}
        >
          {t('common.save')}
        </Action>
      )}
    </form>
  );
}
