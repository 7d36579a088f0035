// The order of test files: the longest first, so that no long file starts last and leaves the other workers idle at
// the end of a tier. A file's length comes from the durations the runner recorded (.cache/test-durations.json,
// written by `npm test` and `npm run test:files`), else from test/helpers/test-durations.json (a measured run,
// committed for fresh clones and CI), else from its size (about 2 ms a byte). Files that failed last time still go
// first, as jest's own order has them. The serial project keeps jest's order: it runs in band, where the order saves
// nothing, and its wallet-contention file is kept from running first, on the heels of the parallel tier.
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const functionsDir = path.join(__dirname, '..', '..');
const read = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
};

class LongestFirst extends Sequencer {
  sort(tests) {
    if (tests.every((test) => test.context.config.displayName?.name === 'serial')) return super.sort(tests);
    const known = { ...read(path.join(__dirname, 'test-durations.json')), ...read(path.join(functionsDir, '..', '.cache', 'test-durations.json')) };
    const seconds = (test) => known[path.relative(functionsDir, test.path)] ?? (test.context.hasteFS.getSize(test.path) ?? 0) / 500;
    const weight = new Map(tests.map((test) => [test, [this.hasFailed(test) ? 1 : 0, seconds(test)]]));
    return [...tests].sort((a, b) => weight.get(b)[0] - weight.get(a)[0] || weight.get(b)[1] - weight.get(a)[1]);
  }
}

module.exports = LongestFirst;
