import { inTransaction } from '../../platform/core/firebase/firebase';
import { AppError, NotFoundError } from '../../platform/core/errors/app-error';
import type { MessageQueue } from '../../platform/core/message-queue/message-queue';
import type { Mailer, MailMessage } from '../../platform/core/mail/mailer';
import { AUTH_LIMITS, codeMail, type OtpService } from '../auth';
import { recordPendingApplication, type Decision, type KycService } from '../kyc';
import { DEFAULT_CAPABILITIES, profileView, type Capability, type Vehicle } from './driver.model';
import { driverRepo, locationsRepo } from './driver.repo';
import type { createDispatchService } from './driver.dispatch';
import { newUserRecord, accounts, localeOf } from '../users';
import type { Locale } from '../../platform/kits/i18n';
import { DRIVER_TEXTS } from './driver.texts';

function driverCodeMail(to: string, code: string, locale: Locale): MailMessage {
  const mail = codeMail('LOGIN', to, code, AUTH_LIMITS.otpTtlSec, locale);
  const intro = DRIVER_TEXTS.render('mail.signup', {}, locale);
  return { ...mail, subject: intro.subject, text: `${intro.text}\n\n${mail.text}` };
}

export interface DriverRegistration {
  email: string;
  fullName: string;
  phone?: string;
  licenceNumber?: string;
  vehicle: Vehicle;
}

export interface DriverServiceDeps {
  kyc: KycService;
  otp: OtpService;
  messages: MessageQueue;
  mailer: Pick<Mailer, 'configured'>;
  dispatch: Pick<ReturnType<typeof createDispatchService>, 'setStatus'>;
  now?: () => number;
}

export function createDriverService(deps: DriverServiceDeps) {
  const now = deps.now ?? Date.now;
  return {
    // No user auth, so it attaches nothing to an account: it creates the account for a new email, mails
    // a sign-in code, and keeps the details with that code (driver.signup). Signing in with the mailed
    // code opens the DRIVER application (or keeps the open one). The same answer and the same work for a
    // new and an existing email, and no ids in it. `locale` (from Accept-Language) is a new account's language;
    // the mail is in the account's.
    async register(body: DriverRegistration, locale: Locale) {
      const email = body.email.trim().toLowerCase();
      const t = now();
      const account = await inTransaction(async (tx) => {
        const existing = await accounts.findByEmail(email, tx);
        if (existing) return existing;
        const user = newUserRecord({
          id: accounts.newId(),
          email,
          name: body.fullName,
          passwordHash: null,
          emailVerified: false,
          provider: null,
          now: t,
          status: 'ACTIVE',
          locale,
        });
        accounts.txCreate(tx, user);
        return user;
      });
      let message: MailMessage | undefined;
      if (!account.disabled) {
        try {
          const { code, challengeId } = await deps.otp.issue({ purpose: 'LOGIN', channel: 'email', destination: email, userId: account.id });
          await recordPendingApplication(
            account.id,
            'DRIVER',
            challengeId,
            { fullName: body.fullName, phone: body.phone ?? null, licenceNumber: body.licenceNumber ?? null, vehicle: body.vehicle },
            t,
          );
          message = driverCodeMail(email, code, localeOf(account));
        } catch (err) {
          // Within the resend gap or over a cap: nothing is sent or recorded, and the answer does not say so.
          if (!(err instanceof AppError && err.statusCode === 429)) throw err;
        }
      }
      await deps.messages.hand('driver registration code', message ? { channel: 'mail', message } : undefined);
      return {
        mailSent: deps.mailer.configured,
        expiresInSec: AUTH_LIMITS.otpTtlSec,
        resendAfterSec: AUTH_LIMITS.otpResendGapSec,
        next: 'Sign in with the mailed code: POST /auth/email/otp/verify (purpose LOGIN, surface DRV). That opens your driver application (GET /kyc/applications); upload IDENTITY, DRIVER_LICENCE and VEHICLE_REGISTRATION with POST /kyc/papers, then wait for review.',
      };
    },

    decide(id: string, decision: Decision & { capabilities?: Capability[] }, adminId: string) {
      const capabilities = decision.capabilities ?? DEFAULT_CAPABILITIES;
      return deps.kyc.decide('DRIVER', id, decision, adminId, (app) => ({
        roles: ['DRIVER'],
        details: { capabilities },
        write: (tx, approved, t) => driverRepo.txOpenProfile(tx, approved.userId, { capabilities, vehicle: (app.details.vehicle as Vehicle) ?? null, now: t }),
      }));
    },

    async profile(userId: string) {
      const [profile, location] = await Promise.all([driverRepo.get(userId), locationsRepo.get(userId)]);
      if (!profile) throw new NotFoundError('Driver profile not found');
      return profileView(profile, location);
    },

    async setStatus(userId: string, status: 'ONLINE' | 'OFFLINE') {
      await deps.dispatch.setStatus(userId, status);
      return this.profile(userId);
    },
  };
}
