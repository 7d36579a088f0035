// Deploy settings read at load by the functions entry (light: no zod).

// Where every function runs: one setting (FUNCTIONS_REGION in functions/.env or functions/.env.<projectId>), read
// the same way by the function definitions (deploy-time discovery, the emulator, each instance), by the code that
// enqueues Cloud Tasks (a queue lives in its function's region) and by the checks that firebase.json's Hosting
// rewrites name the same region (npm run deploy:check). Singapore is ~30 ms from Vietnam; us-central1 ~200 ms.
export const DEFAULT_FUNCTIONS_REGION = 'asia-southeast1';

// The `api` function's timeout; REQUEST_DEADLINE_MS stays at least 10 s below it (config schema).
export const API_TIMEOUT_SECONDS = 60;

// Cost control, as the Firebase templates do (`setGlobalOptions({ maxInstances })`): a runaway loop or a flood
// scales to at most this many instances. The API answers many requests per instance (API_CONCURRENCY); triggers and
// tasks take a few at a time (WORKER_CONCURRENCY) so a burst of events does not exhaust one small instance's memory.
export const DEFAULT_API_MAX_INSTANCES = 20;
export const DEFAULT_MAX_INSTANCES = 10;
export const API_CONCURRENCY = 80;
export const WORKER_CONCURRENCY = 16;

function positiveInt(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = (env[name] ?? '').trim();
  if (value === '') return fallback;
  if (!/^[1-9]\d{0,3}$/.test(value)) throw new Error(`${name} "${value}" must be a whole number from 1 to 9999`);
  return Number(value);
}

/** API_MAX_INSTANCES (the `api` function) and FUNCTIONS_MAX_INSTANCES (every other function), read at load. */
export function instanceLimits(env: Record<string, string | undefined> = process.env): { api: number; others: number } {
  return { api: positiveInt(env, 'API_MAX_INSTANCES', DEFAULT_API_MAX_INSTANCES), others: positiveInt(env, 'FUNCTIONS_MAX_INSTANCES', DEFAULT_MAX_INSTANCES) };
}

const REGION_PATTERN = /^[a-z]+-[a-z]+\d$/;

export function functionsRegion(env: Record<string, string | undefined> = process.env): string {
  const value = (env.FUNCTIONS_REGION ?? '').trim();
  if (value === '') return DEFAULT_FUNCTIONS_REGION;
  if (!REGION_PATTERN.test(value)) throw new Error(`FUNCTIONS_REGION "${value}" is not a Cloud Functions region (e.g. asia-southeast1)`);
  return value;
}

// The Secret Manager secrets every function binds: the JWT pair always, and those a project lists in FUNCTIONS_SECRETS
// (its SMTP password, its SMS and payment-gateway keys), so a deploy asks only for the secrets that project uses.
export const REQUIRED_SECRETS = ['JWT_SECRET', 'JWT_REFRESH_SECRET'] as const;

export function declaredSecrets(env: Record<string, string | undefined> = process.env): string[] {
  const listed = (env.FUNCTIONS_SECRETS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return [...new Set([...REQUIRED_SECRETS, ...listed])];
}
