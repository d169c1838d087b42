/**
 * The user-facing messages used only in analyses/audit/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */

/** User-facing messages of `samegame audit` (the convention of core/messages/: every message a function of plain values). */
/** What a consistency flag says of a cell (plain values). */
interface CellFlag {
  readonly status: string;
  readonly line: number;
  readonly rate?: string;
  readonly n: number;
  readonly count: number;
  readonly nearby?: readonly { readonly count: number; readonly rate: string }[];
}


export const auditMsg = {
  tooManyCells: (file: string, cells: number, max: number) =>
    (`${file}: ${cells} cells: the audit takes at most ${max} (its searches grow with the square of the cells); audit a subset of the models, or raise the ` +
      `limit with --max-cells`),
  tooFewReps: (reps: number) => `--reps: ${reps} is too few for an audit (the Monte Carlo error needs at least 40 replicates)`,
  consistencyFlag: (file: string, c: CellFlag) => c.status === 'impossible-rate'
    ? (`${file}:${c.line}: field "rate": ${c.rate} cannot come from any count out of n ` +
      `= ${c.n} (nearest: ${(c.nearby ?? []).map((x) => `${x.count}/${c.n} → ${x.rate}`).join(', ')}); the audit uses ${c.count}`)
    : `${file}:${c.line}: field "cooperate": ${c.count}/${c.n} does not round to the reported rate ${c.rate}`,
  tippingUnverified: (id: string) => `tipping point ${id}: re-running the pipeline on the found table did not overturn the conclusion`,
};
