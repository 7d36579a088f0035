import { buildApp } from '../../src/app';
import { parseConfig } from '../../src/platform/core/config';
import { functionsEnv } from './functions-env';
import { listen } from './http';

/**
 * The API in-process with the in-process API's configuration (test/helpers/inprocess-api.ts) and `overrides`, on its own port: for the few tests that
 * need another switch than npm test's (the timing tests need real password hashes: BCRYPT_COST 10, where npm test
 * runs at 4). Pass `api` to `call` or `signUpByMail` (whose hash the API makes); `close()` when done.
 */
export async function apiWith(overrides: Record<string, string>): Promise<{ api: string; close(): Promise<void> }> {
  const config = parseConfig({ ...functionsEnv(), ...overrides });
  const server = await listen(buildApp({ config }).app);
  return { api: `${server.url}/api/v1`, close: server.close };
}
