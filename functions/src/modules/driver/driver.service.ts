import { inTransaction } from '../../platform/firebase/firebase';
import { AppError, NotFoundError } from '../../platform/errors/app-error';
import type { AuthService } from '../auth/auth.service';
import type { ApplicationRecord, ApplicationStatus } from '../kyc/applications.model';
import { applicationsRepo } from '../kyc/applications.repo';
import type { Decision, KycService } from '../kyc/kyc.service';
import { newUserRecord } from '../users/users.model';
import { usersRepo } from '../users/users.repo';
import { DEFAULT_CAPABILITIES, profileView, type Capability, type Vehicle } from './driver.model';
import { driverRepo } from './driver.repo';

export interface DriverRegistration {
  email: string;
  fullName: string;
  phone?: string;
  licenceNumber?: string;
  vehicle: Vehicle;
}

export function createDriverService(deps: { auth: AuthService; kyc: KycService; now?: () => number }) {
  const now = deps.now ?? Date.now;
  return {
    // No user auth: creates the account (or links the existing one) and one open DRIVER application,
    // then mails a sign-in code. Registering again while an application is open returns that one.
    async register(body: DriverRegistration) {
      const email = body.email.toLowerCase();
      const t = now();
      const app = await inTransaction(async (tx) => {
        const existing = await usersRepo.txFindByEmail(tx, email);
        const open = existing ? await applicationsRepo.txOpenOf(tx, existing.id, 'DRIVER') : [];
        if (open.length > 0) return open[0];
        const user =
          existing ??
          newUserRecord({ id: usersRepo.newId(), email, name: body.fullName, passwordHash: null, emailVerified: false, provider: null, now: t, status: 'ACTIVE' });
        if (!existing) usersRepo.txCreate(tx, user);
        const created: ApplicationRecord = {
          id: applicationsRepo.newId(),
          kind: 'DRIVER',
          userId: user.id,
          status: 'SUBMITTED',
          details: { fullName: body.fullName, phone: body.phone ?? null, licenceNumber: body.licenceNumber ?? null, vehicle: body.vehicle },
          reason: null,
          reviewedBy: null,
          reviewedAt: null,
          grantedRoles: [],
          history: [{ status: 'SUBMITTED', at: t, by: user.id, reason: null }],
          createdAt: t,
          updatedAt: t,
        };
        applicationsRepo.txCreate(tx, created);
        return created;
      });
      let mailSent = false;
      try {
        mailSent = (await deps.auth.sendEmailOtp({ email, purpose: 'LOGIN' })).mailSent;
      } catch (err) {
        // A code sent less than a minute ago is still valid: registering twice is not an error.
        if (!(err instanceof AppError && err.statusCode === 429)) throw err;
      }
      return {
        applicationId: app.id,
        status: app.status as ApplicationStatus,
        mailSent,
        next: 'Sign in with POST /auth/email/otp/verify (purpose LOGIN), upload IDENTITY, DRIVER_LICENCE and VEHICLE_REGISTRATION with POST /kyc/papers, then wait for review.',
      };
    },

    decide(id: string, decision: Decision & { capabilities?: Capability[] }, adminId: string) {
      const capabilities = decision.capabilities ?? DEFAULT_CAPABILITIES;
      return deps.kyc.decide('DRIVER', id, decision, adminId, (app) => ({
        roles: ['DRIVER'],
        details: { capabilities },
        write: (tx, approved, t) => driverRepo.txApprove(tx, approved.userId, [...new Set(capabilities)], (app.details.vehicle as Vehicle) ?? null, t),
      }));
    },

    async profile(userId: string) {
      const profile = await driverRepo.get(userId);
      if (!profile) throw new NotFoundError('Driver profile not found');
      return profileView(profile);
    },

    async setStatus(userId: string, status: 'ONLINE' | 'OFFLINE') {
      await this.profile(userId);
      await driverRepo.update(userId, { status, updatedAt: now() });
      return this.profile(userId);
    },

    async setLocation(userId: string, loc: { lat: number; lng: number; heading?: number; speedKmh?: number }) {
      await this.profile(userId);
      const t = now();
      await driverRepo.update(userId, { lastLocation: { lat: loc.lat, lng: loc.lng, heading: loc.heading ?? null, speedKmh: loc.speedKmh ?? null, at: t }, updatedAt: t });
      return this.profile(userId);
    },
  };
}
