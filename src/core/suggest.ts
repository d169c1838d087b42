/**
 * "Did you mean": the known name nearest to one that is not known. A name matches when it is the
 * same ignoring case, spaces and punctuation (`GPT4` → `GPT-4`, `Stag hunt` → `Stag Hunt`), else
 * when it is at most a third of its length (at least 1) of edits away (Levenshtein distance on
 * those folded forms); the single nearest wins, and a tie suggests nothing.
 */
const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '');

/** Levenshtein distance, stopping early once every path is above `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]);
    }
    if (best > limit) return limit + 1;
    prev = row;
  }
  return prev[b.length];
}

/** The known name nearest to `value`, or undefined when none is near or two are equally near. */
export function nearestName(value: string, known: readonly string[]): string | undefined {
  const v = fold(value);
  const same = [...new Set(known.filter((k) => fold(k) === v))];
  if (same.length === 1) return same[0];
  if (same.length > 1 || v === '') return undefined;
  const limit = Math.max(1, Math.floor(v.length / 3));
  let best: string | undefined;
  let bestD = limit + 1;
  let tie = false;
  for (const k of new Set(known)) {
    const d = distance(v, fold(k), limit);
    if (d < bestD) { best = k; bestD = d; tie = false; } else if (d === bestD && d <= limit) tie = true;
  }
  return bestD <= limit && !tie ? best : undefined;
}

/** "; did you mean "X"?" or nothing. */
export const didYouMean = (value: string, known: readonly string[]): string => {
  const n = nearestName(value, known);
  return n === undefined ? '' : `; did you mean ${JSON.stringify(n)}?`;
};
