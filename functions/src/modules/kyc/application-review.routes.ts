import type { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import type { ApiTag } from '../../platform/core/openapi/tags';
import type { ApplicationKind } from './applications.model';
import { IdParamsSchema } from '../../platform/core/http/ids';
import { ApplicationListQuerySchema, ApplicationListSchema, ApplicationSchema } from './kyc.schemas';
import type { KycService } from './kyc.service';

// The administrators' review routes of one application kind: list, read, decide.
export function applicationReviewRoutes<TDecision>(opts: {
  kind: ApplicationKind;
  tag: ApiTag;
  basePath: string;
  kyc: KycService;
  decisionBody: z.ZodType<TDecision>;
  decisionDescription: string;
  decide(id: string, decision: TDecision, adminId: string): Promise<unknown>;
}): AnyRoute[] {
  const label = opts.kind === 'DRIVER' ? 'driver' : 'partner';
  const Kind = opts.kind === 'DRIVER' ? 'Driver' : 'Partner';
  const admin = { tag: opts.tag, auth: ['ADMIN' as const], permission: 'applications.review' as const };
  return [
    defineRoute({
      ...admin,
      method: 'get',
      path: opts.basePath,
      operationId: `adminList${Kind}Applications`,
      summary: `${label[0].toUpperCase()}${label.slice(1)} applications (newest first)`,
      request: { query: ApplicationListQuerySchema },
      response: { description: 'A page of applications with their papers.', schema: ApplicationListSchema },
      handler: ({ query, auth }) => opts.kyc.list(opts.kind, query, auth!.userId),
    }),
    defineRoute({
      ...admin,
      method: 'get',
      path: `${opts.basePath}/:id`,
      operationId: `adminGet${Kind}Application`,
      summary: `One ${label} application`,
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The application with its papers.', schema: ApplicationSchema },
      handler: ({ params }) => opts.kyc.get(opts.kind, params.id),
    }),
    defineRoute({
      ...admin,
      method: 'patch',
      path: `${opts.basePath}/:id`,
      operationId: `adminDecide${Kind}Application`,
      summary: `Approve, reject or send back a ${label} application`,
      description: opts.decisionDescription,
      errors: [404, 409],
      codes: ['APPLICATION_TRANSITION', 'PAPERS_INCOMPLETE'],
      request: { params: IdParamsSchema, body: opts.decisionBody },
      response: { description: 'The application after the decision.', schema: ApplicationSchema },
      handler: ({ params, body, auth }) => opts.decide(params.id, body, auth!.userId) as Promise<z.output<typeof ApplicationSchema>>,
    }),
  ];
}
