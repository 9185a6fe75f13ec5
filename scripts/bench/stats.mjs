// Small statistics helpers for the benchmark: nearest-rank percentiles over raw samples.

export function percentile(samples, p) {
  const values = samples.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (values.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * values.length);
  return values[Math.min(values.length, Math.max(1, rank)) - 1];
}

export function median(samples) {
  const values = samples.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (values.length === 0) return NaN;
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

export function summarize(samples) {
  return { n: samples.length, median: median(samples), p90: percentile(samples, 90), min: Math.min(...samples), max: Math.max(...samples) };
}

export function ms(value, digits = 1) {
  return Number.isFinite(value) ? `${value.toFixed(digits)} ms` : 'n/a';
}

export function mib(kib, digits = 1) {
  return Number.isFinite(kib) ? `${(kib / 1024).toFixed(digits)} MiB` : 'n/a';
}

export function ratio(value, reference) {
  return Number.isFinite(value) && Number.isFinite(reference) && reference > 0 ? `${(value / reference).toFixed(2)}×` : '—';
}
