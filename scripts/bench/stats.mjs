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

/** The spread of a measure over its rounds: the lowest, the quartiles and the highest (rounded to 3 places). */
export function spread(values) {
  const r = (x) => Math.round(x * 1000) / 1000;
  return { min: r(Math.min(...values)), p25: r(percentile(values, 25)), p75: r(percentile(values, 75)), max: r(Math.max(...values)) };
}

/** The spread of paired rounds' own ratios, `ours[i] ÷ base[i]`. */
export function pairedSpread(ours, base) {
  if (ours.length !== base.length) throw new Error(`pairedSpread: ${ours.length} rounds against ${base.length}`);
  return spread(ours.map((x, i) => x / base[i]));
}

/** `; the rounds' own ratios: quartiles 1.6–2.1×, highest 2.9×` (a result without them: nothing). */
export const pairedText = (s) => (s ? `; the rounds' own ratios: quartiles ${s.p25}–${s.p75}×, highest ${s.max}×` : '');

/** `0.98× (0.95–1.01)`: a paired ratio with its interquartile range. */
export const withSpread = (ratio, s) => `${ratio}× (${s.p25}–${s.p75})`;
