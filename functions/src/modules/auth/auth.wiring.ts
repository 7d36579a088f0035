import type { AccessTokenVerifier } from '../../platform/core/auth/access-token';
import { createJwtAccessTokenVerifier } from '../../platform/core/auth/access-token';
import { perConfig, type AppConfig } from '../../platform/core/config';
import { createMessageQueue } from '../../platform/core/message-queue/message-queue';
import { createMailer } from '../../platform/core/mail/mailer';
import { createSmsSender } from '../../platform/core/sms/sms';
import { createAuthService, type AuthDeps } from './auth.service';
import { createGoogleVerifier } from './google';
import { createOtpService } from './otp.service';
import { createPasswordHasher } from './passwords';
import { createSessionAwareVerifier, createSessionService } from './session.service';
import { createTokenSigner } from './tokens';
import { notificationHub } from '../notifications';
import { AUTH_EVENTS } from './auth.events';
import { AUTH_TEXTS } from './auth.texts';
import { localeOf } from '../users';
import { claimPendingApplication } from '../kyc';

// Builds the auth services from configuration; tests replace the clock, mail, SMS or Google.
export function createAuthServices(config: Readonly<AppConfig>, overrides: Partial<Pick<AuthDeps, 'now' | 'mailer' | 'sms' | 'google' | 'messages'>> = {}) {
  const now = overrides.now ?? Date.now;
  const signer = createTokenSigner({
    accessSecret: config.JWT_SECRET,
    refreshSecret: config.JWT_REFRESH_SECRET,
    accessTtlSec: config.ACCESS_TOKEN_TTL_SEC,
    refreshTtlSec: config.REFRESH_TOKEN_TTL_SEC,
  });
  const hub = notificationHub(config);
  const sessions = createSessionService({
    signer,
    now,
    lostAnswerSec: config.REFRESH_LOST_ANSWER_SEC,
    onNewDevice: async (user, session) => {
      await hub.dispatch(
        AUTH_EVENTS.notice({
          event: 'security.device',
          recipients: [{ userId: user.id, surface: 'CON' as const, locale: localeOf(user) }],
          entityId: session.id,
          text: AUTH_TEXTS.text('security.device', { device: session.deviceName ?? session.userAgent ?? null, ip: session.ip ?? null }),
        }),
      );
    },
  });
  const otp = createOtpService({ jwtSecret: config.JWT_SECRET, devCode: config.OTP_DEV_CODE, now });
  const mailer = overrides.mailer ?? createMailer(config);
  const sms = overrides.sms ?? createSmsSender(config);
  const messages = overrides.messages ?? createMessageQueue(config, { mailer, sms });
  const auth = createAuthService({
    config,
    hasher: createPasswordHasher(config.BCRYPT_COST),
    otp,
    sessions,
    signer,
    mailer,
    sms,
    messages,
    google: overrides.google ?? createGoogleVerifier(config),
    now,
    // A code mailed by a public registration (POST /driver/register) opens the application it was sent for.
    onEmailCodeSignIn: (userId, challengeId) => claimPendingApplication(userId, challengeId, now()),
  });
  return { auth, sessions, otp, signer, mailer, messages };
}

// The app's auth services: one set per configuration, shared by the auth and driver modules.
export const authServicesFor = perConfig((config: Readonly<AppConfig>) => createAuthServices(config));

// The verifier every protected route uses: JWT checks plus session, revocation and account state.
export function createRequestVerifier(config: Readonly<AppConfig>): AccessTokenVerifier {
  return createSessionAwareVerifier(createJwtAccessTokenVerifier(config.JWT_SECRET));
}
