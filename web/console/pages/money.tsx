// Money: payments with refund (an Idempotency-Key is sent by the client; the API may hold a large refund for a
// second administrator), withdrawals to approve or reject, a user's wallet with its ledger check, the system accounts.
import { useState } from 'preact/hooks';
import { FIELD_ENUMS, unwrap, type Schemas } from '../../client';
import { t, vnd, when } from '../i18n';
import { api, can } from '../session';
import { Action, Badge, Decision, Facts, ListPage, Loaded, Tabs, confirmDialog, go, href, toast, useActionKeys, useLoad } from '../ui';

type Payment = Schemas['Payment'];
type Withdrawal = Schemas['Withdrawal'];
type StaffRefund = Schemas['StaffRefund'];
type Adjustment = Schemas['WalletAdjustmentRecord'];
const TABS = ['payments', 'approvals', 'adjustments', 'withdrawals', 'wallet', 'system'] as const;

const fetchPayments = async (cursor: string | undefined, f: Record<string, string>) => {
  const query = {
    limit: 25,
    ...(cursor ? { cursor } : {}),
    ...(f.status ? { status: f.status as Payment['status'] } : {}),
    ...(f.purpose ? { purpose: f.purpose as Payment['purpose'] } : {}),
    ...(f.method ? { method: f.method as Payment['method'] } : {}),
    ...(f.payerId ? { payerId: f.payerId } : {}),
  };
  return unwrap(await api.GET('/payments/admin', { params: { query } }));
};
const fetchWithdrawals = async (cursor: string | undefined, f: Record<string, string>) => {
  const query = {
    limit: 25,
    ...(cursor ? { cursor } : {}),
    ...(f.status ? { status: f.status as Withdrawal['status'] } : {}),
    ...(f.userId ? { userId: f.userId } : {}),
  };
  return unwrap(await api.GET('/wallet/admin/withdrawals', { params: { query } }));
};

export function MoneyPage(props: { tab?: string; id?: string }) {
  const tab = TABS.includes(props.tab as (typeof TABS)[number]) ? (props.tab as (typeof TABS)[number]) : 'payments';
  return (
    <>
      <Tabs
        tabs={[
          { id: 'payments', label: t('money.payments') },
          { id: 'approvals', label: t('money.approvals') },
          { id: 'adjustments', label: t('money.adjustments') },
          { id: 'withdrawals', label: t('money.withdrawals') },
          { id: 'wallet', label: t('money.wallet') },
          { id: 'system', label: t('money.system') },
        ]}
        current={tab}
        onChange={(id) => go('money', id)}
      />
      {tab === 'payments' && <Payments />}
      {tab === 'approvals' && <StaffRefunds />}
      {tab === 'adjustments' && <Adjustments />}
      {tab === 'withdrawals' && <Withdrawals />}
      {tab === 'wallet' && <WalletCheck userId={props.id} />}
      {tab === 'system' && <SystemAccounts />}
    </>
  );
}

function Payments() {
  return (
    <ListPage<Payment>
      testid="page-payments"
      title={t('money.payments')}
      rowKey={(p) => p.id}
      fetchPage={fetchPayments}
      filters={[
        {
          name: 'status',
          label: t('common.status'),
          options: FIELD_ENUMS['Payment.status'],
        },
        { name: 'purpose', label: t('money.purpose'), options: FIELD_ENUMS['Payment.purpose'] },
        { name: 'method', label: t('money.method'), options: FIELD_ENUMS['Payment.method'] },
        { name: 'payerId', label: t('money.userId') },
      ]}
      columns={[
        { label: 'Id', cell: (p) => <code>{p.id}</code> },
        { label: t('money.amount'), cell: (p) => vnd(p.amount) },
        { label: t('money.purpose'), cell: (p) => `${p.purpose} · ${p.method}${p.provider ? ` · ${p.provider}` : ''}` },
        { label: t('common.status'), cell: (p) => <Badge value={p.status} /> },
        { label: t('money.payer'), cell: (p) => <a href={href('money', 'wallet', p.payerId)}>{p.payerId}</a> },
        { label: t('common.created'), cell: (p) => when(p.createdAt) },
      ]}
      actions={(p, reload) => p.refundable > 0 && <RefundButton payment={p} onDone={reload} />}
    />
  );
}

function RefundButton(props: { payment: Payment; onDone: () => void }) {
  // One key per refund asked (payment and reason): pressing again after a timeout or an error retries that refund,
  // never a second one; a success forgets it.
  const keys = useActionKeys();
  return (
    <Action
      op={['POST', '/payments/admin/refund']}
      variant="secondary"
      testid={`refund-${props.payment.id}`}
      run={async () => {
        const answer = await confirmDialog(`${t('money.refund')} ${vnd(props.payment.refundable)} · ${props.payment.id}`, 'required');
        if (!answer) return;
        const action = `${props.payment.id}\n${answer.reason}`;
        const key = keys.keyFor(action);
        const result = unwrap(
          await api.POST('/payments/admin/refund', {
            params: { header: { 'idempotency-key': key } },
            body: { paymentId: props.payment.id, reason: answer.reason },
          }),
        );
        keys.settled(action);
        toast(t('money.refunded', { status: result.status }));
        props.onDone();
      }}
    >
      {t('money.refund')}
    </Action>
  );
}

function Withdrawals() {
  return (
    <ListPage<Withdrawal>
      testid="page-withdrawals"
      title={t('money.withdrawals')}
      rowKey={(w) => w.id}
      fetchPage={fetchWithdrawals}
      initialFilters={{ status: 'PENDING' }}
      liveEverySec={15}
      filters={[
        { name: 'status', label: t('common.status'), options: FIELD_ENUMS['Withdrawal.status'] },
        { name: 'userId', label: t('money.userId') },
      ]}
      columns={[
        { label: t('money.userId'), cell: (w) => <a href={href('money', 'wallet', w.userId)}>{w.userId}</a> },
        { label: t('money.amount'), cell: (w) => vnd(w.amount) },
        { label: t('money.bank'), cell: (w) => `${w.bankAccount.bankCode} ${w.bankAccount.accountNumber}` },
        { label: t('common.status'), cell: (w) => <Badge value={w.status} /> },
        { label: t('common.created'), cell: (w) => when(w.createdAt) },
      ]}
      actions={(w, reload) =>
        w.status === 'PENDING' && (
          <Decision
            approveOp={['POST', '/wallet/admin/withdrawals/{id}/approve']}
            approve={async () => unwrap(await api.POST('/wallet/admin/withdrawals/{id}/approve', { params: { path: { id: w.id } }, body: {} }))}
            rejectOp={['POST', '/wallet/admin/withdrawals/{id}/reject']}
            reject={async (reason) => unwrap(await api.POST('/wallet/admin/withdrawals/{id}/reject', { params: { path: { id: w.id } }, body: { reason } }))}
            onDone={reload}
            approveTestid={`approve-${w.id}`}
          />
        )
      }
    />
  );
}

function WalletCheck(props: { userId?: string }) {
  const [draft, setDraft] = useState(props.userId ?? '');
  const userId = props.userId;
  const wallet = useLoad(async () => (userId ? unwrap(await api.GET('/wallet/admin/users/{userId}', { params: { path: { userId } } })) : null), [userId]);
  const [check, setCheck] = useState<Schemas['LedgerCheck'] | undefined>();
  return (
    <section data-testid="page-wallet">
      <form
        class="filters row"
        onSubmit={(e) => {
          e.preventDefault();
          setCheck(undefined);
          if (draft.trim()) go('money', 'wallet', draft.trim());
        }}
      >
        <label>
          {t('money.userId')}
          <input name="userId" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        </label>
        <button type="submit">{t('common.search')}</button>
      </form>
      {userId && (
        <Loaded state={wallet}>
          {(w) =>
            w && (
              <div class="card">
                <Facts
                  rows={[
                    [t('money.userId'), <a href={href('users', w.userId)}>{w.userId}</a>],
                    [t('money.balance'), <span data-testid="wallet-balance">{vnd(w.balance)}</span>],
                    [t('money.held'), vnd(w.held)],
                  ]}
                />
                <div class="row">
                  <button type="button" class="secondary" onClick={wallet.reload}>
                    {t('common.refresh')}
                  </button>
                  {can('GET', '/wallet/admin/users/{userId}/check') && (
                    <Action
                      op={['GET', '/wallet/admin/users/{userId}/check']}
                      variant="secondary"
                      run={async () => setCheck(unwrap(await api.GET('/wallet/admin/users/{userId}/check', { params: { path: { userId: w.userId } } })))}
                    >
                      {t('money.check')}
                    </Action>
                  )}
                </div>
                {check && (
                  <p class={check.ok ? 'ok' : 'error'} data-testid="ledger-check">
                    {check.ok ? t('money.balanced') : t('money.unbalanced')}
                  </p>
                )}
              </div>
            )
          }
        </Loaded>
      )}
    </section>
  );
}

function SystemAccounts() {
  const state = useLoad(async () => unwrap(await api.GET('/wallet/admin/system-accounts')), []);
  return (
    <section data-testid="page-system-accounts">
      <h2>{t('money.system')}</h2>
      <Loaded state={state}>{(data) => <Facts rows={data.accounts.map((a) => [a.accountId, vnd(a.balance)] as [string, string])} />}</Loaded>
    </section>
  );
}

const fetchStaffRefunds = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/payments/admin/staff-refunds', {
      params: { query: { limit: 25, ...(cursor ? { cursor } : {}), ...(f.status ? { status: f.status as StaffRefund['status'] } : {}) } },
    }),
  );

/** Refunds held for a second administrator (four eyes): approve (the refund posts then) or reject. */
function StaffRefunds() {
  return (
    <ListPage<StaffRefund>
      testid="page-staff-refunds"
      title={t('money.approvals')}
      rowKey={(r) => r.id}
      fetchPage={fetchStaffRefunds}
      initialFilters={{ status: 'PENDING' }}
      filters={[{ name: 'status', label: t('common.status'), options: FIELD_ENUMS['StaffRefund.status'] }]}
      liveEverySec={15}
      columns={[
        { label: t('money.payments'), cell: (r) => <code>{r.paymentId}</code> },
        { label: t('money.amount'), cell: (r) => vnd(r.amount) },
        { label: t('common.reason'), cell: (r) => `${r.reason}${r.causes.length ? ` (${r.causes.join(', ')})` : ''}` },
        { label: t('money.requestedBy'), cell: (r) => <code>{r.requestedBy}</code> },
        { label: t('common.status'), cell: (r) => <Badge value={r.status} /> },
      ]}
      actions={(r, reload) =>
        r.status === 'PENDING' && (
          <Decision
            approveOp={['POST', '/payments/admin/staff-refunds/{id}/approve']}
            approve={async () => unwrap(await api.POST('/payments/admin/staff-refunds/{id}/approve', { params: { path: { id: r.id } }, body: {} }))}
            rejectOp={['POST', '/payments/admin/staff-refunds/{id}/reject']}
            reject={async (reason) => unwrap(await api.POST('/payments/admin/staff-refunds/{id}/reject', { params: { path: { id: r.id } }, body: { reason } }))}
            onDone={reload}
            approveTestid={`approve-refund-${r.id}`}
          />
        )
      }
    />
  );
}

const fetchAdjustments = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/wallet/admin/adjustments', {
      params: { query: { limit: 25, ...(cursor ? { cursor } : {}), ...(f.status ? { status: f.status as Adjustment['status'] } : {}) } },
    }),
  );

/** Credits and debits by staff: small ones apply at once, larger ones wait for a second administrator. */
function Adjustments() {
  const [form, setForm] = useState({ userId: '', amount: '', direction: 'CREDIT' as Adjustment['direction'], reason: '' });
  const [version, setVersion] = useState(0);
  // One key per adjustment asked: pressing again after a timeout retries it, never a second one.
  const keys = useActionKeys();
  const set = (field: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [field]: e.currentTarget.value });
  return (
    <>
      <form class="card" onSubmit={(e) => e.preventDefault()}>
        <h3>{t('money.newAdjustment')}</h3>
        <div class="row">
          <label>
            {t('money.userId')}
            <input name="userId" value={form.userId} onInput={set('userId')} />
          </label>
          <label>
            {t('money.amount')}
            <input name="amount" inputMode="numeric" value={form.amount} onInput={set('amount')} />
          </label>
          <label>
            {t('money.direction')}
            <select name="direction" value={form.direction} onChange={set('direction')}>
              <option value="CREDIT">CREDIT</option>
              <option value="DEBIT">DEBIT</option>
            </select>
          </label>
        </div>
        <label>
          {t('common.reason')}
          <input name="reason" maxLength={300} value={form.reason} onInput={set('reason')} />
        </label>
        <Action
          op={['POST', '/wallet/admin/adjustments']}
          testid="create-adjustment"
          run={async () => {
            const body = { userId: form.userId.trim(), amount: Number(form.amount), direction: form.direction, reason: form.reason.trim() };
            if (!body.userId || !Number.isSafeInteger(body.amount) || body.amount < 1 || body.reason.length < 3)
              return toast(t('err.generic', { code: 'VALIDATION_FAILED' }), 'error');
            const action = JSON.stringify(body);
            const made = unwrap(await api.POST('/wallet/admin/adjustments', { params: { header: { 'idempotency-key': keys.keyFor(action) } }, body }));
            keys.settled(action);
            toast(`${t('common.done')} ${made.status}`);
            setForm({ userId: '', amount: '', direction: 'CREDIT', reason: '' });
            setVersion((v) => v + 1);
          }}
        >
          {t('common.save')}
        </Action>
      </form>
      <ListPage<Adjustment>
        key={version}
        testid="page-adjustments"
        title={t('money.adjustments')}
        rowKey={(a) => a.id}
        fetchPage={fetchAdjustments}
        filters={[{ name: 'status', label: t('common.status'), options: FIELD_ENUMS['WalletAdjustmentRecord.status'] }]}
        columns={[
          { label: t('money.userId'), cell: (a) => <a href={href('money', 'wallet', a.userId)}>{a.userId}</a> },
          { label: t('money.amount'), cell: (a) => `${a.direction === 'DEBIT' ? '−' : '+'}${vnd(a.amount)}` },
          { label: t('common.reason'), cell: (a) => a.reason },
          { label: t('money.requestedBy'), cell: (a) => <code>{a.requestedBy}</code> },
          { label: t('common.status'), cell: (a) => <Badge value={a.status} /> },
          { label: t('common.created'), cell: (a) => when(a.createdAt) },
        ]}
        actions={(a, reload) =>
          a.status === 'PENDING' && (
            <Decision
              approveOp={['POST', '/wallet/admin/adjustments/{id}/approve']}
              approve={async () => unwrap(await api.POST('/wallet/admin/adjustments/{id}/approve', { params: { path: { id: a.id } }, body: {} }))}
              rejectOp={['POST', '/wallet/admin/adjustments/{id}/reject']}
              reject={async (reason) => unwrap(await api.POST('/wallet/admin/adjustments/{id}/reject', { params: { path: { id: a.id } }, body: { reason } }))}
              onDone={reload}
            />
          )
        }
      />
    </>
  );
}
