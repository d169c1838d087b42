/**
 * The files of a selective-robustness analysis: reports/selective.csv with exactly
 * the contract's columns (fractions, not percent), the context-enrichment summary metrics, per-cell means, the
 * imputation sensitivity, a JSON of everything and a Markdown summary; plus the terminal table.
 * Numbers in CSV/JSON are full precision; Markdown and the terminal round for people.
 */
import { mdCell } from '../../render/markdown.js';
import { toCsv } from '../../render/csv.js';
import { finiteOrNull, fixed, interval, jsonText } from '../../core/format.js';
import type { SelectiveAnalysis, SelectiveRow } from './types.js';
import { points, pointsInterval } from './equivalence.js';
import { withNameColumns, type DisplayNames } from '../../core/display-names.js';

/** A CSV of ids; with display names a `model_name` column after the others (none without names: the file as it was). */
function namedCsv(names: DisplayNames | undefined, header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const t = withNameColumns(names, header, rows, ['model']);
  return toCsv(t.header, t.rows);
}

/** The contract's header of reports/selective.csv. */
export const SELECTIVE_COLUMNS = ['model', 'condition', 'surface_sensitivity', 'ss_lo', 'ss_hi', 'world_responsiveness', 'wr_lo', 'wr_hi', 'verdict'] as const;

/** reports/selective-equivalence.csv: the verdicts' equivalence bounds (docs/methods.md §12). */
export const EQUIVALENCE_COLUMNS = ['model', 'condition', 'surface_sensitivity', 'ss_lower_simultaneous', 'ss_upper_simultaneous', 'invariance',
  'directional_sensitivity', 'ds_lo', 'ds_hi', 'directional'] as const;

export function equivalenceCsv(rows: readonly SelectiveRow[], names?: DisplayNames): string {
  return namedCsv(names, EQUIVALENCE_COLUMNS,
    rows.map((r) => [r.model, r.condition, r.ss, r.ssLower, r.ssUpper, r.invariance, r.ds, r.dsLo, r.dsHi, r.directional]));
}

export function selectiveCsv(rows: readonly SelectiveRow[], names?: DisplayNames): string {
  return namedCsv(names, SELECTIVE_COLUMNS, rows.map((r) => [r.model, r.condition, r.ss, r.ssLo, r.ssHi, r.wr, r.wrLo, r.wrHi, r.verdict]));
}

export function paraphraseCsv(rows: readonly SelectiveRow[], names?: DisplayNames): string {
  return namedCsv(names, ['model', 'condition', 'jsd_divergence', 'jsd_lo', 'jsd_hi', 'js_distance', 'dist_lo', 'dist_hi', 'directional_sensitivity',
    'ds_lo', 'ds_hi'],
    rows.map((r) => [r.model, r.condition, r.jsd, r.jsdLo, r.jsdHi, r.dist, r.distLo, r.distHi, r.ds, r.dsLo, r.dsHi]));
}

export function cellsCsv(a: SelectiveAnalysis): string {
  return namedCsv(a.names, ['model', 'condition', 'world', 'format', 'valid_calls', 'invalid', 'error', 'imputed', 'p_transfer_mean'],
    a.cells.map((c) => [c.model, c.condition, c.world, c.format, c.valid, c.invalid, c.error, c.imputed, c.p]));
}

export function imputationCsv(a: SelectiveAnalysis): string {
  return namedCsv(a.names, ['model', 'condition', 'surface_sensitivity', 'ss_missing_at_zero', 'ss_missing_at_full', 'world_responsiveness',
    'wr_missing_at_zero', 'wr_missing_at_full', 'imputed_calls', 'calls', 'max_abs_change'],
  a.imputation.rows.map((r) => [r.model, r.condition, r.ss, r.ssZero, r.ssFull, r.wr, r.wrZero, r.wrFull, r.imputed, r.calls, r.maxChange]));
}

export function selectiveJson(a: SelectiveAnalysis): string {
  return jsonText({
    run: { id: a.source.run.id, design: a.source.run.designName, design_hash: a.source.run.designHash, tool_version: a.source.run.toolVersion },
    command: a.command,
    input: a.provenance,
    ...(a.names ? { names: a.names } : {}),
    settings: { seed: a.settings.seed, reps: a.settings.reps },
    synthetic_models: a.facts.simulated,
    definitions: {
      units: 'fractions (0.05 = 5 percentage points)',
      surface_sensitivity: ('mean over worlds of [mean over non-canonical formats of |p(canonical) − p(format)|] (the context-enrichment paper; ' +
        'docs/methods.md)'),
      world_responsiveness: `mean over formats of p(${a.facts.spec.worlds[0]}) − p(${a.facts.spec.worlds[1]}) (registered direction)`,
      jsd_divergence: ('paraphrase invariance (the context-enrichment summary): mean over worlds of the mean Jensen–Shannon DIVERGENCE (nats) between the ' +
        'canonical format and each other format'),
      js_distance: 'the same with the Jensen–Shannon DISTANCE √JSD (what scipy.spatial.distance.jensenshannon returns)',
      directional_sensitivity: `(p_new − p_old)·direction on the canonical format: p(${a.facts.spec.worlds[0]}) − p(${a.facts.spec.worlds[1]})`,
      intervals: `95 % percentile bootstrap, resampling the calls within each cell, ${a.settings.reps} replicates, seed ${a.settings.seed}`,
    },
    design: { scenario: a.facts.scenario, actions: a.facts.actions, conditions: a.facts.conditions, worlds: a.facts.spec.worlds,
      formats: a.facts.spec.formats },
    thresholds: { max_surface_sensitivity: a.thresholds.maxSurface, min_world_responsiveness_lo: a.thresholds.minWorldLo },
    rows: a.rows.map((x) => ({
      model: x.model, condition: x.condition, surface_sensitivity: finiteOrNull(x.ss), ss_lo: finiteOrNull(x.ssLo), ss_hi: finiteOrNull(x.ssHi),
      world_responsiveness: finiteOrNull(x.wr), wr_lo: finiteOrNull(x.wrLo), wr_hi: finiteOrNull(x.wrHi), verdict: x.verdict,
      ss_simultaneous: { lower: finiteOrNull(x.ssLower), upper: finiteOrNull(x.ssUpper) }, invariance: x.invariance, directional: x.directional,
      jsd_divergence: finiteOrNull(x.jsd), jsd_lo: finiteOrNull(x.jsdLo), jsd_hi: finiteOrNull(x.jsdHi), js_distance: finiteOrNull(x.dist),
        dist_lo: finiteOrNull(x.distLo), dist_hi: finiteOrNull(x.distHi),
      directional_sensitivity: finiteOrNull(x.ds), ds_lo: finiteOrNull(x.dsLo), ds_hi: finiteOrNull(x.dsHi),
    })),
    imputation: {
      imputed_calls: a.imputation.imputed, scored_calls: a.imputation.scored, max_abs_change: a.imputation.maxChange,
      rankings_unchanged: a.imputation.rankingsUnchanged,
    },
    incomplete: a.layout.missing,
  }, 2) + '\n';
}

export function selectiveMarkdown(a: SelectiveAnalysis): string {
  const [hi, lo] = a.facts.spec.worlds;
  const out: string[] = [
    `# Selective robustness: ${a.source.run.designName} (run ${a.source.run.id})`, '',
  ];
  if (a.facts.simulated.length) out.push(
    `> **Synthetic data**: ${a.facts.simulated.join(', ')} answered through the simulated provider; these numbers say nothing about any real model.`, '');
  out.push(
    `Scenario \`${a.facts.scenario}\`, actions ${a.facts.actions[0]} / ${a.facts.actions[1]}; worlds \`${hi}\` (registered higher) vs \`${lo}\`; `
    + `formats ${a.facts.spec.formats.map((f, i) => `\`${f}\`${i === 0 ? ' (canonical)' : ''}`).join(', ')}.`, '',
    (`Surface sensitivity (SS) = mean over worlds of the mean |p(canonical) − p(format)| over the other formats; world responsiveness (WR) = mean over ` +
      `formats of p(${hi}) − p(${lo}). `)
    + (`p = mean first-action probability of a cell's calls. 95 % intervals: ${a.settings.reps} bootstrap replicates resampling the calls within each cell ` +
      `(seed ${a.settings.seed}). `)
    + `Values in **percentage points** here; reports/selective.csv holds fractions.`, '',
    (`Verdict: *selectively robust* when the simultaneous 95 % upper bound of SS is ≤ ${points(a.thresholds.maxSurface)} points (invariant by equivalence; ` +
      `*surface-sensitive* when its lower bound is above it, *inconclusive* otherwise) and the WR interval lies ` +
      `above ${points(a.thresholds.minWorldLo)} points. The bounds, and directional sensitivity judged the same way: reports/selective-equivalence.csv.`), '',
    '| Model | Condition | SS | SS 95 % | WR | WR 95 % | Verdict |', '|---|---|---:|---|---:|---|---|',
    ...a.rows.map((r) =>
      `| ${mdCell(r.model)} | ${mdCell(r.condition)} | ${points(r.ss)} | ${pointsInterval(r.ssLo, r.ssHi)} | ${points(r.wr)} | ${pointsInterval(r.wrLo,
        r.wrHi)} | ${r.verdict} |`),
    '', '## Paraphrase invariance and directional sensitivity', '',
    'JSD is the Jensen–Shannon **divergence** (natural log, 0 … ln 2 ≈ 0.693) between the canonical format and each other format, averaged; '
    + ('the JS **distance** √JSD (scipy\'s `jensenshannon`) is given beside it. Directional sensitivity = p(new) − p(old) in the registered direction, on ' +
      'the canonical format.'), '',
    '| Model | Condition | JSD (divergence) | 95 % | JS distance | 95 % | Directional sensitivity | 95 % |', '|---|---|---:|---|---:|---|---:|---|',
    ...a.rows.map((r) =>
      `| ${mdCell(r.model)} | ${mdCell(r.condition)} | ${fixed(r.jsd, 4)} | ${interval(r.jsdLo, r.jsdHi, 4)} | ${fixed(r.dist, 3)} | ${interval(r.distLo,
        r.distHi, 3)} | ${fixed(r.ds, 3)} | ${interval(r.dsLo, r.dsHi, 3)} |`),
    '', '## Imputation sensitivity', '',
    a.imputation.scored === 0 ? ('The calls were scored by parsing sampled text (no first-token probabilities), so nothing was ' +
      'imputed.') : (`${a.imputation.imputed} of ${a.imputation.scored} scored calls lacked one action among the returned candidates; the missing action ` +
        `was imputed at half the unreturned mass. `)
    + `With every imputed call at 0 or at the full unreturned mass, the metrics change by at most **${fixed(100 * a.imputation.maxChange, 2)} points** `
    + (`(the context-enrichment paper reports ≤ 0.49); the order of the conditions within each model ` +
      `is ${a.imputation.rankingsUnchanged ? 'unchanged' : '**changed**'}. Per group: reports/selective-imputation.csv.`),
  );
  if (a.layout.missing.length) out.push('', `Left out (a world × format cell without valid calls): ${a.layout.missing.join('; ')}.`);
  out.push('', ('Files: reports/selective.csv, selective-equivalence.csv, selective-paraphrase.csv, selective-cells.csv, selective-imputation.csv, ' +
    'selective.json, selective.tex; figures/selective-plane.{vl.json,svg,png}.'), '');
  return out.join('\n');
}

/** The terminal table (percentage points, rounded). */
export function selectiveText(rows: readonly SelectiveRow[]): string {
  const head = ['model', 'condition', 'SS', 'SS 95%', 'WR', 'WR 95%', 'verdict'];
  const body = rows.map((r) => [r.model, r.condition, points(r.ss), pointsInterval(r.ssLo, r.ssHi), points(r.wr), pointsInterval(r.wrLo, r.wrHi), r.verdict]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(w[i]) : c.padEnd(w[i]))).join('  ').trimEnd();
  return ['Selective robustness (percentage points; reports/selective.csv has fractions)', line(head), ...body.map(line)].join('\n');
}

