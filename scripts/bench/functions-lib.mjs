// The compiled functions (functions/lib) for benches that call services in process: `lib(path)` requires one file, after
// the bench's own API secrets (as twin.mjs sets them) and the modules' config switches are installed, as the
// functions entry installs them (services read the configuration).
import { createRequire } from 'node:module';
import path from 'node:path';
import { functionsDir } from '../lib/util.mjs';

const require = createRequire(path.join(functionsDir, 'package.json'));
const load = (p) => require(path.join(functionsDir, 'lib', p));
process.env.JWT_SECRET ??= 'bench-access-secret-0123456789abcdef0123456789';
process.env.JWT_REFRESH_SECRET ??= 'bench-refresh-secret-0123456789abcdef01234567';
load('platform/core/config/module-switches.js').installSwitches(load('module-switches.generated.js').MODULE_SWITCHES);

export const lib = load;
/** `require` from the functions package (its dependencies). */
export const functionsRequire = require;
