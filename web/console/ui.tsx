// The console's building blocks: one list page, one detail layout, buttons that exist only for those allowed to
// press them, a confirm dialog with an optional reason, toasts, and a hash router.
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, idempotencyKey } from '../client';
import { t } from './i18n';
import { can } from './session';
import { signal, useSignal } from './state';

// ---- routing: #/users/abc → ['users', 'abc'] ----
const parseHash = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
export const route = signal<string[]>(parseHash());
addEventListener('hashchange', () => route.set(parseHash()));
export const go = (...parts: string[]) => {
  location.hash = `#/${parts.map(encodeURIComponent).join('/')}`;
};
export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;

// ---- toasts ----
interface Toast {
  id: number;
  text: string;
  kind: 'ok' | 'error';
}
const toasts = signal<Toast[]>([]);
let toastSeq = 0;
export function toast(text: string, kind: Toast['kind'] = 'ok'): void {
  const item = { id: ++toastSeq, text, kind };
  toasts.set([...toasts.get(), item]);
  setTimeout(() => toasts.set(toasts.get().filter((x) => x.id !== item.id)), kind === 'error' ? 8000 : 4000);
}
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'PERMISSION_REQUIRED' || error.code === 'ROLE_REQUIRED') return t('err.forbidden');
    return `${error.message} (${error.code})`;
  }
  return t('err.generic', { code: error instanceof Error ? error.message : String(error) });
}
export function Toasts() {
  const list = useSignal(toasts);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {list.map((x) => (
        <div key={x.id} class={`toast ${x.kind}`} data-testid={`toast-${x.kind}`}>
          {x.text}
        </div>
      ))}
    </div>
  );
}

// ---- confirm dialog ----
interface Ask {
  id: number;
  message: string;
  reason: 'none' | 'optional' | 'required';
  minLength: number;
  resolve: (answer: { reason: string } | null) => void;
}
const asking = signal<Ask | null>(null);
let askSeq = 0;
/** Asks before an action; a required reason has at least `minLength` characters (the API's own minimum). */
export function confirmDialog(message: string, reason: Ask['reason'] = 'none', minLength = 1): Promise<{ reason: string } | null> {
  // A question still open is answered "cancel" (its button would otherwise wait forever).
  asking.get()?.resolve(null);
  return new Promise((resolve) => asking.set({ id: ++askSeq, message, reason, minLength, resolve }));
}
export function Dialogs() {
  const ask = useSignal(asking);
  if (!ask) return null;
  // A new form per question: its reason starts empty at once (reset by an effect, text typed before it ran was lost).
  return <AskForm key={ask.id} ask={ask} />;
}

function AskForm(props: { ask: Ask }) {
  const { ask } = props;
  const [reason, setReason] = useState('');
  const close = (answer: { reason: string } | null) => {
    asking.set(null);
    ask.resolve(answer);
  };
  const blocked = ask.reason === 'required' && reason.trim().length < ask.minLength;
  return (
    <div class="backdrop">
      <form
        class="dialog"
        role="dialog"
        aria-modal="true"
        onSubmit={(e) => {
          e.preventDefault();
          if (!blocked) close({ reason: reason.trim() });
        }}
      >
        <p>{ask.message}</p>
        {ask.reason !== 'none' && (
          <label>
            {t('common.reason')}
            <textarea name="reason" maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} required={ask.reason === 'required'} />
          </label>
        )}
        <div class="row end">
          <button type="button" class="secondary" onClick={() => close(null)}>
            {t('common.cancel')}
          </button>
          <button type="submit" disabled={blocked} data-testid="confirm">
            {t('common.confirm')}
          </button>
        </div>
      </form>
    </div>
  );
}

// ---- an action button: shown only when the permissions allow the operation; runs once at a time ----
export function Action(props: {
  op: [method: string, path: string];
  run: () => Promise<unknown>;
  children: ComponentChildren;
  variant?: 'primary' | 'secondary' | 'danger';
  testid?: string;
  done?: string;
}) {
  const [busy, setBusy] = useState(false);
  if (!can(...props.op)) return null;
  return (
    <button
      type="button"
      class={props.variant ?? 'primary'}
      disabled={busy}
      data-testid={props.testid}
      onClick={async () => {
        setBusy(true);
        try {
          await props.run();
          if (props.done) toast(props.done);
        } catch (error) {
          toast(errorText(error), 'error');
        } finally {
          setBusy(false);
        }
      }}
    >
      {props.children}
    </button>
  );
}

/**
 * One Idempotency-Key per action as asked (what it targets and the answers given, as one string): pressing again after
 * a timeout retries that same action, a different answer is a new one; `settled` forgets it once the action succeeded.
 */
export function useActionKeys() {
  const keys = useRef(new Map<string, string>());
  return useMemo(
    () => ({
      keyFor(action: string): string {
        const key = keys.current.get(action) ?? idempotencyKey();
        keys.current.set(action, key);
        return key;
      },
      settled(action: string): void {
        keys.current.delete(action);
      },
    }),
    [],
  );
}
export type ActionKeys = ReturnType<typeof useActionKeys>;

/** The tabs of an area the administrator's permissions open (each names the operation its page calls first). */
export const openTabs = <T extends { op: readonly [method: string, path: string] }>(tabs: readonly T[]): T[] => tabs.filter((tab) => can(tab.op[0], tab.op[1]));

/** The approve / reject pair of a request waiting for a decision: a rejection asks for its reason. */
export function Decision(props: {
  approveOp: [method: string, path: string];
  approve: () => Promise<unknown>;
  rejectOp: [method: string, path: string];
  reject: (reason: string) => Promise<unknown>;
  onDone: () => void;
  approveTestid?: string;
}) {
  const finish = () => {
    toast(t('common.done'));
    props.onDone();
  };
  return (
    <div class="row">
      <Action
        op={props.approveOp}
        testid={props.approveTestid}
        run={async () => {
          await props.approve();
          finish();
        }}
      >
        {t('money.approve')}
      </Action>
      <Action
        op={props.rejectOp}
        variant="danger"
        run={async () => {
          const answer = await confirmDialog(t('money.reject'), 'required');
          if (!answer) return;
          await props.reject(answer.reason);
          finish();
        }}
      >
        {t('money.reject')}
      </Action>
    </div>
  );
}

// ---- loading data ----
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: unknown; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  const [tick, setTick] = useState(0);
  const loaded = useRef<unknown[]>(deps);
  useEffect(() => {
    let live = true;
    // Another record's data is never shown while this one loads; a reload of the same one keeps it meanwhile.
    const same = loaded.current.length === deps.length && loaded.current.every((d, i) => Object.is(d, deps[i]));
    loaded.current = deps;
    if (!same) setState({});
    load().then(
      (data) => live && setState({ data }),
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
    // The caller names what its load depends on (checked at each call: `useLoad` is one of the linted hooks).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return { data: state.data, error: state.error, reload: useCallback(() => setTick((n) => n + 1), []) };
}

export function Loaded<T>(props: { state: { data: T | undefined; error: unknown }; children: (data: T) => ComponentChildren }) {
  if (props.state.error) return <p class="error">{errorText(props.state.error)}</p>;
  if (props.state.data === undefined) return <p class="muted">{t('common.loading')}</p>;
  return <>{props.children(props.state.data)}</>;
}

// ---- the list page: filters, search, cursor paging, optional live refresh of the first page ----
export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
}
export interface Filter {
  name: string;
  label: string;
  options?: readonly string[];
  placeholder?: string;
}
export interface Page<T> {
  items: T[];
  nextCursor?: string | null;
}

/**
 * A list operation as a page. `initialFilters` are read when the page mounts: give the page a `key` that changes
 * with anything that should start it afresh (a tab, a kind).
 */
export function ListPage<T>(props: {
  title: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  fetchPage: (cursor: string | undefined, filters: Record<string, string>) => Promise<Page<T>>;
  filters?: Filter[];
  initialFilters?: Record<string, string>;
  onOpen?: (row: T) => void;
  /** Seconds between refreshes of the first page (new rows are marked), while the tab is visible. */
  liveEverySec?: number;
  testid?: string;
  actions?: (row: T, reload: () => void) => ComponentChildren;
}) {
  const [filters, setFilters] = useState<Record<string, string>>(props.initialFilters ?? {});
  const [draft, setDraft] = useState<Record<string, string>>(props.initialFilters ?? {});
  const [rows, setRows] = useState<T[] | undefined>();
  const [cursor, setCursor] = useState<string | null | undefined>();
  const [error, setError] = useState<unknown>();
  const [fresh, setFresh] = useState<Set<string>>(new Set());
  // Pages shown beyond the first: a live refresh of the first page would drop them, so it waits meanwhile.
  const [morePages, setMorePages] = useState(0);
  const generation = useRef(0);
  const known = useRef<Set<string>>(new Set());
  const loading = useRef(false);
  // The latest props, read at call time: a page may pass new function objects on every render.
  const latest = useRef(props);
  latest.current = props;

  const loadFirst = useCallback(
    async (markNew: boolean) => {
      const mine = ++generation.current;
      loading.current = true;
      try {
        const page = await latest.current.fetchPage(undefined, filters);
        if (mine !== generation.current) return;
        const keys = page.items.map(latest.current.rowKey);
        if (markNew) setFresh(new Set(keys.filter((k) => !known.current.has(k))));
        else setFresh(new Set());
        known.current = new Set(keys);
        setMorePages(0);
        setRows(page.items);
        setCursor(page.nextCursor ?? null);
        setError(undefined);
      } catch (e) {
        if (mine === generation.current) setError(e);
      } finally {
        if (mine === generation.current) loading.current = false;
      }
    },
    [filters],
  );

  useEffect(() => {
    setRows(undefined);
    setCursor(undefined);
    setMorePages(0);
    void loadFirst(false);
  }, [loadFirst]);

  // Live: only while the first page alone is shown.
  useEffect(() => {
    if (!props.liveEverySec || morePages > 0) return;
    const timer = setInterval(() => {
      // A slow answer is waited for rather than replaced by the next tick's.
      if (document.visibilityState === 'visible' && !loading.current) void loadFirst(true);
    }, props.liveEverySec * 1000);
    return () => clearInterval(timer);
  }, [props.liveEverySec, loadFirst, morePages]);

  const more = async () => {
    if (!cursor || loading.current) return;
    const mine = generation.current;
    loading.current = true;
    try {
      const page = await props.fetchPage(cursor, filters);
      if (mine !== generation.current) return;
      setRows((shown) => [...(shown ?? []), ...page.items]);
      setMorePages((n) => n + 1);
      setCursor(page.nextCursor ?? null);
    } catch (e) {
      if (mine === generation.current) toast(errorText(e), 'error');
    } finally {
      if (mine === generation.current) loading.current = false;
    }
  };
  const reload = () => void loadFirst(false);

  return (
    <section data-testid={props.testid}>
      <header class="row">
        <h2>{props.title}</h2>
        {props.liveEverySec ? <span class="badge live">{t('common.live')}</span> : null}
        <button type="button" class="secondary" onClick={reload}>
          {t('common.refresh')}
        </button>
      </header>
      {props.filters && props.filters.length > 0 && (
        <form
          class="filters row"
          onSubmit={(e) => {
            e.preventDefault();
            setFilters({ ...draft });
          }}
        >
          {props.filters.map((f) =>
            f.options ? (
              <label key={f.name}>
                {f.label}
                <select name={f.name} value={draft[f.name] ?? ''} onChange={(e) => setDraft({ ...draft, [f.name]: e.currentTarget.value })}>
                  <option value="">{t('common.all')}</option>
                  {f.options.map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <label key={f.name}>
                {f.label}
                <input
                  name={f.name}
                  value={draft[f.name] ?? ''}
                  placeholder={f.placeholder}
                  onInput={(e) => setDraft({ ...draft, [f.name]: e.currentTarget.value })}
                />
              </label>
            ),
          )}
          <button type="submit">{t('common.search')}</button>
        </form>
      )}
      {error ? <p class="error">{errorText(error)}</p> : null}
      {rows === undefined && !error ? <p class="muted">{t('common.loading')}</p> : null}
      {rows !== undefined && rows.length === 0 ? (
        <p class="muted" data-testid="list-empty">
          {t('common.empty')}
        </p>
      ) : null}
      {rows !== undefined && rows.length > 0 && (
        <table>
          <thead>
            <tr>
              {props.columns.map((c) => (
                <th key={c.label}>{c.label}</th>
              ))}
              {props.actions ? <th /> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const key = props.rowKey(row);
              return (
                <tr
                  key={key}
                  data-row={key}
                  class={`${props.onOpen ? 'clickable' : ''} ${fresh.has(key) ? 'fresh' : ''}`}
                  onClick={props.onOpen ? () => props.onOpen!(row) : undefined}
                >
                  {props.columns.map((c) => (
                    <td key={c.label}>{c.cell(row)}</td>
                  ))}
                  {props.actions ? <td onClick={(e) => e.stopPropagation()}>{props.actions(row, reload)}</td> : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {cursor ? (
        <button type="button" class="secondary" onClick={more} data-testid="load-more">
          {t('common.loadMore')}
        </button>
      ) : null}
    </section>
  );
}

// ---- small pieces ----
/** A status as a coloured pill: `value` is the API's status (it names the colour), `label` what is shown. */
export function Badge(props: { value: string | null | undefined; label?: string }) {
  return <span class={`badge s-${(props.value ?? '').toLowerCase()}`}>{props.label ?? props.value ?? '—'}</span>;
}

export function Tabs(props: { tabs: { id: string; label: string }[]; current: string; onChange: (id: string) => void }) {
  return (
    <nav class="tabs" role="tablist">
      {props.tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={tab.id === props.current}
          class={tab.id === props.current ? 'tab on' : 'tab'}
          onClick={() => props.onChange(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </nav>
  );
}

export function Facts(props: { rows: [label: string, value: ComponentChildren][] }) {
  return (
    <dl class="facts">
      {props.rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A tiny line chart of a series of numbers (no chart library: a polyline). */
export function Sparkline(props: { values: number[]; label: string }) {
  const { values } = props;
  if (values.length < 2) return null;
  const max = Math.max(...values);
  const min = Math.min(...values);
  const span = max - min || 1;
  const points = values.map((v, i) => `${(i / (values.length - 1)) * 100},${28 - ((v - min) / span) * 26}`).join(' ');
  return (
    <svg class="spark" viewBox="0 0 100 30" role="img" aria-label={props.label} preserveAspectRatio="none">
      <polyline points={points} fill="none" stroke="currentColor" stroke-width="1.5" vector-effect="non-scaling-stroke" />
    </svg>
  );
}
