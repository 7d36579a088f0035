// Tests follow the code: test/modules/<m>/ for a module, test/platform/ for the kits and the platform, test/rules
// (firestore.rules) and test/smoke (through Hosting and the Functions emulator). The tier is in the file name:
// `*.unit.test.ts` pure logic with in-process fakes; `*.test.ts` the API in-process against the emulators;
// `*.serial.test.ts` the few files that must run alone (whole-database facts).
const path = require('node:path');

// TypeScript through esbuild, ts-jest where a file needs jest.mock hoisting (test/helpers/transform.js says why).
const transform = path.join(__dirname, 'test', 'helpers', 'transform.js');
const base = { testEnvironment: 'node', transform: { '^.+\\.ts$': transform }, moduleFileExtensions: ['ts', 'js', 'json'] };
const CODE_TESTS = ['<rootDir>/test/modules/**/', '<rootDir>/test/platform/**/'];

// Integration tests call the API running in-process (started once per jest run by globalSetup).
// The modules' config switches, installed as the functions entry installs them (test/helpers/module-switches.ts).
const switches = '<rootDir>/test/helpers/module-switches.ts';
const inProcess = {
  ...base,
  slowTestThreshold: 30,
  setupFiles: [switches],
  globalSetup: '<rootDir>/test/helpers/inprocess-api.ts',
  globalTeardown: '<rootDir>/test/helpers/inprocess-api-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/helpers/integration-setup.ts'],
};

// Through Hosting and the Functions emulator, as apps reach a deployed backend.
const smoke = {
  ...base,
  slowTestThreshold: 30,
  setupFiles: ['<rootDir>/test/helpers/smoke-target.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/helpers/integration-setup.ts'],
};

module.exports = {
  // The longest files first (recorded durations; see the file): no long file starts last and keeps a tier waiting.
  testSequencer: '<rootDir>/test/helpers/sequencer.js',
  projects: [
    { ...base, displayName: 'unit', testMatch: CODE_TESTS.map((d) => `${d}*.unit.test.ts`), setupFiles: ['<rootDir>/test/helpers/quiet-logs.ts', switches] },
    {
      ...inProcess,
      displayName: 'integration',
      testMatch: CODE_TESTS.map((d) => `${d}*.test.ts`),
      testPathIgnorePatterns: ['\\.unit\\.test\\.ts$', '\\.serial\\.test\\.ts$'],
    },
    // Whole-database facts (account counts, the last administrator): run alone, after the parallel files.
    { ...inProcess, displayName: 'serial', testMatch: CODE_TESTS.map((d) => `${d}*.serial.test.ts`) },
    {
      ...smoke,
      displayName: 'smoke',
      testMatch: ['<rootDir>/test/smoke/**/*.test.ts'],
      testPathIgnorePatterns: ['\\.browser\\.test\\.ts$'],
    },
    // The admin console in Chromium: after the others, alone (a browser on the 2-core machine slowed the triggers
    // other files wait for).
    { ...smoke, displayName: 'browser', testMatch: ['<rootDir>/test/smoke/**/*.browser.test.ts'] },
    // The emulator's time for their hooks (clearing data, signing in test contexts) too, not jest's 5 s.
    { ...base, displayName: 'rules', testMatch: ['<rootDir>/test/rules/**/*.test.ts'], setupFilesAfterEnv: ['<rootDir>/test/helpers/integration-setup.ts'] },
  ],
};
