import { TrialStore } from '../../src/live/store/store.js';
import type { Action, TrialRecord } from '../../src/live/types.js';

export interface CellSpec {
  model: string; game: string; framing: string;
  /** Actions of the cell's trials in rep order; null = invalid. */
  actions?: (Action | null)[];
  /** Per-trial p_cooperate (logprob scoring). */
  probs?: number[];
  factors?: Record<string, string>;
  /** Rep of the first trial (0 unless given): cells that differ only in factors share the (model, game, framing, rep) key. */
  firstRep?: number;
}

/** Write a trial store directly (no runner): one run of a design document, the given trials. */
export function writeStore(path: string, design: Record<string, unknown>, cells: CellSpec[]): void {
  const store = TrialStore.open(path);
  try {
    const { run } = store.openRun({ name: String(design.name ?? 'test'), hash: JSON.stringify(design), json: JSON.stringify(design), toolVersion: 'test', started: '2026-01-01T00:00:00Z' });
    for (const c of cells) {
      const n = c.actions?.length ?? c.probs?.length ?? 0;
      for (let rep = 0; rep < n; rep++) {
        const action = c.actions ? c.actions[rep] : (c.probs![rep] >= 0.5 ? 'C' : 'D');
        const t: TrialRecord = {
          runId: run.id, model: c.model, game: c.game, framing: c.framing, rep: (c.firstRep ?? 0) + rep, factors: c.factors ?? {},
          prompt: 'p', request: '{}', response: '{}', text: action ?? 'unclear', action,
          pCooperate: c.probs ? c.probs[rep] : null, scoring: null, modelSnapshot: 'test', inputTokens: 100, outputTokens: 5,
          latencyMs: 1, status: action === null ? 'invalid' : 'ok', error: null, attempts: 1,
        };
        store.write(t);
      }
    }
  } finally {
    store.close();
  }
}

/** x C's then n − x D's. */
export const counts = (x: number, n: number): Action[] => Array.from({ length: n }, (_, i) => (i < x ? 'C' : 'D'));
