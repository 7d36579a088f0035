// Public face of the auth module: sign-in services other modules reuse (codes, mail), the per-IP limits of
// public sign-up routes, and the commands that end an account's sessions.
export { authServicesFor, createRequestVerifier } from './auth.wiring';
export { AUTH_LIMITS, AUTH_RATE_LIMITS } from './auth.model';
export { codeMail } from './auth.mail';
export type { OtpService } from './otp.service';
export { liveSessionsOf, revokeUserSession, revokeUserSessions, setFirebaseUserDisabled } from './session.service';
export { RevokedCountSchema, SessionsResponseSchema } from './auth.schemas';
