// Moderation: the reports of chat messages, reviews and social posts and comments, each queue live (new reports
// appear without a reload), resolved from the row.
import { FIELD_ENUMS, unwrap, type Schemas } from '../../client';
import { t, when } from '../i18n';
import { api } from '../session';
import { Action, Badge, ListPage, Tabs, confirmDialog, go, toast } from '../ui';

type ChatReport = Schemas['ChatReport'];
type ReviewReport = Schemas['ReviewReport'];
type SocialReport = Schemas['SocialReport'];
const TABS = ['chat', 'reviews', 'social'] as const;
type Tab = (typeof TABS)[number];

const page = (cursor: string | undefined, f: Record<string, string>) => ({
  limit: 25,
  ...(cursor ? { cursor } : {}),
  ...(f.status ? { status: f.status } : {}),
});
const fetchChat = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(await api.GET('/chat/admin/reports', { params: { query: page(cursor, f) as { limit: number; cursor?: string; status?: ChatReport['status'] } } }));
const fetchReviews = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(
    await api.GET('/reviews/admin/reports', { params: { query: page(cursor, f) as { limit: number; cursor?: string; status?: ReviewReport['status'] } } }),
  );
const fetchSocial = async (cursor: string | undefined, f: Record<string, string>) =>
  unwrap(await api.GET('/social/admin/reports', { params: { query: page(cursor, f) as { limit: number; cursor?: string; status?: SocialReport['status'] } } }));

export function ModerationPage(props: { tab?: string }) {
  const tab: Tab = TABS.includes(props.tab as Tab) ? (props.tab as Tab) : 'chat';
  return (
    <>
      <Tabs
        tabs={[
          { id: 'chat', label: t('mod.chat') },
          { id: 'reviews', label: t('mod.reviews') },
          { id: 'social', label: t('mod.social') },
        ]}
        current={tab}
        onChange={(id) => go('moderation', id)}
      />
      {tab === 'chat' && <ChatReports />}
      {tab === 'reviews' && <ReviewReports />}
      {tab === 'social' && <SocialReports />}
    </>
  );
}

function ChatReports() {
  const resolve = (report: ChatReport, status: 'DISMISSED' | 'ACTIONED', reload: () => void) => async () => {
    unwrap(await api.PATCH('/chat/admin/reports/{id}', { params: { path: { id: report.id } }, body: { status } }));
    toast(t('common.done'));
    reload();
  };
  return (
    <ListPage<ChatReport>
      testid="page-chat-reports"
      title={t('mod.chat')}
      rowKey={(r) => r.id}
      fetchPage={fetchChat}
      initialFilters={{ status: 'OPEN' }}
      filters={[{ name: 'status', label: t('common.status'), options: FIELD_ENUMS['ChatReport.status'] }]}
      liveEverySec={10}
      columns={[
        { label: t('mod.reason'), cell: (r) => `${r.reason}${r.note ? ` · ${r.note}` : ''}` },
        { label: t('mod.excerpt'), cell: (r) => <q>{r.excerpt}</q> },
        { label: t('mod.author'), cell: (r) => <code>{r.senderId}</code> },
        { label: t('common.status'), cell: (r) => <Badge value={r.status} /> },
        { label: t('common.created'), cell: (r) => when(r.createdAt) },
      ]}
      actions={(r, reload) =>
        r.status === 'OPEN' && (
          <div class="row">
            <Action op={['PATCH', '/chat/admin/reports/{id}']} variant="danger" testid={`action-${r.id}`} run={resolve(r, 'ACTIONED', reload)}>
              {t('mod.action')}
            </Action>
            <Action op={['PATCH', '/chat/admin/reports/{id}']} variant="secondary" testid={`dismiss-${r.id}`} run={resolve(r, 'DISMISSED', reload)}>
              {t('mod.dismiss')}
            </Action>
          </div>
        )
      }
    />
  );
}

function ReviewReports() {
  const resolve = (report: ReviewReport, action: 'HIDE_REVIEW' | 'DISMISS', reload: () => void) => async () => {
    unwrap(await api.POST('/reviews/admin/reports/{id}/resolve', { params: { path: { id: report.id } }, body: { action } }));
    toast(t('common.done'));
    reload();
  };
  return (
    <ListPage<ReviewReport>
      testid="page-review-reports"
      title={t('mod.reviews')}
      rowKey={(r) => r.id}
      fetchPage={fetchReviews}
      initialFilters={{ status: 'OPEN' }}
      filters={[{ name: 'status', label: t('common.status'), options: FIELD_ENUMS['ReviewReport.status'] }]}
      liveEverySec={10}
      columns={[
        { label: t('mod.reason'), cell: (r) => `${r.reason}${r.note ? ` · ${r.note}` : ''}` },
        { label: t('mod.excerpt'), cell: (r) => (r.review ? <q>{`${'★'.repeat(r.review.stars)} ${r.review.text ?? ''}`}</q> : '—') },
        { label: t('mod.author'), cell: (r) => r.review?.author.name ?? '—' },
        { label: t('common.status'), cell: (r) => <Badge value={r.resolution ?? r.status} /> },
        { label: t('common.created'), cell: (r) => when(r.createdAt) },
      ]}
      actions={(r, reload) =>
        r.status === 'OPEN' && (
          <div class="row">
            <Action op={['POST', '/reviews/admin/reports/{id}/resolve']} variant="danger" run={resolve(r, 'HIDE_REVIEW', reload)}>
              {t('mod.hide')}
            </Action>
            <Action op={['POST', '/reviews/admin/reports/{id}/resolve']} variant="secondary" run={resolve(r, 'DISMISS', reload)}>
              {t('mod.dismiss')}
            </Action>
          </div>
        )
      }
    />
  );
}

function SocialReports() {
  const resolve = (report: SocialReport, action: 'HIDE' | 'DISMISS', reload: () => void) => async () => {
    const answer = await confirmDialog(`${action === 'HIDE' ? t('mod.hide') : t('mod.dismiss')}: ${report.excerpt.slice(0, 80)}`, 'optional');
    if (!answer) return;
    unwrap(
      await api.POST('/social/admin/reports/{id}/resolve', {
        params: { path: { id: report.id } },
        body: { action, ...(answer.reason ? { note: answer.reason } : {}) },
      }),
    );
    toast(t('common.done'));
    reload();
  };
  return (
    <ListPage<SocialReport>
      testid="page-social-reports"
      title={t('mod.social')}
      rowKey={(r) => r.id}
      fetchPage={fetchSocial}
      initialFilters={{ status: 'OPEN' }}
      filters={[{ name: 'status', label: t('common.status'), options: FIELD_ENUMS['SocialReport.status'] }]}
      liveEverySec={10}
      columns={[
        { label: t('mod.reason'), cell: (r) => `${r.targetType} · ${r.reason}${r.note ? ` · ${r.note}` : ''}` },
        { label: t('mod.excerpt'), cell: (r) => <q>{r.excerpt}</q> },
        { label: t('mod.author'), cell: (r) => <code>{r.authorId}</code> },
        { label: t('common.status'), cell: (r) => <Badge value={r.status} /> },
        { label: t('common.created'), cell: (r) => when(r.createdAt) },
      ]}
      actions={(r, reload) =>
        r.status === 'OPEN' && (
          <div class="row">
            <Action op={['POST', '/social/admin/reports/{id}/resolve']} variant="danger" run={resolve(r, 'HIDE', reload)}>
              {t('mod.hide')}
            </Action>
            <Action op={['POST', '/social/admin/reports/{id}/resolve']} variant="secondary" run={resolve(r, 'DISMISS', reload)}>
              {t('mod.dismiss')}
            </Action>
          </div>
        )
      }
    />
  );
}
