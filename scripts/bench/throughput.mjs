// P2: requests/s of our full stack on a small zod-validated JSON POST ÷ plain Express, same JSON.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, stopServer } from './server-process.mjs';
import { median, spread } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', '..', 'functions', 'package.json'));
const autocannon = require('autocannon');

const BODY = JSON.stringify({ name: 'Phở bò tái', quantity: 2, tags: ['hot', 'spicy'] });


function load(url, seconds, connections) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY, connections, duration: seconds },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

// A server's answer to one question ('cpu', 'peak-rss'): its reply tagged with the question, or an error when it
// exits or does not answer within 10 s.
function ask(server, question) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`the ${question} question got no answer in 10 s`)), 10_000);
    const onMessage = (m) => m?.answer === question && done(null, m);
    const onExit = (code) => done(new Error(`the server exited (${code}) before answering ${question}`));
    const done = (err, m) => {
      clearTimeout(timer);
      server.off('message', onMessage);
      server.off('exit', onExit);
      if (err) reject(err);
      else resolve(m);
    };
    server.on('message', onMessage);
    server.once('exit', onExit);
    server.send(question);
  });
}

const cpuMicros = async (server) => (await ask(server, 'cpu')).cpuMicros;

export async function measureThroughput({ env, rounds = 5, seconds = 5, warmupSeconds = 2, connections = 20, onProgress = () => {} }) {
  const servers = { stack: await startServer('stack', 18081, env), plain: await startServer('plain', 18082, env) };
  const urls = { stack: 'http://127.0.0.1:18081/api/v1/bench/echo', plain: 'http://127.0.0.1:18082/api/v1/bench/echo' };
  try {
    // The stack must answer the same JSON as plain Express, or the comparison means nothing.
    for (const kind of ['stack', 'plain']) {
      const res = await fetch(urls[kind], { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
      const body = await res.json();
      if (res.status !== 200 || body.ok !== true || body.quantity !== 2) throw new Error(`${kind} answered ${res.status} ${JSON.stringify(body)}`);
    }
    for (const kind of ['stack', 'plain']) await load(urls[kind], warmupSeconds, connections);
    const rps = { stack: [], plain: [] };
    const perCpuSecond = { stack: [], plain: [] };
    for (let i = 0; i < rounds; i++) {
      // Alternate the order so drift over time hits both sides.
      const order = i % 2 === 0 ? ['stack', 'plain'] : ['plain', 'stack'];
      for (const kind of order) {
        const cpuBefore = await cpuMicros(servers[kind]);
        const result = await load(urls[kind], seconds, connections);
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        const cpuUsed = (await cpuMicros(servers[kind])) - cpuBefore;
        rps[kind].push(result.requests.average);
        perCpuSecond[kind].push(result.requests.total / (cpuUsed / 1e6));
      }
      onProgress(i + 1, rounds, rps);
    }
    const stack = median(rps.stack);
    const plain = median(rps.plain);
    // Each round's own ratio (its two loads back to back): a busy machine slows both of a round alike, so the median
    // of these holds where the ratio of the two medians moves with whichever rounds the load hit.
    const paired = rps.stack.map((s, i) => s / rps.plain[i]);
    // Requests per second of the server's own CPU time: the work a request costs, which the machine's other tenants
    // (moving wall-clock rounds by ±30 % here) change less than they change the time it takes.
    const pairedCpu = perCpuSecond.stack.map((s, i) => s / perCpuSecond.plain[i]);
    const { peakRssMb: stackPeakRssMb, heapLimitMb } = await ask(servers.stack, 'peak-rss');
    return {
      stackPeakRssMb,
      heapLimitMb,
      stackMedianRps: Math.round(stack),
      plainMedianRps: Math.round(plain),
      ratio: Math.round(median(paired) * 1000) / 1000,
      cpuRatio: Math.round(median(pairedCpu) * 1000) / 1000,
      cpuSpread: spread(pairedCpu),
      stackPerCpuSecond: Math.round(median(perCpuSecond.stack)),
      plainPerCpuSecond: Math.round(median(perCpuSecond.plain)),
      ratioOfMedians: Math.round((stack / plain) * 1000) / 1000,
      spread: spread(paired),
      roundsRps: rps,
      rounds,
      secondsPerRound: seconds,
      connections,
    };
  } finally {
    await stopServer(servers.stack);
    await stopServer(servers.plain);
  }
}
