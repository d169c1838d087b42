import { join, resolve } from 'node:path';
import type { CellTable } from '../core/cells.js';
import { packageRoot, SHIPPED_RATES } from '../core/paths.js';
import { readRates, type RatesInput } from './rates-csv.js';
import { foldExtraFactors, readTrials, type ProvenanceColumn, type TrialsInput } from './trials.js';

/** Where the cells come from: a rates/counts file (--data) or a per-trial file (--trials). */
export interface InputChoice {
  /** Rates file; the shipped Same Game, Different Story data when neither it nor trials is given. */
  readonly data?: string;
  /** Per-trial file (CSV or JSONL), one row per decision. */
  readonly trials?: string;
  /** Cluster column of a per-trial file (default "cluster" when present). */
  readonly cluster?: string;
  /** Columns of a per-trial file that become factors. */
  readonly factors?: readonly string[];
}

/** An input of the two-framing commands, whichever reader read it. */
export interface AnalysisInput {
  readonly path: string;
  readonly sha256: string;
  /** What the cells are: "observed counts", "reconstructed from rates", "per-trial decisions" … */
  readonly kind: string;
  /** model × game × framing (a per-trial file's extra factors folded into the game). */
  readonly table: CellTable;
  readonly rates?: RatesInput;
  readonly trials?: TrialsInput;
  readonly provenance: readonly ProvenanceColumn[];
}

/** Provenance columns of a rates file with their distinct values (first-appearance order). */
function ratesProvenance(input: RatesInput): ProvenanceColumn[] {
  return input.provenanceColumns.map((name) => {
    const counts = new Map<string, number>();
    for (const r of input.rows) {
      const v = r.cell.provenance?.[name] ?? '';
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    return { name, values: [...counts].map(([value, rows]) => ({ value, rows })) };
  });
}

/** Read the chosen input with its planned framings (the commands check --data/--trials exclusivity). */
export function readInput(choice: InputChoice, base: string, alt: string): AnalysisInput {
  if (choice.trials !== undefined) {
    const t = readTrials(resolve(choice.trials), { base, alt, cluster: choice.cluster, factors: choice.factors, displayPath: choice.trials });
    return { path: t.path, sha256: t.sha256, kind: t.kind, table: foldExtraFactors(t.table), trials: t, provenance: t.provenanceColumns };
  }
  const displayPath = choice.data ?? SHIPPED_RATES;
  const path = choice.data ? resolve(choice.data) : join(packageRoot, SHIPPED_RATES);
  const r = readRates(path, { base, alt, displayPath });
  return { path: r.path, sha256: r.sha256, kind: r.kind, table: r.table, rates: r, provenance: ratesProvenance(r) };
}

/** True when any cell resamples clusters. */
export const isClustered = (table: CellTable): boolean => table.cells.some((c) => c.obs.kind === 'clustered');
