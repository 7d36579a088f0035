import { z } from 'zod';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { DeletedSchema } from '../../platform/core/http/ids';
import { ApplicationSchema, applicationReviewRoutes, kycServiceFor } from '../kyc';
import {
  AddStaffBodySchema,
  PartnerDecisionBodySchema,
  PartnerIdParamsSchema,
  PartnerMemberSchema,
  PartnerRegisterBodySchema,
  PartnerSchema,
  StaffParamsSchema,
} from './partners.schemas';
import { partnersServiceFor } from './partners.wiring';

export function partnersRoutes({ config }: AppContext): AnyRoute[] {
  const kyc = kycServiceFor(config);
  const partners = partnersServiceFor(config);
  return [
    defineRoute({
      method: 'post',
      path: '/partners/register',
      operationId: 'registerPartner',
      tag: 'partners',
      summary: 'Apply as a partner business',
      description:
        'Creates a PENDING partner and a SUBMITTED application; upload IDENTITY and BUSINESS_LICENCE papers with POST /kyc/papers. One open application at a time (409).',
      auth: [],
      errors: [409],
      request: { body: PartnerRegisterBodySchema },
      response: { status: 201, description: 'The application.', schema: ApplicationSchema },
      handler: ({ auth, body }) => partners.register(auth!.userId, body),
    }),
    defineRoute({
      method: 'get',
      path: '/partners/me',
      operationId: 'listMyPartners',
      tag: 'partners',
      summary: 'Partners I own or work at',
      auth: [],
      response: { description: 'Owned (any status) and staff memberships.', schema: z.object({ partners: z.array(PartnerSchema) }) },
      handler: async ({ auth }) => ({ partners: await partners.mine(auth!.userId) }),
    }),
    ...applicationReviewRoutes({
      kind: 'PARTNER',
      tag: 'partners',
      basePath: '/partners/admin/applications',
      kyc,
      decisionBody: PartnerDecisionBodySchema,
      decisionDescription:
        'APPROVED needs every required paper (409 otherwise), activates the partner and grants PARTNER_OWNER (+ LANDLORD / DOCTOR by business type). REJECTED and NEEDS_INFO need a reason. Illegal transitions: 409.',
      decide: (id, body, adminId) => partners.decide(id, body, adminId),
    }),
    defineRoute({
      method: 'get',
      path: '/partners/:partnerId/staff',
      operationId: 'listPartnerStaff',
      tag: 'partners',
      summary: 'Members of my partner',
      auth: ['PARTNER_OWNER'],
      errors: [404, 409],
      request: { params: PartnerIdParamsSchema },
      response: { description: 'Owner and staff.', schema: z.object({ members: z.array(PartnerMemberSchema) }) },
      handler: async ({ params, auth }) => ({ members: await partners.staff(params.partnerId, auth!.userId) }),
    }),
    defineRoute({
      method: 'post',
      path: '/partners/:partnerId/staff',
      operationId: 'invitePartnerStaff',
      tag: 'partners',
      summary: 'Invite staff by email (grants PARTNER_STAFF scoped to this partner)',
      auth: ['PARTNER_OWNER'],
      errors: [404, 409],
      request: { params: PartnerIdParamsSchema, body: AddStaffBodySchema },
      response: { status: 201, description: 'The new member.', schema: PartnerMemberSchema },
      handler: ({ params, body, auth }) => partners.addStaff(params.partnerId, auth!.userId, body.email),
    }),
    defineRoute({
      method: 'delete',
      path: '/partners/:partnerId/staff/:userId',
      operationId: 'removePartnerStaff',
      tag: 'partners',
      summary: 'Remove a staff member (PARTNER_STAFF is withdrawn when no partner is left)',
      auth: ['PARTNER_OWNER'],
      errors: [404, 409],
      request: { params: StaffParamsSchema },
      response: { description: 'Removed.', schema: DeletedSchema },
      handler: ({ params, auth }) => partners.removeStaff(params.partnerId, auth!.userId, params.userId),
    }),
  ];
}
