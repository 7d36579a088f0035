// The servers P2 compares, each in its own process: `stack` is our full middleware stack
// (request id, CORS, JSON limit, zod validation, response shaping, error handler); `plain` is
// bare Express returning the same JSON. P5's `signin` and `signin-inline` are below.
const path = require('node:path');
const v8 = require('node:v8');

const functionsDir = path.join(__dirname, '..', '..', 'functions');
const fromFunctions = (id) => require(require.resolve(id, { paths: [functionsDir] }));
// The deployed bundle (functions/dist): its runtime half holds the app, the module list and the route kit.
const fromBundle = (id) => require(path.join(functionsDir, 'dist', 'runtime.js')).load(id);

function plainApp() {
  const express = fromFunctions('express');
  const app = express();
  app.post('/api/v1/bench/echo', express.json(), (req, res) => {
    res.json({ ok: true, name: req.body.name, quantity: req.body.quantity });
  });
  return app;
}

function stackApp() {
  const { z } = fromFunctions('zod');
  const { buildApp } = fromBundle('app');
  const { MODULES } = fromBundle('modules/index');
  const { defineRoute } = fromBundle('platform/core/http/route');
  const benchModule = {
    name: 'bench',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/bench/echo',
        tag: 'health',
        summary: 'benchmark echo',
        auth: 'public',
        request: {
          body: z.object({
            name: z.string().min(1).max(100),
            quantity: z.number().int().min(1).max(99),
            tags: z.array(z.string().max(20)).max(5).default([]),
          }),
        },
        response: { description: 'echo', schema: z.object({ ok: z.boolean(), name: z.string(), quantity: z.number() }) },
        handler: ({ body }) => ({ ok: true, name: body.name, quantity: body.quantity }),
      }),
    ],
  };
  return buildApp({ modules: [...MODULES, benchModule] }).app;
}

// P5: the full stack and a sign-in's CPU work: the password check of the auth module (bcrypt at cost 10 against a
// stored hash), in its worker pool (`signin`) or on the event loop as before (`signin-inline`).
function signInApp(inline) {
  const { z } = fromFunctions('zod');
  const bcrypt = fromFunctions('bcryptjs');
  const { buildApp } = fromBundle('app');
  const { MODULES } = fromBundle('modules/index');
  const { defineRoute } = fromBundle('platform/core/http/route');
  const { createPasswordHasher } = fromBundle('modules/auth/passwords');
  const hasher = createPasswordHasher(10, { inline });
  const stored = bcrypt.hashSync('correct horse battery', 10);
  const benchModule = {
    name: 'bench',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/bench/sign-in',
        tag: 'health',
        summary: 'benchmark password check',
        auth: 'public',
        request: { body: z.object({ password: z.string().min(1).max(72) }) },
        response: { description: 'verified', schema: z.object({ ok: z.boolean() }) },
        handler: async ({ body }) => ({ ok: await hasher.verify(body.password, stored) }),
      }),
    ],
  };
  return buildApp({ modules: [...MODULES, benchModule] }).app;
}

const [kind, port] = process.argv.slice(2);
// Our servers run as the `api` instance does, with its V8 tuning (set before the app is built, as functions/src/index.ts
// does on the first request); plain Express as it comes.
if (kind !== 'plain') fromBundle('platform/core/deploy/v8-tuning').tuneV8();
const app = kind === 'stack' ? stackApp() : kind === 'signin' ? signInApp(false) : kind === 'signin-inline' ? signInApp(true) : plainApp();
const server = app.listen(Number(port), '127.0.0.1', () => process.send?.({ ready: true }));
process.on('message', (msg) => {
  if (msg === 'stop') server.close(() => process.exit(0));
  // The CPU time this process has used so far (user + system, µs): a round's share is its work, whatever time the
  // machine gave to others meanwhile.
  if (msg === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ answer: 'cpu', cpuMicros: user + system });
  }
  // The peak resident set of this process so far (kB → MiB): the API's memory under the load just run.
  if (msg === 'peak-rss') {
    const heapLimitMb = Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20);
    process.send?.({ answer: 'peak-rss', peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), heapLimitMb });
  }
});
