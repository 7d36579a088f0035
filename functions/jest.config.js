// Tiers mirrored on src/: unit (pure logic, in-process fakes), integration (the API in-process against the
// emulators; `serial` for the few files that must run alone), smoke (through Hosting and the Functions emulator), rules (firestore.rules).
const path = require('node:path');

const tsJest = ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.json') }];
const base = { testEnvironment: 'node', transform: { '^.+\\.ts$': tsJest }, moduleFileExtensions: ['ts', 'js', 'json'] };

// Integration tests call the API running in-process (started once per jest run by globalSetup).
const inProcess = {
  ...base,
  slowTestThreshold: 30,
  globalSetup: '<rootDir>/test/helpers/inprocess-api.ts',
  globalTeardown: '<rootDir>/test/helpers/inprocess-api-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/helpers/integration-setup.ts'],
};

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'], setupFiles: ['<rootDir>/test/helpers/quiet-logs.ts'] },
    { ...inProcess, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'], testPathIgnorePatterns: ['\\.serial\\.test\\.ts$'] },
    // Whole-database facts (account counts, the last administrator): run alone, after the parallel files.
    { ...inProcess, displayName: 'serial', testMatch: ['<rootDir>/test/integration/**/*.serial.test.ts'] },
    {
      ...base,
      displayName: 'smoke',
      testMatch: ['<rootDir>/test/smoke/**/*.test.ts'],
      slowTestThreshold: 30,
      setupFiles: ['<rootDir>/test/helpers/smoke-target.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/helpers/integration-setup.ts'],
    },
    { ...base, displayName: 'rules', testMatch: ['<rootDir>/test/rules/**/*.test.ts'] },
  ],
};
