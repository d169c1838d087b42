import { UNBOUNDED, type Estimand } from './bootstrap.js';

/** Several estimands evaluated on the same rates (so on the same bootstrap replicates). */
export function combineEstimands(...parts: Estimand[]): Estimand {
  const names = parts.flatMap((p) => [...p.names]);
  const offsets: number[] = [];
  let o = 0;
  for (const p of parts) { offsets.push(o); o += p.names.length; }
  const info = parts.some((p) => p.info) ? parts.flatMap((p) => [...(p.info ?? p.names.map(() => UNBOUNDED))]) : undefined;
  return {
    names,
    ...(info ? { info } : {}),
    evaluate(rates, out) {
      parts.forEach((p, i) => p.evaluate(rates, out.subarray(offsets[i], offsets[i] + p.names.length)));
    },
  };
}
