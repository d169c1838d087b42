/** The result and settings types of the selective-robustness analysis. */
import type { OutputFile } from '../../core/atomic.js';
import type { CellTable } from '../../core/cells.js';
import type { DisplayNames } from '../../core/display-names.js';
import type { Logger } from '../../core/logger.js';
import type { BootstrapResult } from '../../stats/bootstrap.js';
import type { StoreTable } from '../../sources/store.js';
import type { Figure } from '../../render/figure.js';
import type { SelectiveLayout, VerdictThresholds } from './estimand.js';
import type { SelectiveFacts } from './facts.js';
import type { ImputationSensitivity } from './imputation.js';

export interface SelectiveOptions {
  readonly store: string;
  /** The store's SHA-256 when the caller has it (its origin's); hashed here otherwise. */
  readonly storeSha256?: string;
  /** Output directory (reports/ and figures/ go under it). */
  readonly out: string;
  readonly seed?: number;
  readonly reps?: number;
  readonly thresholds?: VerdictThresholds;
  readonly logger?: Logger;
  /** The command line that regenerates the analysis (shown in the report, recorded in selective.json). */
  readonly command?: string;
  /** Display names of the models (the figure, the report and the terminal show them; the CSVs keep the ids and add them). */
  readonly names?: DisplayNames;
  /** `--latex-width`: the text width in pt selective.tex is laid out for (345, a one-column article, by default). */
  readonly latexWidth?: number;
}

/** One model × condition: both metrics and the context-enrichment summary metrics with their intervals, and the verdict. */
export interface SelectiveRow {
  readonly model: string;
  readonly condition: string;
  readonly ss: number; readonly ssLo: number; readonly ssHi: number;
  readonly wr: number; readonly wrLo: number; readonly wrHi: number;
  readonly verdict: string;
  /** Simultaneous 95 % bounds of SS (sup-t over its signed differences) and the invariance verdict they give. */
  readonly ssLower: number; readonly ssUpper: number; readonly invariance: string;
  /** Directional sensitivity's verdict by the same equivalence rule. */
  readonly directional: string;
  readonly jsd: number; readonly jsdLo: number; readonly jsdHi: number;
  readonly dist: number; readonly distLo: number; readonly distHi: number;
  readonly ds: number; readonly dsLo: number; readonly dsHi: number;
}

export interface SelectiveCell {
  readonly model: string; readonly condition: string; readonly world: string; readonly format: string;
  readonly valid: number; readonly invalid: number; readonly error: number; readonly imputed: number;
  /** Mean first-action probability of the cell's valid calls (NaN when none). */
  readonly p: number;
}

export interface SelectiveAnalysis {
  readonly kind: 'selective';
  readonly source: StoreTable;
  readonly facts: SelectiveFacts;
  /** The store's table in design order (model, condition, world, format). */
  readonly table: CellTable;
  readonly layout: SelectiveLayout;
  readonly boot: BootstrapResult;
  readonly rows: readonly SelectiveRow[];
  readonly cells: readonly SelectiveCell[];
  readonly imputation: ImputationSensitivity;
  readonly thresholds: VerdictThresholds;
  readonly settings: { readonly seed: number; readonly reps: number };
  /** The command line that regenerates these outputs. */
  readonly command: string;
  /** The store read: path as given, SHA-256, kind. */
  readonly provenance: { readonly path: string; readonly sha256: string; readonly kind: string };
  readonly figures: readonly Figure[];
  /** The files written (figures/ SVG and PNG only when analyze renders figures). */
  readonly files: readonly OutputFile[];
  readonly reportsDir: string;
  readonly outDir: string;
  /** Display names of the models, when given (namedSelective shows them). */
  readonly names?: DisplayNames;
}
