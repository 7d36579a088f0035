import * as z from 'zod/mini';
import { commaList, countryList, defineSwitches, emailList, optionalText, positiveInt, urlOrDefault, type ConfigOf } from '../../platform/core/config/switches';

const MIN_PRODUCTION_BCRYPT_COST = 10;

// The auth module's switches: token lifetimes, password cost, Google sign-in, the countries that get SMS codes, the
// administrators by email and the development OTP. Read by auth only (its wiring, service and routes).
export const authSwitches = defineSwitches(
  {
    OTP_DEV_CODE: {
      schema: optionalText.check(z.refine((v) => v === undefined || /^\d{6}$/.test(v), { message: 'must be 6 digits' })),
      effect: 'fixed 6-digit OTP for development; forbidden in production',
      secret: true,
    },
    SMS_COUNTRIES: {
      schema: countryList(['VN']),
      effect:
        "countries whose numbers get SMS codes: `POST /auth/otp/send` to another country's number is 400 `PHONE_COUNTRY_NOT_ALLOWED` and nothing is sent (the defence against SMS toll fraud); so is, with 400 `PHONE_NOT_MOBILE`, any number that is not a mobile one; other phone fields take any valid number",
    },
    ADMIN_EMAILS: { schema: emailList, effect: 'an account whose *verified* email is listed gets ADMIN at its next sign-in' },
    BCRYPT_COST: {
      schema: positiveInt(10, 15, 4),
      effect:
        'bcrypt cost of password hashes (per-hash time: A1 in [benchmarks](benchmarks.md)); at least 10 in production (`npm test` runs the API at 4 and its timing tests at 10)',
    },
    ACCESS_TOKEN_TTL_SEC: { schema: positiveInt(15 * 60, 24 * 3600, 60), effect: 'access token lifetime (15 min)' },
    REFRESH_TOKEN_TTL_SEC: { schema: positiveInt(30 * 24 * 3600, 365 * 24 * 3600, 300), effect: 'refresh token lifetime (30 days)' },
    REFRESH_LOST_ANSWER_SEC: {
      schema: positiveInt(15 * 60, 24 * 3600, 10),
      effect:
        'how long after a rotation the previous refresh token may be retried while the new pair is unused (a lost answer): within 10 s it returns the same pair, later a fresh one and the unused pair is retired; past it the retry revokes the session (see [auth](api/auth.md#tokens-and-sessions))',
    },
    GOOGLE_CLIENT_IDS: { schema: commaList, effect: 'OAuth client ids accepted as the audience of Google ID tokens; empty: `POST /auth/google` answers 503' },
    GOOGLE_CERTS_URL: {
      schema: urlOrDefault('https://www.googleapis.com/oauth2/v1/certs'),
      effect: "where Google's signing certificates are fetched (tests point it at local keys)",
    },
  },
  {
    production: (env) => [
      ...((env.OTP_DEV_CODE ?? '').trim() !== '' ? ['OTP_DEV_CODE must not be set in production'] : []),
      ...((env.BCRYPT_COST ?? '').trim() !== '' && Number(env.BCRYPT_COST) < MIN_PRODUCTION_BCRYPT_COST
        ? [`BCRYPT_COST must be at least ${MIN_PRODUCTION_BCRYPT_COST} in production`]
        : []),
    ],
  },
);

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof authSwitches> {}
}
