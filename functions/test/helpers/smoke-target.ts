// The smoke tier goes through Hosting (rewrites to the `api` function in the Functions emulator), whatever
// the integration tier's in-process server set.
process.env.TEST_BASE_URL = process.env.SMOKE_BASE_URL ?? 'http://127.0.0.1:5000';
