import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { SOCIAL_RATE_LIMITS } from './social.model';
import { HIDDEN_TEXT as hidden, SOCIAL_COMMON as common, type SocialServices } from './social.services';
import { ModerationResultSchema, ReportBodySchema, ReportedSchema, ReportPageSchema, ReportQueueQuerySchema, ResolveBodySchema } from './social.schemas';

// Reports of posts and comments, and the moderators' queue, hide and restore.
export function socialModerationRoutes({ moderation }: Pick<SocialServices, 'moderation'>): AnyRoute[] {
  const moderator = { tag: 'social' as const, auth: ['ADMIN'] as const, permission: 'moderation' as const };
  const target = (type: 'POST' | 'COMMENT', id: string) => ({ type, id });
  return [
    ...(['POST', 'COMMENT'] as const).map((type) => {
      const noun = type === 'POST' ? 'post' : 'comment';
      return defineRoute({
        ...common,
        method: 'post',
        path: `/social/${noun}s/:id/report`,
        operationId: `reportSocial${type === 'POST' ? 'Post' : 'Comment'}`,
        summary: `Report a ${noun} to the moderators`,
        description: `One report per person and ${noun}: a repeat answers 200 with the first.${type === 'POST' ? ` ${hidden}` : ''}`,
        rateLimit: SOCIAL_RATE_LIMITS.report,
        errors: [404],
        codes: ['SOCIAL_OWN_CONTENT'],
        request: { params: IdParamsSchema, body: ReportBodySchema },
        response: { status: 201, description: 'Reported (201), or reported before (200).', schema: ReportedSchema },
        handler: async ({ auth, params, body, status }) => {
          if (!(await moderation.report(auth!, target(type, params.id), body)).created) status(200);
          return { reported: true as const };
        },
      });
    }),
    defineRoute({
      ...moderator,
      method: 'get',
      path: '/social/admin/reports',
      operationId: 'adminListSocialReports',
      summary: 'Reported posts and comments (moderation queue), oldest first',
      request: { query: ReportQueueQuerySchema },
      response: { description: 'A page of reports, each with the text as it was reported.', schema: ReportPageSchema },
      handler: ({ auth, query }) => moderation.queue(auth!, query),
    }),
    defineRoute({
      ...moderator,
      method: 'post',
      path: '/social/admin/reports/:id/resolve',
      operationId: 'adminResolveSocialReport',
      summary: 'Resolve a report: hide what it reports, or dismiss it',
      description:
        'HIDE hides the post or comment (a post leaves every feed and stays visible to its author alone) and closes every open report of it; DISMISS closes this report. Again with the same action: nothing changes (`resolved: 0`); with the other: 409 SOCIAL_REPORT_RESOLVED.',
      errors: [404],
      codes: ['SOCIAL_REPORT_RESOLVED'],
      request: { params: IdParamsSchema, body: ResolveBodySchema },
      response: { description: 'The target’s status and how many reports closed.', schema: ModerationResultSchema },
      handler: ({ auth, params, body }) => moderation.resolve(auth!, params.id, body.action, body.note),
    }),
    ...(['POST', 'COMMENT'] as const).flatMap((type) =>
      (['hide', 'restore'] as const).map((action) => {
        const noun = type === 'POST' ? 'post' : 'comment';
        return defineRoute({
          ...moderator,
          method: 'post',
          path: `/social/admin/${noun}s/:id/${action}`,
          operationId: `admin${action === 'hide' ? 'Hide' : 'Restore'}Social${type === 'POST' ? 'Post' : 'Comment'}`,
          summary: action === 'hide' ? `Hide a ${noun} for everyone` : `Restore a hidden ${noun}`,
          description:
            action === 'hide'
              ? `Hiding closes its open reports (HIDE). ${type === 'POST' ? 'It leaves every feed within seconds; its author still sees it. ' : 'Its thread leaves the post’s comment count. '}Hiding a hidden one changes nothing.`
              : `${type === 'POST' ? 'It returns to its followers’ feeds within seconds. ' : ''}Restoring an active one changes nothing.`,
          errors: [404],
          request: { params: IdParamsSchema },
          response: { description: 'Its status now.', schema: ModerationResultSchema },
          handler: ({ auth, params }) => moderation.moderate(auth!, target(type, params.id), action),
        });
      }),
    ),
  ];
}
