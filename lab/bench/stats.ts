// Order statistics for the bench's samples: nearest-rank percentiles, no interpolation, so that every
// reported number is one that was actually measured.

/** The value at `percent` (0–100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], percent: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((percent / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export interface Summary {
  readonly median: number;
  /** The slow end: the 95th percentile of a time, the 5th of a rate. */
  readonly p95: number;
  readonly count: number;
}

export function summarise(samples: readonly number[], higherIsBetter: boolean): Summary {
  return { median: median(samples), p95: percentile(samples, higherIsBetter ? 5 : 95), count: samples.length };
}
