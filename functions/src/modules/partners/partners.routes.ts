import { z } from 'zod';
import type { ApiModule } from '../../platform/http/module';
import { defineRoute } from '../../platform/http/route';
import { createMailer } from '../../platform/mail/mailer';
import { ApplicationListQuerySchema, ApplicationListSchema, ApplicationSchema, DeletedSchema, IdParamsSchema } from '../kyc/kyc.schemas';
import { kycService } from '../kyc/kyc.routes';
import {
  AddStaffBodySchema,
  PartnerDecisionBodySchema,
  PartnerIdParamsSchema,
  PartnerMemberSchema,
  PartnerRegisterBodySchema,
  PartnerSchema,
  StaffParamsSchema,
} from './partners.schemas';
import { createPartnersService } from './partners.service';

export const partnersModule: ApiModule = {
  name: 'partners',
  routes({ config }) {
    const kyc = kycService(config);
    const partners = createPartnersService({ kyc, mailer: createMailer(config) });
    return [
      defineRoute({
        method: 'post',
        path: '/partners/register',
        tag: 'partners',
        summary: 'Apply as a partner business',
        description: 'Creates a PENDING partner and a SUBMITTED application; upload IDENTITY and BUSINESS_LICENCE papers with POST /kyc/papers. One open application at a time (409).',
        auth: [],
        errors: [409],
        request: { body: PartnerRegisterBodySchema },
        response: { status: 201, description: 'The application.', schema: ApplicationSchema },
        handler: ({ auth, body }) => partners.register(auth!.userId, body),
      }),
      defineRoute({
        method: 'get',
        path: '/partners/me',
        tag: 'partners',
        summary: 'Partners I own or work at',
        auth: [],
        response: { description: 'Owned (any status) and staff memberships.', schema: z.object({ partners: z.array(PartnerSchema) }) },
        handler: async ({ auth }) => ({ partners: await partners.mine(auth!.userId) }),
      }),
      defineRoute({
        method: 'get',
        path: '/partners/admin/applications',
        tag: 'partners',
        summary: 'Partner applications (newest first)',
        auth: ['ADMIN'],
        permission: 'applications.review',
        request: { query: ApplicationListQuerySchema },
        response: { description: 'A page of applications with their papers.', schema: ApplicationListSchema },
        handler: ({ query }) => kyc.list('PARTNER', query),
      }),
      defineRoute({
        method: 'get',
        path: '/partners/admin/applications/:id',
        tag: 'partners',
        summary: 'One partner application',
        auth: ['ADMIN'],
        permission: 'applications.review',
        errors: [404],
        request: { params: IdParamsSchema },
        response: { description: 'The application with its papers.', schema: ApplicationSchema },
        handler: ({ params }) => kyc.get('PARTNER', params.id),
      }),
      defineRoute({
        method: 'patch',
        path: '/partners/admin/applications/:id',
        tag: 'partners',
        summary: 'Approve, reject or send back a partner application',
        description: 'APPROVED needs every required paper (409 otherwise), activates the partner and grants PARTNER_OWNER (+ LANDLORD / DOCTOR by business type). Illegal transitions: 409.',
        auth: ['ADMIN'],
        permission: 'applications.review',
        errors: [404, 409],
        request: { params: IdParamsSchema, body: PartnerDecisionBodySchema },
        response: { description: 'The application after the decision.', schema: ApplicationSchema },
        handler: ({ params, body, auth }) => partners.decide(params.id, body, auth!.userId),
      }),
      defineRoute({
        method: 'get',
        path: '/partners/:partnerId/staff',
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
        tag: 'partners',
        summary: 'Remove a staff member (PARTNER_STAFF is withdrawn when no partner is left)',
        auth: ['PARTNER_OWNER'],
        errors: [404, 409],
        request: { params: StaffParamsSchema },
        response: { description: 'Removed.', schema: DeletedSchema },
        handler: ({ params, auth }) => partners.removeStaff(params.partnerId, auth!.userId, params.userId),
      }),
    ];
  },
};
