/** One line of the benchmark table: a measured value beside its baseline, and their ratio. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  baselineName?: string;
  target?: string;
  note?: string;
  peakRssMb?: number;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Seconds to the millisecond; other units to three significant digits (0.213 ms, 4.31 µs, 599 req/min). */
export const fmt = (x: number, unit: string) => (unit === 's' ? `${x.toFixed(3)} s` : `${Number(x.toPrecision(3))}${unit ? ' ' + unit : ''}`);
