// Per-hash time of bcryptjs (pure JS, as the API runs it) at the costs BCRYPT_COST allows in practice.
import { createRequire } from 'node:module';
import path from 'node:path';
import { median } from './stats.mjs';

export async function measureBcrypt({ functionsDir, costs = [10, 11, 12], rounds = 7, onProgress }) {
  const require = createRequire(path.join(functionsDir, 'package.json'));
  const bcrypt = require('bcryptjs');
  const out = {};
  for (const cost of costs) {
    const samples = [];
    for (let i = 0; i < rounds; i += 1) {
      const started = performance.now();
      await bcrypt.hash('correct horse battery staple', cost);
      samples.push(performance.now() - started);
    }
    out[cost] = Math.round(median(samples) * 10) / 10;
    onProgress?.(cost, out[cost]);
  }
  return { rounds, medianMsByCost: out };
}
