import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { requestLocale } from '../../platform/kits/i18n';
import { AcceptLanguageHeadersSchema } from '../../platform/kits/i18n/i18n.schemas';
import { AUTH_RATE_LIMITS } from '../auth';
import { applicationReviewRoutes, kycServiceFor } from '../kyc';
import {
  DriverDecisionBodySchema,
  DriverLocationAckSchema,
  DriverLocationBodySchema,
  DriverProfileSchema,
  DriverRegisterBodySchema,
  DriverRegisterResponseSchema,
  DriverStatusBodySchema,
} from './driver.schemas';
import { dispatchServiceFor, driverServiceFor } from './driver.wiring';

export function driverRoutes({ config }: AppContext): AnyRoute[] {
  const kyc = kycServiceFor(config);
  const drivers = driverServiceFor(config);
  const dispatch = () => dispatchServiceFor(config);
  return [
    defineRoute({
      method: 'post',
      path: '/driver/register',
      operationId: 'registerDriver',
      tag: 'driver',
      summary: 'Register as a driver (no user auth)',
      description:
        'Mails a sign-in code to the email (creating the account when the email has none). Nothing is attached to an existing account until its mailbox owner signs in with that code (POST /auth/email/otp/verify, purpose LOGIN): the SUBMITTED driver application opens then (GET /kyc/applications), or the open one is kept. The same answer for a new and an existing email; within the resend gap nothing is sent.',
      auth: 'public',
      rateLimit: AUTH_RATE_LIMITS.register,
      request: { body: DriverRegisterBodySchema, headers: AcceptLanguageHeadersSchema },
      response: { description: 'A code is on its way (same answer for every email).', schema: DriverRegisterResponseSchema },
      handler: ({ body, headers }) => drivers.register(body, requestLocale(headers, config.DEFAULT_LOCALE)),
    }),
    ...applicationReviewRoutes({
      kind: 'DRIVER',
      tag: 'driver',
      basePath: '/driver/admin/applications',
      kyc,
      decisionBody: DriverDecisionBodySchema,
      decisionDescription:
        'APPROVED needs every required paper (409 otherwise) and grants DRIVER with `capabilities` (default RIDE, COURIER, DELIVERY) on the driver profile. REJECTED and NEEDS_INFO need a reason. Illegal transitions: 409.',
      decide: (id, body, adminId) => drivers.decide(id, body, adminId),
    }),
    defineRoute({
      method: 'get',
      path: '/driver/me',
      operationId: 'getMyDriverProfile',
      tag: 'driver',
      summary: 'My driver profile',
      auth: ['DRIVER'],
      errors: [404],
      response: { description: 'Capabilities, vehicle, status and last location.', schema: DriverProfileSchema },
      handler: ({ auth }) => drivers.profile(auth!.userId),
    }),
    defineRoute({
      method: 'patch',
      path: '/driver/me/status',
      operationId: 'setMyDriverStatus',
      tag: 'driver',
      summary: 'Go online or offline',
      auth: ['DRIVER'],
      errors: [404],
      request: { body: DriverStatusBodySchema },
      response: { description: 'The profile.', schema: DriverProfileSchema },
      handler: ({ auth, body }) => drivers.setStatus(auth!.userId, body.status),
    }),
    defineRoute({
      method: 'post',
      path: '/driver/me/location',
      operationId: 'reportMyDriverLocation',
      tag: 'driver',
      summary: 'Report my position (ride matching; the rider of my current ride hears it as ride:location)',
      description:
        'Send it every 1–5 s while online. At most one report a second is written; faster ones are answered `coalesced: true` without a write. A driver not heard from for 10 minutes is not offered rides. A position farther from the last one than DRIVER_MAX_SPEED_KMH explains (plus 100 m of GPS jitter) is refused with 422 DRIVER_POSITION_JUMP (nothing written).',
      auth: ['DRIVER'],
      errors: [404, 422],
      codes: ['DRIVER_POSITION_JUMP'],
      request: { body: DriverLocationBodySchema },
      response: { description: 'Accepted.', schema: DriverLocationAckSchema },
      handler: ({ auth, body }) => dispatch().report(auth!.userId, body),
    }),
  ];
}
