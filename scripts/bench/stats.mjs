export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A failed measurement is reported, not fatal: the others still count. */
export async function attempt(name, fn, log = (m) => process.stdout.write(`[superapp]   ${m}\n`)) {
  try {
    return await fn();
  } catch (err) {
    log(`${name} failed: ${err.message}`);
    return { error: err.message };
  }
}
