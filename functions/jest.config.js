// Three tiers mirrored on src/: unit (pure logic), integration (HTTP against the emulators), rules.
const path = require('node:path');

const tsJest = ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.json') }];
const base = { testEnvironment: 'node', transform: { '^.+\\.ts$': tsJest }, moduleFileExtensions: ['ts', 'js', 'json'] };

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'], setupFiles: ['<rootDir>/test/helpers/quiet-logs.ts'] },
    { ...base, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'], slowTestThreshold: 30, setupFilesAfterEnv: ['<rootDir>/test/helpers/integration-setup.ts'] },
    { ...base, displayName: 'rules', testMatch: ['<rootDir>/test/rules/**/*.test.ts'] },
  ],
};
