// What each of the platform's switches does, for docs/configuration.md. Defaults, accepted values and the env files
// that set a switch are read from the schema and the files (scripts/lib/docs-render.cjs); only the effect is written
// here, one entry per key of configSchema (functions/src/platform/core/config/config.schema.ts). A module's switches
// carry their effect in its fragment (modules/<m>/<m>.config.ts). The unit test docs-generated fails when a key of the
// schema has no entry here, or an entry names no key.

const CONFIG_SWITCHES = {
  NODE_ENV: '`production` turns on the production rules (below) and hides `/health/env`, `/health/deps`. A deployed instance (Cloud Functions sets `K_SERVICE`/`FUNCTION_TARGET`, `FUNCTIONS_EMULATOR` not `true`) is production whatever this says',
  SWAGGER_ENABLED: 'serves `/docs` and `/docs-json` (404 when off)',
  OTP_CHANNEL: 'email-code delivery: `email` (SMTP via nodemailer) or `console` (development: nothing is sent, use `OTP_DEV_CODE`); must be `email` in production',
  SMS_PROVIDER: 'phone-OTP adapter: `console` (nothing sent), `http`, `twilio` or `esms`; `console` is forbidden in production; each adapter\'s settings are required at boot',
  SMS_HTTP_URL: '`http` adapter: `POST {to, text}` as JSON to this URL with `Authorization: Bearer <SMS_API_KEY>`',
  SMS_API_KEY: '`http` adapter: the bearer key',
  NEARBY_READ_BUDGET: 'documents one nearby request may read (catalogs\' `…/nearby`, `GET /rides/drivers/nearby`); an empty query counts as one, as Firestore bills it. See [the map tab](api/map-tab.md)',
  TRUST_PROXY: 'Express `trust proxy`: `true`/`false`, a hop count, or subnets/presets. How many hops from the right of `X-Forwarded-For` are ours: `1` fits Cloud Functions 2nd gen, whose front end appends the caller it saw; add one per proxy you put in front. Never `true` on the internet (a client could pick its own IP; refused in production). On Cloud Functions with `CLIENT_IP_SOURCE` `direct` or `hosting` it must be a hop count of at least 1, or the instance refuses to boot',
  CLIENT_IP_SOURCE: 'the client IP of per-IP rate limits, sessions and gateways. `direct`: callers reach the function\'s own URL; the entry `TRUST_PROXY` hops from the right of `X-Forwarded-For`. `hosting`: callers come through the Firebase Hosting rewrite; the client is `Fastly-Client-IP`, believed only when that entry is one of `HOSTING_EDGE_RANGES` (needs `TRUST_PROXY` as a hop count); every Fastly customer\'s service sends from the same edges, so per-IP limits also count each edge in one bucket (`HOSTING_EDGE_LIMIT_FACTOR`), and the real defence of the sign-in and code routes is `APP_CHECK=enforce`. `socket`: the TCP peer, no header (a plain server with nothing in front). Per-IP limits count an IPv6 caller by its /64. Details below (*The client address*)',
  HOSTING_EDGE_RANGES: 'CIDR ranges of Hosting\'s CDN edges (`CLIENT_IP_SOURCE=hosting`); Fastly lists them at `https://api.fastly.com/public-ip-list`. A malformed range refuses the boot; in production so does a range wider than /12 (IPv4) or /24 (IPv6)',
  HOSTING_EDGE_LIMIT_FACTOR: '`CLIENT_IP_SOURCE=hosting`: each per-IP limit also caps all the clients one Hosting edge vouched for at this multiple of the limit, in the same window (e.g. `auth-login` 30/300 s: 1,500 per edge); over it, 429 with `Retry-After` and one warning per edge, scope and window. `0` turns the edge bucket off',
  APP_CHECK: 'Firebase App Check on the routes our apps call: `off`; `monitor` (the `X-Firebase-AppCheck` token is verified and a missing or invalid one only logged, sampled: at most one line per reason per route and instance a minute); `enforce` (401 `APP_CHECK_REQUIRED` without a token, `APP_CHECK_INVALID` when it does not verify; 503 when the keys cannot be fetched). Production: `monitor` until every released app sends tokens, then `enforce`. Not checked: `/health*`, the gateways\' IPNs and return pages, `/media/files/*` and `/rides/shared/*` links, `PUT /upload/presign/{id}/content`, `/docs`. The emulators have no App Check: leave it `off` locally',
  CORS_ORIGINS: 'browser origins allowed (`*` for any); native apps send no Origin',
  API_PUBLIC_URL: 'public base address used in links',
  SMTP_HOST: 'mail server for email OTP; required in production',
  SMTP_PORT: 'its port',
  SMTP_USER: 'its user',
  SMTP_PASS: 'its password',
  SMTP_FROM: 'the sender of our mails',
  TWILIO_ACCOUNT_SID: '`twilio` adapter (Messages API, form-encoded, HTTP Basic): the account',
  TWILIO_AUTH_TOKEN: '`twilio` adapter: the token',
  TWILIO_FROM: '`twilio` adapter: a number or a Messaging Service SID (`MG…`)',
  TWILIO_API_BASE: '`twilio` adapter: the API host',
  ESMS_API_KEY: '`esms` adapter (eSMS.vn, Vietnam: `SendMultipleMessage_V4_post_json`, SmsType 2): the API key',
  ESMS_SECRET_KEY: '`esms` adapter: the secret key',
  ESMS_BRANDNAME: '`esms` adapter: the brand name texts are sent under',
  ESMS_API_BASE: '`esms` adapter: the API host',
  STORAGE_DRIVER: 'where media and papers are stored: `local` (a folder, served by the API), `gcs` (Cloud Storage through firebase-admin, the Storage emulator when `FIREBASE_STORAGE_EMULATOR_HOST` is set), or `auto`: `gcs` in production or when a Storage emulator runs, else `local`',
  STORAGE_BUCKET: 'bucket of the `gcs` driver (unset: the project\'s default bucket)',
  STORAGE_LOCAL_DIR: 'folder of the `local` driver (unset: `superapp-storage/<project>` in the OS temp dir)',
  DEFAULT_LOCALE: 'the language of server texts for accounts that never chose one and of registrations whose `Accept-Language` names neither; see [notifications](api/notifications.md#languages-of-server-texts)',
  MESSAGE_DELIVERY: 'how OTP and reset codes leave: `queue` (Cloud Tasks function `deliverMessage`, retried), `background` (sent after the answer, same process), `auto`: the queue when running as a Cloud Function, else background',
  JWT_SECRET: 'HS256 secret of access tokens; at least 32 characters in production',
  JWT_REFRESH_SECRET: 'HS256 secret of refresh tokens; at least 32 characters in production, and not equal to `JWT_SECRET`',
  JSON_BODY_LIMIT_BYTES: 'limit of JSON bodies (413 beyond); uploads are multipart',
  REQUEST_DEADLINE_MS: 'server-side deadline of every request (at least 10 s below the `api` function\'s 60 s timeout, and below a mobile client\'s usual 30 s): past it the API answers 503 `DEADLINE_EXCEEDED` with `Retry-After` 5 to 9 s (jittered), once; the handler is not interrupted and its late answer is dropped. An operation sent with an `Idempotency-Key` keeps its claim until the handler settles, so the retry gets 409 `IDEMPOTENCY_IN_PROGRESS` meanwhile and then the one stored answer. Upload routes count against `UPLOAD_DEADLINE_MS` instead',
  DEADLINE_OVERDUE_LIMIT: 'handlers of one instance still running after their deadline 503: at this many, new requests are refused at once with 503 `OVERLOADED` (`Retry-After` 5 to 9 s) until some settle. `0`: off (the default: the full test suite\'s shared API exceeds 20 under load, so a limit is set per deployment from its own traffic)',
  UPLOAD_DEADLINE_MS: 'the deadline of the upload routes (multipart `POST /upload/*`, `PUT /upload/presign/{id}/content`), which stream their body while storing it: from the request\'s start, at most what the `api` function\'s 60 s timeout allows; past it, the same 503 `DEADLINE_EXCEEDED`',
  LOG_REQUESTS: 'also log successful requests (4xx/5xx are always logged)',
  RATE_LIMITS: 'limits as `scope=limit/windowSec` pairs, e.g. `auth-register=100/600,auth-login=300/300`; each replaces the built-in limit of its scope, the others keep theirs (`npm start` sets generous auth limits, `scripts/lib/profiles.mjs`). Per client IP (defaults per window): `auth-register` 10/600 s, `auth-login` 30/300, `auth-otp-send` 10/600, `auth-otp-verify` 30/300, `auth-refresh` 120/300, `auth-forgot` 10/900, `auth-reset` 20/900, `auth-google` 30/300, `media-files` 600/60 (counted in each server instance\'s memory, not shared). Per signed-in user: `rides-book` 10/600, `rides-cancel` 10/600, `rides-sos` 5/3600, `rides-tip` 20/3600, `rides-drivers-nearby` 60/60, `nearby` 120/60 (every catalog nearby search), `chat-message` 300/300, `chat-conversation` 60/3600, `chat-call` 30/600, `chat-report` 20/3600, `review-create` 20/3600, `review-report` 20/3600, `wallet-transfer` 100/3600, `wallet-withdrawal` 10/3600, `staff-money` 30/3600. Each operation\'s OpenAPI text names its scope. A malformed pair refuses the boot; an unknown scope is logged',
};

// Read at load by the functions entry (platform/core/deploy/settings.ts), from the env files only (never secrets).
const DEPLOY_SWITCHES = {
  FUNCTIONS_REGION: 'the region of every function (HTTPS, tasks, triggers) and of the Cloud Tasks queues; `firebase.json`\'s Hosting rewrites must name the same (`npm run deploy:check`)',
  API_MAX_INSTANCES: 'ceiling on instances of the `api` function (cost control; each instance serves 80 requests at once); `deploy:check` verifies every function has a ceiling and a concurrency its CPU allows',
  FUNCTIONS_MAX_INSTANCES: 'the same ceiling for every other function (tasks, triggers, `deliverMessage`; 16 events at once per instance)',
  FUNCTIONS_SECRETS: 'Secret Manager secrets the functions bind besides the JWT pair, comma-separated (e.g. `SMTP_PASS,ESMS_API_KEY,ESMS_SECRET_KEY`); see [deploying](deploying.md)',
};

module.exports = { CONFIG_SWITCHES, DEPLOY_SWITCHES };
