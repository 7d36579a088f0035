// P5: GET /health p99 while password sign-ins run at 5/s and 20/s ÷ GET /health p99 alone, on the full middleware
// stack in its own process. "After": the password check in the auth module's worker pool; "before": the same check
// on the event loop (bcryptjs inline), measured in the same run. Sign-ins fire open-loop at the rate; /health is
// probed every 10 ms, one request at a time.
import http from 'node:http';
import { startServer, stopServer } from './server-process.mjs';
import { median, percentile } from './stats.mjs';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


function request(port, method, p, body) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, agent, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${method} ${p} ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/** /health latencies over `seconds`, one probe every 10 ms, while `rate` sign-ins per second fire. */
async function phase(port, seconds, rate) {
  const signIns = [];
  const inFlight = new Set();
  let timer;
  if (rate > 0) {
    timer = setInterval(() => {
      const p = request(port, 'POST', '/api/v1/bench/sign-in', { password: 'correct horse battery' }).then((ms) => signIns.push(ms));
      inFlight.add(p);
      p.finally(() => inFlight.delete(p));
    }, 1000 / rate);
  }
  const health = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    health.push(await request(port, 'GET', '/api/v1/health'));
    await sleep(10);
  }
  clearInterval(timer);
  await Promise.all(inFlight);
  const r = (n) => Math.round(n * 100) / 100;
  return { p50Ms: r(median(health)), p99Ms: r(percentile(health, 99)), probes: health.length, signIns: signIns.length, signInP50Ms: signIns.length ? r(median(signIns)) : null, signInP95Ms: signIns.length ? r(percentile(signIns, 95)) : null };
}

async function measureServer(kind, port, env, seconds, rates, onProgress) {
  const server = await startServer(kind, port, env);
  try {
    await phase(port, 1, 5); // warm-up: routes, JIT, the pool's threads
    const alone = await phase(port, seconds, 0);
    const out = { alone };
    for (const rate of rates) {
      const loaded = await phase(port, seconds, rate);
      out[`at${rate}`] = { ...loaded, ratioP99: Math.round((loaded.p99Ms / alone.p99Ms) * 100) / 100 };
      onProgress?.(kind, rate, out[`at${rate}`]);
    }
    return out;
  } finally {
    await stopServer(server);
  }
}

export async function measureSignInStall({ env, seconds = 8, rates = [5, 20], onProgress }) {
  const after = await measureServer('signin', 18083, env, seconds, rates, onProgress);
  const before = await measureServer('signin-inline', 18084, env, seconds, rates, onProgress);
  return { seconds, rates, after, before };
}
