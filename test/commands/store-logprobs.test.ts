/**
 * A logprob-scored cell whose ok trials carry no first-token probability (stores written before such
 * trials were stored as invalid) is never read as counts of the texts' actions without a word:
 * analyze refuses the store with one line naming it and the cell, exit 2, nothing written.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTrials } from '../../src/commands/export.js';
import { TrialStore } from '../../src/live/store/store.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-store-logprobs-'));
const pair = (model: string, extra: Partial<CellSpec>[]): CellSpec[] => ['business', 'friend-sharing'].map((framing, i) =>
  ({ model, game: 'G', framing, ...extra[i] }));

async function analyzeOf(store: string): Promise<{ code: number | null; stderr: string; out: string }> {
  const out = join(dir, `out-${Math.random().toString(36).slice(2)}`);
  const r = await runCli(['analyze', store, '--out', out, '--reps', '50', '-q']);
  return { code: r.code, stderr: r.stderr, out };
}

describe('a logprob-scored cell without probabilities', () => {
  it('a run scored by logprobs whose ok trials have none: one line, exit 2, nothing written', async () => {
    const store = join(dir, 'none.sqlite');
    // The shape such stores have: status ok, the text's action kept, p_cooperate NULL.
    writeStore(store, { name: 'old', scoring: 'logprobs' }, pair('A', [{ actions: counts(2, 5) }, { actions: counts(4, 5) }]));
    const r = await analyzeOf(store);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${store}: cell ["A","G","business"]: 5 ok trials of a cell scored by first-token log-probabilities carry no probability`);
    expect(existsSync(r.out)).toBe(false);

    // The fallback the line names is explicit: the export, read with --trials, counts the texts' actions.
    const s = TrialStore.openExisting(store);
    let text = '';
    try { await writeTrials(s, 'csv', async (c) => { text += c; }); } finally { s.close(); }
    const file = join(dir, 'none.csv');
    writeFileSync(file, text);
    const t = await runCli(['reproduce', '--trials', file, '--out', join(dir, 'none-out'), '--reps', '50', '-q']);
    expect(t.code, t.stderr).toBe(0);
  });

  it('a cell where some ok trials have probabilities and others not: refused, not read from the probabilities alone', async () => {
    const store = join(dir, 'mixed.sqlite');
    writeStore(store, { name: 'mixed' }, [
      ...pair('A', [{ probs: [0.2, 0.4, 0.9] }, { probs: [0.6, 0.7] }]),
      { model: 'A', game: 'G', framing: 'business', firstRep: 10, actions: counts(1, 2) },
    ]);
    const r = await analyzeOf(store);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${store}: cell ["A","G","business"]: 2 ok trials of a cell scored by first-token log-probabilities carry no probability`);
  });

  it('a sampled run is read as counts, a logprob run with every probability as probabilities', async () => {
    const sampled = join(dir, 'sampled.sqlite');
    writeStore(sampled, { name: 'sampled', scoring: 'sample' }, pair('A', [{ actions: counts(2, 5) }, { actions: counts(4, 5) }]));
    expect((await analyzeOf(sampled)).code).toBe(0);
    const scored = join(dir, 'scored.sqlite');
    writeStore(scored, { name: 'scored', scoring: 'logprobs' }, pair('A', [{ probs: [0.2, 0.4] }, { probs: [0.6, 0.7] }]));
    expect((await analyzeOf(scored)).code).toBe(0);
  });
});
