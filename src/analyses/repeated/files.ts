import { finiteOrNull, jsonText } from '../../core/format.js';
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { RepeatedDecisions } from '../../core/decisions.js';
import { toolInfo } from '../../core/paths.js';
import { FEW_MATCHES, fewNote, MIN_MATCHES, thinNote, type RepeatedAnalysis } from './analysis.js';
import { cellsCsv, endGameCsv, reactionsCsv, roundsCsv } from './tables.js';
import { modelsCsv, type ModelRow } from './models.js';
import { repeatedLatexFiles } from './latex.js';
import type { LatexOptions } from '../../render/latex.js';

/** What each file of the repeated analysis holds, beside its link in the report. */
export const REPEATED_FILE_NOTES: Readonly<Record<string, string>> = {
  'cells.csv': 'cooperation per model, game, framing and opponent over all rounds, with matches, decisions and interval',
  'rounds.csv': 'cooperation per cell and round, with intervals',
  'reactions.csv': 'P(cooperate) per cell after each previous round (CC, CD, DC, DD), with intervals',
  'endgame.csv': 'cooperation in the last round, in the rounds before it, and the drop with its interval',
  'models.csv': 'per model over its opponents: cooperation, round 1, the last round and the reactions, each with its interval',
  'repeated.json': 'every statistic of the repeated analysis with its interval, the input, the settings and the regenerate command',
};

/** repeated.json: the input, settings, command and every statistic (NaN as null). */
function repeatedJson(a: RepeatedAnalysis, input: RepeatedDecisions, command: string): string {
  const b = a.stats;
  const bootstrap = a.settings.interval === 'cluster-bootstrap';
  return `${jsonText({
    tool: toolInfo(),
    input: { path: input.path, sha256: input.sha256, kind: input.kind, synthetic: input.synthetic, decisions: input.decisionCount ?? input.decisions.length,
      notes: input.notes ?? [] },
    settings: {
      ...(bootstrap ? { seed: a.settings.seed, reps: a.settings.reps } : {}), level: 0.95,
        interval: bootstrap ? 'cluster-bootstrap (percentile)' : 'cluster-robust (CR2, Satterthwaite df)', cluster: 'match',
      min_matches_for_interval: MIN_MATCHES, few_matches_below: FEW_MATCHES, ...(a.settings.factors?.length ? { factors: a.settings.factors } : {}),
    },
    command,
    interval_notes: [thinNote(a), fewNote(a)].filter((n) => n !== undefined),
    ...(a.settings.names && Object.keys(a.settings.names).length ? { names: { ...a.settings.names } } : {}),
    statistics: b.names.map((name, i) => ({
      name, point: finiteOrNull(b.point[i]), lo: finiteOrNull(b.lo[i]), hi: finiteOrNull(b.hi[i]), df: finiteOrNull(b.df[i]), matches: b.matches[i],
        interval: b.kind[i],
      ...(b.defined ? { defined_replicates: b.defined[i] } : {}),
    })),
  }, 2)}\n`;
}

/** reports/models.csv, cells.csv, rounds.csv, reactions.csv, endgame.csv and repeated.json. */
export function repeatedTableFiles(reportsDir: string, a: RepeatedAnalysis, input: RepeatedDecisions, command: string,
  models: readonly ModelRow[], latex: LatexOptions = {}): OutputFile[] {
  return [
    { path: join(reportsDir, 'models.csv'), content: modelsCsv(models, a.settings.factors ?? [], a.settings.names) },
    ...repeatedLatexFiles(reportsDir, a, models, latex),
    { path: join(reportsDir, 'cells.csv'), content: cellsCsv(a) },
    { path: join(reportsDir, 'rounds.csv'), content: roundsCsv(a) },
    { path: join(reportsDir, 'reactions.csv'), content: reactionsCsv(a) },
    { path: join(reportsDir, 'endgame.csv'), content: endGameCsv(a) },
    { path: join(reportsDir, 'repeated.json'), content: repeatedJson(a, input, command) },
  ];
}
