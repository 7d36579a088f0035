// The deployed code is two bundles, each with its own copy of codes.ts: a module's codes registered through one copy
// (dist/index.js installs the module list) must be known to the other (the lazily loaded dist/runtime.js).
describe('error codes across bundle copies', () => {
  it('a code registered through one copy of the table is known to another copy', () => {
    let first: typeof import('../../src/platform/core/errors/codes') | undefined;
    let second: typeof import('../../src/platform/core/errors/codes') | undefined;
    jest.isolateModules(() => {
      first = require('../../src/platform/core/errors/codes');
    });
    jest.isolateModules(() => {
      second = require('../../src/platform/core/errors/codes');
    });
    expect(first).not.toBe(second);
    first!.registerErrorCodes('bundles-test', { BUNDLES_TEST_CODE: [409, 'Registered through the first copy.'] });
    expect((second!.ERROR_CODES as Record<string, unknown>).BUNDLES_TEST_CODE).toEqual([409, 'Registered through the first copy.']);
    expect(second!.codesOfStatus(409)).toContain('BUNDLES_TEST_CODE');
  });
});
