/**
 * Probes an earlier run of the design asked (`run --batch --no-wait --probes N`) and left in open chunks: a later batch run
 * collects them whether it asks probes or not, so it needs their specs. They are rebuilt from the design: a cell's
 * questions are the same for every count asked (probeOrder's blocks of 8), so its first max rep + 1 give them, and a
 * chunk's hash checks its rebuilt lines before it is sent.
 */
import type { Design } from '../design/types.js';
import { expandProbes } from '../probes/questions.js';
import type { BatchChunks } from '../store/batch-chunks.js';
import type { TrialSpec } from '../types.js';
import { batchKey, memberKey } from './keys.js';

/** The probes of a run's open probe chunks that `known` (the run's own specs, by batch key) does not hold, rebuilt from the design. */
export function earlierProbes(chunks: BatchChunks, runId: number, design: Design, known: ReadonlyMap<string, TrialSpec>): TrialSpec[] {
  const wanted = new Set<string>();
  let n = 0;
  for (const c of chunks.open(runId)) {
    if (c.kind !== 'probe') continue;
    for (const k of chunks.members(c.id)) {
      const key = memberKey('probe', k);
      if (!known.has(key)) { wanted.add(key); n = Math.max(n, k.rep + 1); }
    }
  }
  return n === 0 ? [] : expandProbes(design, n).filter((s) => wanted.has(batchKey(s)));
}
