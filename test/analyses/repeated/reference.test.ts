import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeRepeatedPlay, type RepeatedAnalysis } from '../../../src/analyses/repeated/analysis.js';
import { cellRows, endGameRows, reactionRows, roundRows } from '../../../src/analyses/repeated/tables.js';
import { decisionsCsv, generateDecisions } from '../../helpers/repeated-decisions.js';
import { REFERENCE_OPTIONS, REFERENCE_REPS } from './reference-options.js';

/*
 * The repeated analysis against an independent numpy computation (reference_repeated.py, run on
 * decisions.csv; its output committed as reference.json). Rates and counts are sums and counts of
 * the same decisions: they must agree exactly. The intervals are two bootstraps with different
 * random streams (numpy's PCG64, samegame's sfc32), so they agree in distribution only: each end
 * must lie within TOL_SD bootstrap standard deviations (numpy's) of numpy's end, and the
 * replicates' standard deviations must agree within TOL_REL. Derivation of the tolerances: with
 * B = 4,000, the Monte Carlo standard error of a 2.5 % percentile is √(0.025·0.975/B) / φ(1.96)
 * ≈ 0.042 bootstrap SDs (normal approximation), so the difference of two independent ends has SE
 * ≈ 0.06 SD and TOL_SD = 0.3 is 5 SEs; the relative SE of a standard deviation from B replicates
 * is ≈ 1/√(2B) ≈ 1.1 %, two of them ≈ 1.6 %, and TOL_REL = 8 % is 5 SEs. (Few-match cells have
 * discrete replicate values: a round rate of 15 one-seat matches takes only the values k/15, and a
 * percentile whose level falls near the boundary between two such values may take either of them
 * in either implementation. The tolerance of an end is therefore TOL_SD · sd plus one lattice step
 * 1/n, n the statistic's decisions (the step of a rate whose replicates all have n decisions;
 * replicates with varying n lie on a finer set). Over our seeds 1–15 the largest end difference
 * was 0.66 of that tolerance.)
 */
const HERE = fileURLToPath(new URL('.', import.meta.url));
const TOL_SD = 0.3, TOL_REL = 0.08;

interface Ref { lo: number | null; hi: number | null; sd: number | null; [k: string]: unknown }
const ref = JSON.parse(readFileSync(`${HERE}reference.json`, 'utf8')) as Record<'cells' | 'rounds' | 'reactions' | 'endgame', Ref[]>;
const input = generateDecisions(REFERENCE_OPTIONS);
const a: RepeatedAnalysis = analyzeRepeatedPlay(input.decisions, { seed: 11, reps: REFERENCE_REPS, interval: 'cluster-bootstrap' });
const num = (x: number | null) => (x === null ? NaN : x);

/** Standard deviation of a statistic's defined replicates. */
function sdOf(index: number): number {
  const r = a.boot!.replicates.subarray(index * a.boot!.reps, (index + 1) * a.boot!.reps).filter((x) => !Number.isNaN(x));
  const mean = r.reduce((s, x) => s + x, 0) / r.length;
  return Math.sqrt(r.reduce((s, x) => s + (x - mean) ** 2, 0) / (r.length - 1));
}

/** Each end's distance from numpy's in units of its tolerance, TOL_SD · sd + 1/n: below 1 passes. */
function intervalDiffs(rows: readonly { lo: number; hi: number; n: number }[], refs: readonly Ref[]): number[] {
  return rows.flatMap((r, i) => {
    const sd = num(refs[i].sd);
    // no interval from fewer than 3 matches (docs/methods.md §21; thin-intervals.test.ts): numpy's bootstrap has one, not compared
    if (Number.isNaN(r.lo) && Number.isNaN(r.hi) && refs[i].lo !== null) return [];
    if (!(sd > 0)) { expect([r.lo, r.hi]).toEqual([num(refs[i].lo), num(refs[i].hi)]); return []; }
    const tol = TOL_SD * sd + 1 / r.n;
    return [Math.abs(r.lo - num(refs[i].lo)) / tol, Math.abs(r.hi - num(refs[i].hi)) / tol];
  });
}

describe('repeated analysis = an independent numpy computation (reference_repeated.py)', () => {
  it('the committed decisions.csv is the generated run', () => {
    expect(decisionsCsv(input.decisions)).toBe(readFileSync(`${HERE}decisions.csv`, 'utf8'));
  });

  it('cells, rounds, reactions and end-game rates and counts equal numpy exactly', () => {
    const strip = <T extends object>(rows: readonly T[], keys: readonly string[]) => rows.map((r) => Object.fromEntries(keys.map((k) => [k, (r as Record<string, unknown>)[k]])));
    const nan = (x: unknown) => (x === null ? NaN : x);
    // the reference names self-play by the model's own id; the tables write it `self` (docs/methods.md §21)
    const label = (r: Ref, k: string) => (k === 'opponent' && r.opponent === r.model ? 'self' : nan(r[k]));
    const fix = (rows: Ref[], keys: string[]) => rows.map((r) => Object.fromEntries(keys.map((k) => [k, label(r, k)])));
    const cellKeys = ['model', 'game', 'framing', 'opponent', 'matches', 'decisions', 'cooperation'];
    expect(strip(cellRows(a), cellKeys)).toEqual(fix(ref.cells, cellKeys));
    const roundKeys = ['model', 'game', 'framing', 'opponent', 'round', 'n', 'cooperation'];
    expect(strip(roundRows(a), roundKeys)).toEqual(fix(ref.rounds, roundKeys));
    const reactionKeys = ['model', 'game', 'framing', 'opponent', 'previous', 'n', 'p_cooperate'];
    expect(strip(reactionRows(a), reactionKeys)).toEqual(fix(ref.reactions, reactionKeys));
    const endKeys = ['model', 'game', 'framing', 'opponent', 'last_round', 'cooperation_last', 'cooperation_before', 'drop'];
    expect(strip(endGameRows(a), endKeys)).toEqual(fix(ref.endgame, endKeys));
    expect(ref.cells.length).toBe(12);
  });

  it('intervals: a cluster bootstrap over matches, within Monte Carlo tolerance of numpy\'s', () => {
    const diffs = [
      ...intervalDiffs(cellRows(a).map((r) => ({ ...r, n: r.decisions })), ref.cells), ...intervalDiffs(roundRows(a), ref.rounds),
      ...intervalDiffs(reactionRows(a), ref.reactions), ...intervalDiffs(endGameRows(a).map((r) => ({ ...r, n: r.n_last })), ref.endgame),
    ];
    expect(diffs.length).toBeGreaterThan(200);
    expect(Math.max(...diffs)).toBeLessThan(1);
    const sds = a.cells.map((_, i) => [sdOf(a.offsets[i]), num(ref.cells[i].sd)]);
    const ends = a.cells.map((_, i) => [sdOf(a.drops[i]), num(ref.endgame[i].sd)]);
    const rel = [...sds, ...ends].map(([ours, theirs]) => Math.abs(ours / theirs - 1));
    expect(Math.max(...rel)).toBeLessThan(TOL_REL);
  });

  it.runIf(spawnSync('python3', ['-c', 'import numpy']).status === 0)('reference.json is what reference_repeated.py computes from decisions.csv', () => {
    const py = spawnSync('python3', [`${HERE}reference_repeated.py`, `${HERE}decisions.csv`, '11', String(REFERENCE_REPS)], { encoding: 'utf8' });
    expect(py.status, py.stderr).toBe(0);
    expect(JSON.parse(py.stdout)).toEqual(ref);
  });
});
