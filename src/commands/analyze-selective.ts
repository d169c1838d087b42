/**
 * `samegame analyze STORE` on a context-enrichment run: the selective-robustness analysis
 * (src/analyses/selective), its files written as one atomic set unless dryRun.
 */
import { writeFilesAtomic } from '../core/atomic.js';
import type { StoreTable } from '../sources/store.js';
import { selectiveAnalysis, type SelectiveAnalysis, type SelectiveOptions } from '../analyses/selective/index.js';

export function analyzeSelective(source: StoreTable, opts: SelectiveOptions & { readonly dryRun?: boolean }): SelectiveAnalysis {
  const a = selectiveAnalysis(source, opts);
  if (!opts.dryRun) writeFilesAtomic(a.files);
  return a;
}
