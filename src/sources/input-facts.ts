/** What the two-framing commands read off an input beyond its cells, by reader: the Appendix C facts, counts, provenance. */
import { levels, type CellTable } from '../core/cells.js';
import type { DecimalText } from '../core/decimal.js';
import { UserError } from '../core/errors.js';
import type { RatesInput } from './rates-csv.js';
import type { ProvenanceColumn, TrialsInput } from './trials.js';
import { sourcesMsg } from './messages.js';

/** What the Appendix C checks read off an input beyond its cells. */
export interface InputFacts {
  /** The decisions the input says there are, and how that number was obtained. */
  readonly expectedDecisions: { readonly value: number; readonly source: string };
  /** Rows that reported a rate: the count must reproduce it at its decimals. */
  readonly reportedRates?: readonly { cell: string; x: number; n: number; rate: DecimalText }[];
  /** The planned cells the cell count is held to (a per-trial file's grid). */
  readonly grid?: 'crossed' | 'as-played';
}

/**
 * The decisions a rates file represents (Same Game, Different Story Appendix C: 3 × 4 × 2 cells × 300 = 7,200): with
 * one n for every row, models × games × framings × n, so a missing or extra cell shows; otherwise
 * Σ n over the rows. The rows that reported a rate, for the counts to reproduce.
 */
export function ratesFacts(rates: RatesInput, table: CellTable): InputFacts {
  const ns = rates.rows.map((r) => (r.cell.obs as { n: number }).n);
  const reportedRates = rates.rows.filter((r) => r.rate).map((r) => ({
    cell: `${r.cell.key.model} / ${r.cell.key.game} / ${r.cell.key.framing}`,
    x: (r.cell.obs as { x: number }).x, n: (r.cell.obs as { n: number }).n, rate: r.rate!,
  }));
  if (ns.every((n) => n === ns[0])) {
    const dims = ['model', 'game', 'framing'].map((f) => levels(table, f).length);
    return { expectedDecisions: { value: dims[0] * dims[1] * dims[2] * ns[0], source: `models × games × framings × n (${dims.join(' × ')} × ${ns[0]})` },
      reportedRates };
  }
  return { expectedDecisions: { value: ns.reduce((a, b) => a + b, 0), source: 'Σ n over the rows of the input' }, reportedRates };
}

/**
 * A per-trial file of C/D or 0/1 decisions as one row of observed counts per cell (the audit moves
 * counts); probabilities and clustered decisions have no counts to move, and are refused.
 */
export function trialCounts(t: TrialsInput, input: Pick<RatesInput, 'path' | 'sha256' | 'table' | 'kind'>): RatesInput {
  if (t.outcome === 'p_cooperate' || t.clusterColumn !== undefined) throw new UserError(sourcesMsg.auditNeedsCounts(input.path, t.kind));
  const rows = input.table.cells.map((cell, i) => ({ line: t.firstLines[i], cell, reconstructed: false }));
  return { path: input.path, sha256: input.sha256, table: input.table, rows, provenanceColumns: [], kind: input.kind };
}

/** Provenance columns of a rates file with their distinct values (first-appearance order). */
export function ratesProvenance(input: RatesInput): ProvenanceColumn[] {
  return input.provenanceColumns.map((name) => {
    const counts = new Map<string, number>();
    for (const r of input.rows) {
      const v = r.cell.provenance?.[name] ?? '';
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    return { name, values: [...counts].map(([value, rows]) => ({ value, rows })) };
  });
}

