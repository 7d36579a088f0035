// Where the operating system's Chromium is (a browser download by npm fails on these machines): one list for the
// browser tests (functions/test/helpers/browser.ts), the console's bench (scripts/bench/console.mjs) and `.ci/run`
// (`node scripts/lib/chromium.cjs` exits 1 when none is found).
'use strict';
const fs = require('node:fs');

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** CHROMIUM_PATH when set, else the first installed candidate; undefined when there is none. */
function findChromium(env = process.env) {
  return [env.CHROMIUM_PATH, ...CANDIDATES].find((p) => p && fs.existsSync(p));
}

const INSTALL_HINT = `install the operating system's package (apt-get install -y chromium) or set CHROMIUM_PATH (looked at: ${CANDIDATES.join(', ')})`;

module.exports = { CANDIDATES, findChromium, INSTALL_HINT };

if (require.main === module) {
  const found = findChromium();
  if (found) process.stdout.write(`${found}\n`);
  process.exit(found ? 0 : 1);
}
