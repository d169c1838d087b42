/**
 * verdicts.csv and the report section of a sealed store's analysis: each predicate's verdict,
 * the seal (plan hash and time beside the first and last trial's time) and the deviations.
 */
import { fixed, full } from '../../core/format.js';
import { toCsv } from '../../render/csv.js';
import { mdCell } from '../../render/markdown.js';
import type { VerdictRow } from './verdicts.js';

/** What the verdicts are reported with: the seal, the run's times, the deviations, whether exploratory. */
export interface VerdictReport {
  readonly planSha256: string;
  readonly sealed: string;
  readonly firstTrial: string | null;
  readonly lastTrial: string | null;
  readonly alpha: number;
  readonly correction: string;
  /** Deviations from the plan, one line each (none: empty). */
  readonly deviations: readonly string[];
  /** The flags given that differ from the plan (the analysis is then exploratory). */
  readonly exploratory: readonly string[];
  /** The run's prompt registry: each distinct prompt's SHA-256, the cell that used it first, its trials and its text. */
  readonly prompts: readonly { readonly sha256: string; readonly model: string; readonly game: string; readonly framing: string;
    readonly trials: number; readonly text: string }[];
}

/** The registry as a Markdown table: a prompt's hash, where it was used, and the start of its text. */
function registryLines(r: VerdictReport): string[] {
  if (r.prompts.length === 0) return [];
  const example = (t: string) => mdCell(t.length > 120 ? `${t.slice(0, 120)}…` : t).replace(/\n/g, ' ');
  return ['', '### Prompt registry', '', 'Each distinct prompt once, by SHA-256 (a changed sentence is another hash).', '',
    '| SHA-256 | model | game | framing | trials | prompt (start) |', '|---|---|---|---|---|---|',
    ...r.prompts.map((p) => `| \`${p.sha256}\` | ${mdCell(p.model)} | ${mdCell(p.game)} | ${mdCell(p.framing)} | ${p.trials} | ${example(p.text)} |`)];
}

const HEADER = ['hypothesis', 'predicate', 'test', 'statistic', 'lo', 'hi', 'p', 'p_adjusted', 'verdict', 'pairs', 'status', 'plan_sha256'];

/** reports/verdicts.csv: one row per hypothesis; status confirmatory, or exploratory when flags differ from the plan. */
export function verdictsCsv(rows: readonly VerdictRow[], r: VerdictReport): string {
  const status = r.exploratory.length > 0 ? 'exploratory' : 'confirmatory';
  return toCsv(HEADER, rows.map((v) => [v.id, v.predicate, v.test, full(v.statistic), full(v.lo), full(v.hi), full(v.p), full(v.pAdjusted),
    v.verdict, v.pairs, status, r.planSha256]));
}

/** The report section (Markdown): the seal beside the trials' times, the verdicts, the deviations. */
export function verdictsSection(rows: readonly VerdictRow[], r: VerdictReport): string {
  const lines = [
    `## Preregistered hypotheses${r.exploratory.length > 0 ? ' (EXPLORATORY: flags differ from the plan)' : ''}`, '',
    `Plan SHA-256 \`${r.planSha256}\`, sealed ${r.sealed}; first trial stored ${r.firstTrial ?? 'unknown'}, last ${r.lastTrial ?? 'unknown'}` +
      `${r.firstTrial !== null && r.sealed < r.firstTrial ? ' (the seal precedes every trial)' : ''}. α = ${r.alpha}, correction ${r.correction}.`, '',
    '| hypothesis | predicate | test | statistic | interval | p | adjusted p | verdict |', '|---|---|---|---|---|---|---|---|',
    ...rows.map((v) => `| ${mdCell(v.id)} | ${mdCell(v.predicate)} | ${v.test} | ${fixed(v.statistic, 4)} | ${Number.isNaN(v.lo) ? '' :
      `[${fixed(v.lo, 4)}, ${fixed(v.hi, 4)}]`} | ${fixed(v.p, 4)} | ${fixed(v.pAdjusted, 4)} | ${v.verdict} |`),
    '', r.deviations.length === 0 ? 'Deviations from the plan: none.' : 'Deviations from the plan:', ...r.deviations.map((d) => `- ${mdCell(d)}`),
    ...(r.exploratory.length > 0 ? ['', `Exploratory: ${r.exploratory.join(', ')} differ from the sealed plan.`] : []), ...registryLines(r), '',
  ];
  return lines.join('\n');
}
