// Money: payments with refund (an Idempotency-Key is sent by the client; the API may hold a large refund for a
// second administrator), withdrawals to approve or reject, a user's wallet with its ledger check, the system accounts.
import { useRef, useState } from 'preact/hooks';
import { idempotencyKey, unwrap, type Schemas } from '../../client';
import { t, vnd, when } from '../i18n';
import { api, can } from '../session';
import { Action, Badge, Facts, ListPage, Loaded, Tabs, confirmDialog, go, href, toast, useLoad } from '../ui';

type Payment = Schemas['Payment'];
type Withdrawal = Schemas['Withdrawal'];
const TABS = ['payments', 'withdrawals', 'wallet', 'system'] as const;

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
          { id: 'withdrawals', label: t('money.withdrawals') },
          { id: 'wallet', label: t('money.wallet') },
          { id: 'system', label: t('money.system') },
        ]}
        current={tab}
        onChange={(id) => go('money', id)}
      />
      {tab === 'payments' && <Payments />}
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
          options: ['PENDING', 'AUTHORIZED', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED', 'REFUNDED', 'PARTIALLY_REFUNDED'],
        },
        { name: 'purpose', label: t('money.purpose'), options: ['RIDE', 'TOPUP', 'OTHER', 'ORDER', 'DELIVERY', 'BOOKING', 'RENTAL_DEPOSIT'] },
        { name: 'method', label: t('money.method'), options: ['WALLET', 'CASH', 'GATEWAY'] },
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
  const keys = useRef(new Map<string, string>());
  return (
    <Action
      op={['POST', '/payments/admin/refund']}
      variant="secondary"
      testid={`refund-${props.payment.id}`}
      run={async () => {
        const answer = await confirmDialog(`${t('money.refund')} ${vnd(props.payment.refundable)} · ${props.payment.id}`, 'required');
        if (!answer) return;
        const action = `${props.payment.id}\n${answer.reason}`;
        const key = keys.current.get(action) ?? idempotencyKey();
        keys.current.set(action, key);
        const result = unwrap(
          await api.POST('/payments/admin/refund', {
            params: { header: { 'idempotency-key': key } },
            body: { paymentId: props.payment.id, reason: answer.reason },
          }),
        );
        keys.current.delete(action);
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
        { name: 'status', label: t('common.status'), options: ['PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'] },
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
          <div class="row">
            <Action
              op={['POST', '/wallet/admin/withdrawals/{id}/approve']}
              testid={`approve-${w.id}`}
              run={async () => {
                unwrap(await api.POST('/wallet/admin/withdrawals/{id}/approve', { params: { path: { id: w.id } }, body: {} }));
                toast(t('common.done'));
                reload();
              }}
            >
              {t('money.approve')}
            </Action>
            <Action
              op={['POST', '/wallet/admin/withdrawals/{id}/reject']}
              variant="danger"
              run={async () => {
                const answer = await confirmDialog(t('money.reject'), 'required');
                if (!answer) return;
                unwrap(await api.POST('/wallet/admin/withdrawals/{id}/reject', { params: { path: { id: w.id } }, body: { reason: answer.reason } }));
                toast(t('common.done'));
                reload();
              }}
            >
              {t('money.reject')}
            </Action>
          </div>
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
