// Commerce: food and pharmacy orders (find, inspect, cancel with a reason: the consumer is refunded by the orders
// module), parcels (cancel with a reason, the history of moves), and the merchants (hide or restore, pause or resume
// taking orders).
import { FIELD_ENUMS, unwrap, type Schemas } from '../../client';
import { t, vnd, when } from '../i18n';
import { api } from '../session';
import { Action, Badge, Facts, ListPage, Loaded, Tabs, confirmDialog, go, href, openTabs, toast, useActionKeys, useLoad, type ActionKeys } from '../ui';
import { RecordsList, type RecordKind } from './records';

type Order = Schemas['Order'];
type Delivery = Schemas['Delivery'];
const ORDER_ENDED = new Set<string>(['DELIVERED', 'CANCELLED', 'REJECTED']);
const DELIVERY_ENDED = new Set<string>(['DELIVERED', 'CANCELLED', 'NO_DRIVER']);

const MERCHANTS: RecordKind<Schemas['Merchant']> = {
  base: '/merchants/admin',
  list: async (query) => unwrap(await api.GET('/merchants/admin', { params: { query } })),
  hide: async (id, reason) => unwrap(await api.POST('/merchants/admin/{id}/hide', { params: { path: { id } }, body: { reason } })),
  restore: async (id) => unwrap(await api.POST('/merchants/admin/{id}/restore', { params: { path: { id } } })),
};

const TABS = [
  { id: 'orders', label: 'com.orders', op: ['GET', '/orders/admin'] },
  { id: 'deliveries', label: 'com.deliveries', op: ['GET', '/delivery/admin/orders'] },
  { id: 'merchants', label: 'com.merchants', op: ['GET', '/merchants/admin'] },
] as const;

/** The tabs the administrator's permissions open (orders.manage, delivery.manage, catalog.manage). */
export const commerceTabs = () => openTabs(TABS);

export function CommercePage(props: { tab?: string; id?: string }) {
  const tabs = commerceTabs();
  const tab = tabs.find((x) => x.id === props.tab) ?? tabs[0];
  if (!tab) return <p class="error">{t('err.forbidden')}</p>;
  return (
    <>
      <Tabs tabs={tabs.map((x) => ({ id: x.id, label: t(x.label) }))} current={tab.id} onChange={(id) => go('commerce', id)} />
      {tab.id === 'orders' && (props.id ? <OrderDetail id={props.id} /> : <Orders />)}
      {tab.id === 'deliveries' && (props.id ? <DeliveryDetail id={props.id} /> : <Deliveries />)}
      {tab.id === 'merchants' && <Merchants />}
    </>
  );
}

const fetchOrders = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/orders/admin', {
      params: {
        query: {
          limit: 25,
          ...(cursor ? { cursor } : {}),
          ...(f.status ? { status: f.status as Order['status'] } : {}),
          ...(f.sellerKind ? { sellerKind: f.sellerKind as Order['seller']['kind'] } : {}),
          ...(f.consumerId ? { consumerId: f.consumerId } : {}),
          ...(f.partnerId ? { partnerId: f.partnerId } : {}),
        },
      },
    }),
  );

// With one key per cancellation asked: pressing again after a timeout answers the first result, not a 409.
async function cancelOrder(order: Order, keys: ActionKeys, done: () => void) {
  const answer = await confirmDialog(t('com.cancelOrder', { id: order.id }), 'required');
  if (!answer) return;
  const action = `${order.id}\n${answer.reason}`;
  unwrap(
    await api.POST('/orders/admin/{id}/cancel', {
      params: { path: { id: order.id }, header: { 'idempotency-key': keys.keyFor(action) } },
      body: { reason: answer.reason },
    }),
  );
  keys.settled(action);
  toast(t('common.done'));
  done();
}

function Orders() {
  const keys = useActionKeys();
  return (
    <ListPage<Order>
      testid="page-orders"
      title={t('com.orders')}
      rowKey={(o) => o.id}
      fetchPage={fetchOrders}
      onOpen={(o) => go('commerce', 'orders', o.id)}
      liveEverySec={15}
      filters={[
        { name: 'status', label: t('common.status'), options: FIELD_ENUMS['Order.status'] },
        { name: 'sellerKind', label: t('com.seller'), options: ['MERCHANT', 'PHARMACY'] },
        { name: 'consumerId', label: t('com.consumer') },
        { name: 'partnerId', label: t('cat.partner') },
      ]}
      columns={[
        { label: t('common.created'), cell: (o) => when(o.createdAt) },
        { label: t('com.seller'), cell: (o) => o.seller.name },
        { label: t('com.consumer'), cell: (o) => <code>{o.consumerId}</code> },
        { label: t('com.total'), cell: (o) => vnd(o.pricing.totalVnd) },
        { label: t('money.method'), cell: (o) => o.payment.method },
        { label: t('common.status'), cell: (o) => <Badge value={o.status} /> },
      ]}
      actions={(o, reload) =>
        !ORDER_ENDED.has(o.status) && (
          <Action op={['POST', '/orders/admin/{id}/cancel']} variant="danger" testid={`cancel-order-${o.id}`} run={() => cancelOrder(o, keys, reload)}>
            {t('com.cancel')}
          </Action>
        )
      }
    />
  );
}

function OrderDetail(props: { id: string }) {
  const state = useLoad(async () => unwrap(await api.GET('/orders/{id}', { params: { path: { id: props.id } } })), [props.id]);
  const keys = useActionKeys();
  return (
    <section data-testid="order-detail">
      <a href={href('commerce', 'orders')}>← {t('common.back')}</a>
      <Loaded state={state}>
        {(o) => (
          <>
            <header class="row">
              <h2>
                {o.seller.name} · <code>{o.id}</code>
              </h2>
              <Badge value={o.status} />
              <span class="grow" />
              {!ORDER_ENDED.has(o.status) && (
                <Action op={['POST', '/orders/admin/{id}/cancel']} variant="danger" testid="cancel-order" run={() => cancelOrder(o, keys, state.reload)}>
                  {t('com.cancel')}
                </Action>
              )}
            </header>
            <Facts
              rows={[
                [t('com.consumer'), <code>{o.consumerId}</code>],
                [t('cat.partner'), <code>{o.partnerId}</code>],
                [t('com.dropoff'), `${o.dropoff.address}${o.dropoff.recipientName ? ` · ${o.dropoff.recipientName}` : ''}`],
                [t('com.courier'), o.courier ? `${o.courier.name} · ${o.driverId ?? ''}` : '—'],
                [t('com.items'), vnd(o.pricing.itemsVnd)],
                [t('com.fees'), `${vnd(o.pricing.deliveryFeeVnd)} + ${vnd(o.pricing.serviceFeeVnd)}`],
                [t('com.discount'), vnd(o.pricing.discountVnd)],
                [t('com.total'), vnd(o.pricing.totalVnd)],
                [
                  t('money.method'),
                  `${o.payment.method}${o.payment.provider ? ` · ${o.payment.provider}` : ''}${o.payment.settled ? ` · ${o.payment.settled}` : ''}`,
                ],
                [t('com.note'), o.note],
                [t('common.reason'), o.cancelReason ? `${o.cancelledBy ?? ''}: ${o.cancelReason}` : null],
                [t('common.created'), when(o.createdAt)],
                [t('com.ended'), when(o.endedAt)],
              ]}
            />
            <h3>{t('com.lines')}</h3>
            <table>
              <tbody>
                {o.lines.map((line) => (
                  <tr key={line.itemKey}>
                    <td>{line.quantity} ×</td>
                    <td>
                      {line.name}
                      {line.options.length > 0 && <span class="muted"> · {line.options.flatMap((g) => g.choices.map((c) => c.name)).join(', ')}</span>}
                    </td>
                    <td>{vnd(line.lineTotalVnd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Loaded>
    </section>
  );
}

const fetchDeliveries = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/delivery/admin/orders', {
      params: { query: { limit: 25, ...(cursor ? { cursor } : {}), ...(f.status ? { status: f.status as Delivery['status'] } : {}) } },
    }),
  );

async function cancelDelivery(d: Delivery, done: () => void) {
  const answer = await confirmDialog(t('com.cancelDelivery', { id: d.id }), 'required', 3);
  if (!answer) return;
  unwrap(await api.POST('/delivery/admin/orders/{id}/cancel', { params: { path: { id: d.id } }, body: { reason: answer.reason } }));
  toast(t('common.done'));
  done();
}

function Deliveries() {
  return (
    <ListPage<Delivery>
      testid="page-deliveries"
      title={t('com.deliveries')}
      rowKey={(d) => d.id}
      fetchPage={fetchDeliveries}
      onOpen={(d) => go('commerce', 'deliveries', d.id)}
      filters={[{ name: 'status', label: t('common.status'), options: FIELD_ENUMS['Delivery.status'] }]}
      columns={[
        { label: t('common.created'), cell: (d) => when(d.createdAt) },
        { label: t('com.sender'), cell: (d) => <code>{d.senderId}</code> },
        { label: t('com.route'), cell: (d) => `${d.pickup.address} → ${d.dropoff.address}` },
        { label: t('com.fee'), cell: (d) => vnd(d.feeVnd) },
        { label: t('common.status'), cell: (d) => <Badge value={d.status} /> },
      ]}
      actions={(d, reload) =>
        !DELIVERY_ENDED.has(d.status) && (
          <Action op={['POST', '/delivery/admin/orders/{id}/cancel']} variant="danger" testid={`cancel-delivery-${d.id}`} run={() => cancelDelivery(d, reload)}>
            {t('com.cancel')}
          </Action>
        )
      }
    />
  );
}

function DeliveryDetail(props: { id: string }) {
  const state = useLoad(async () => {
    const [delivery, history] = await Promise.all([
      api.GET('/delivery/orders/{id}', { params: { path: { id: props.id } } }).then(unwrap),
      api.GET('/delivery/admin/orders/{id}/history', { params: { path: { id: props.id } } }).then(unwrap),
    ]);
    return { delivery, history: history.items };
  }, [props.id]);
  return (
    <section data-testid="delivery-detail">
      <a href={href('commerce', 'deliveries')}>← {t('common.back')}</a>
      <Loaded state={state}>
        {({ delivery: d, history }) => (
          <>
            <header class="row">
              <h2>
                <code>{d.id}</code>
              </h2>
              <Badge value={d.status} />
              <span class="grow" />
              {!DELIVERY_ENDED.has(d.status) && (
                <Action
                  op={['POST', '/delivery/admin/orders/{id}/cancel']}
                  variant="danger"
                  testid="cancel-delivery"
                  run={() => cancelDelivery(d, state.reload)}
                >
                  {t('com.cancel')}
                </Action>
              )}
            </header>
            <Facts
              rows={[
                [t('com.sender'), <code>{d.senderId}</code>],
                [t('com.courier'), d.driver ? `${d.driver.name} · ${d.driverId ?? ''}` : '—'],
                [t('com.pickup'), `${d.pickup.address} · ${d.pickup.contact.name}`],
                [t('com.dropoff'), d.dropoff.address],
                [t('com.parcel'), `${d.parcel.size} · ${d.parcel.description}`],
                [t('com.fee'), vnd(d.feeVnd)],
                [t('com.cod'), vnd(d.codAmount)],
                [t('money.method'), d.paymentMethod],
                [t('common.reason'), d.cancelReason ? `${d.cancelledBy ?? ''}: ${d.cancelReason}` : null],
              ]}
            />
            <h3>{t('com.history')}</h3>
            <table data-testid="delivery-history">
              <tbody>
                {history.map((h, i) => (
                  <tr key={i}>
                    <td>{when(h.at)}</td>
                    <td>
                      {h.from} → <Badge value={h.to} />
                    </td>
                    <td>
                      <code>{h.by}</code>
                    </td>
                    <td>{h.reason ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Loaded>
    </section>
  );
}

function Merchants() {
  return (
    <RecordsList
      kind={MERCHANTS}
      title={t('com.merchants')}
      testid="page-merchants"
      extraColumns={[{ label: t('com.taking'), cell: (m) => (m.paused ? <Badge value="PAUSED" label={t('com.paused')} /> : t('com.open')) }]}
      extraActions={(r, reload) => {
        if (r.status !== 'ACTIVE') return null;
        // A paused store takes no orders until resumed: one button, the move the store's state allows.
        const move = r.paused ? 'resume' : 'pause';
        return (
          <Action
            op={['POST', `/merchants/{id}/${move}`]}
            variant="secondary"
            testid={`${move}-${r.id}`}
            run={async () => {
              const call = { params: { path: { id: r.id } } };
              unwrap(move === 'resume' ? await api.POST('/merchants/{id}/resume', call) : await api.POST('/merchants/{id}/pause', call));
              toast(t('common.done'));
              reload();
            }}
          >
            {t(move === 'resume' ? 'com.resume' : 'com.pause')}
          </Action>
        );
      }}
    />
  );
}
