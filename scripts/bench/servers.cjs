// The two servers P2 compares, each in its own process: `stack` is our full middleware stack
// (request id, CORS, JSON limit, zod validation, response shaping, error handler); `plain` is
// bare Express returning the same JSON.
const path = require('node:path');

const functionsDir = path.join(__dirname, '..', '..', 'functions');
const fromFunctions = (id) => require(require.resolve(id, { paths: [functionsDir] }));

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
  const { buildApp } = require(path.join(functionsDir, 'lib', 'app.js'));
  const { MODULES } = require(path.join(functionsDir, 'lib', 'modules', 'index.js'));
  const { defineRoute } = require(path.join(functionsDir, 'lib', 'platform', 'http', 'route.js'));
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

const [kind, port] = process.argv.slice(2);
const app = kind === 'stack' ? stackApp() : plainApp();
const server = app.listen(Number(port), '127.0.0.1', () => process.send?.({ ready: true }));
process.on('message', (msg) => {
  if (msg === 'stop') server.close(() => process.exit(0));
});
