/**
 * Benchmark (in `npm run bench adaptive`): the look of an adaptive repeated game after a wave — every match's stored moves
 * replayed to its observation (seat 1's cooperation rate), every unit's betting sequence rebuilt over its matches — beside
 * the store writes of that wave's decisions (one fsynced transaction per decision, as the engine writes). One model, two
 * games, two framings, against itself and a fixed strategy, 10 rounds, 100 matches per cell stored; the wave: 10 matches
 * per cell, 2 games × 2 framings × 10 × 10 rounds × 3 LLM seats = 1,200 decisions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseDesign } from '../src/live/design/design.js';
import { llmSeats, planMatches, repOf, type MatchPlan } from '../src/live/repeated/plan.js';
import { matchStatuses } from '../src/live/adaptive/matches.js';
import { TrialStore } from '../src/live/store/store.js';
import type { TrialRecord } from '../src/live/types.js';
import { RUN, trial } from './store-section.js';
import type { BenchRow } from './util.js';

const MATCHES = 100, WAVE = 10, ROUNDS = 10;
const DESIGN = parseDesign(`name: bench-adaptive-matches
models: [{ id: A, provider: simulated }]
games: [prisoners-dilemma, stag-hunt]
framings: [business, friend-sharing]
trials: ${MATCHES}
play: { rounds: ${ROUNDS}, opponents: [self, always-cooperate] }
stop: { target: shift, half_width: 0.01, wave: ${WAVE} }
`, 'bench.yaml');

/** The decisions of one match (every seat's C or D by a fixed pattern). */
function decisions(p: MatchPlan, runId: number): TrialRecord[] {
  const out: TrialRecord[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const seat of llmSeats(p)) {
      out.push({ ...trial(0), runId, model: 'A', game: p.game.id, framing: p.framing.id, factors: {}, rep: repOf(DESIGN.play!, p.match, round, seat),
        action: (p.match * 7 + round * 3 + seat) % 5 < 2 ? 'C' : 'D',
        play: { opponent: seat === 1 ? p.opponent : 'A', match: p.match, round, seat, opponentMove: p.seat2.kind === 'strategy' ? 'C' : null } });
    }
  }
  return out;
}

export function benchAdaptiveMatches(): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-adaptive-matches-'));
  try {
    const store = TrialStore.open(join(dir, 'matches.sqlite'));
    const runId = store.openRun(RUN).run.id;
    store.preparePlay();
    const plans = planMatches(DESIGN);
    const db = (store as unknown as { db: { transaction: (f: () => void) => () => void } }).db;
    // Everything but the last wave, in one transaction (not timed).
    db.transaction(() => { for (const p of plans) if (p.rep < MATCHES - WAVE) for (const d of decisions(p, runId)) store.write(d); })();
    // The last wave, one fsynced transaction per decision (timed).
    let t = performance.now();
    let n = 0;
    for (const p of plans) if (p.rep >= MATCHES - WAVE) for (const d of decisions(p, runId)) { store.write(d); n++; }
    const writes = performance.now() - t;
    t = performance.now();
    const st = matchStatuses(DESIGN.stop!, DESIGN, store.playMoves(runId));
    const look = performance.now() - t;
    store.close();
    if (st.length !== 4 || st.some((s) => s.n !== MATCHES)) throw new Error('the look did not read every unit to its last match');
    return [{
      name: `adaptive repeated look after a wave (4 contrasts, ${plans.length} matches, ${plans.length * ROUNDS * 1.5} decisions stored)`, value: look,
      unit: 'ms', baseline: writes, baselineName: `store writes of the wave (${n} fsynced decisions)`, note: `look / writes = ${(look / writes).toFixed(3)}`,
    }];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
