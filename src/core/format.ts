/**
 * Fixed number formatting for every file samegame writes, so that outputs are byte-identical for
 * a given seed: full precision is JavaScript's shortest round-trip form; NaN is written empty.
 */
export function full(x: number): string {
  return Number.isFinite(x) ? String(x) : '';
}

/** Rounded for people (terminal, Markdown): fixed decimals (0 to 100, what toFixed takes), "−0.000" avoided. */
export function fixed(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return 'NA';
  const s = x.toFixed(Math.max(0, Math.min(100, Math.trunc(digits))));
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

export function interval(lo: number, hi: number, digits = 3): string {
  return `[${fixed(lo, digits)}, ${fixed(hi, digits)}]`;
}
