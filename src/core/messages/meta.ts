/** Messages of `samegame meta` (manifests, effect tables, pooling notes). */
import { at } from './common.js';

const q = (s: string) => JSON.stringify(s);

export const metaMsg = {
  manifestSyntax: (file: string, line: number | undefined, detail: string) => at(file, line, undefined, `not valid YAML (${detail})`),
  manifestNotMapping: (file: string) => `${file}: a meta-analysis manifest is a YAML mapping with a "studies" list (see data/meta/manifest.schema.json)`,
  manifestField: (file: string, line: number | undefined, field: string, what: string) => at(file, line, field, what),
  noSource: (kinds: readonly string[]) => `a study needs one source: ${kinds.join(', ')}`,
  twoSources: (a: string, b: string) => `a study has one source; this one has both ${q(a)} and ${q(b)}`,
  sourceOption: (option: string, kind: string) => `${q(option)} belongs to a "${kind}" source`,
  sameFraming: (f: string) => `base and alt are both ${q(f)}: the contrast needs two framings`,
  duplicateStudy: (id: string, line: number | undefined) => `study id ${q(id)} is already used${line === undefined ? '' : ` (line ${line})`}`,
  moderatorMissing: (name: string, study: string) =>
    `moderator ${q(name)} names no column: study ${q(study)} has no such moderator, and it is not study, model or game`,
  moderatorNoColumn: (name: string, columns: readonly string[]) =>
    `moderator ${q(name)} names no column (the columns are ${columns.map(q).join(', ')})`,
  framingNotHeld: (framing: string, source: string) => `the source does not hold the framing ${q(framing)}: ${source}`,
  sourceProblem: (source: string) => `the source cannot be read: ${source}`,
  noEffects: (file: string) => `${file}: no study gave an effect (every cell was left out)`,
  effectsColumn: (file: string, line: number, field: string, what: string) => at(file, line, field, what),
  badNumber: (value: string, what: string) => `${q(value)} is not ${what}`,
  duplicateEffect: (first: number) => `the same study, model and game as line ${first}`,
  effectsFlagWithManifest: () => 'give either a manifest or --effects FILE.csv, not both',
  needInput: () => 'samegame meta needs a manifest (MANIFEST.yaml) or --effects FILE.csv',
  tooFewCells: (scope: string, k: number) => `${scope}: ${k} cell${k === 1 ? '' : 's'}, no pooled row (pooling needs 2 or more)`,
  notFitted: (scope: string) => `${scope}: the model could not be fitted (singular weights)`,
  notConverged: (scope: string, method: string) => `${scope}: the ${method} iteration for τ² did not converge; its value is the last iterate`,
  regressionNotFitted: (k: number, p: number) => `meta-regression: ${k} cells cannot fit ${p} coefficients (needs more cells than coefficients and moderators that vary)`,
  identicalStudies: (a: string, b: string, k: number) =>
    `studies ${q(a)} and ${q(b)} give identical effects in all ${k} of their cells: they may be one study's data read twice, and both enter the overall estimate (in the funnel plot their points coincide)`,
  noMultilevelFixed: () => 'pooling: fixed — no three-level model (its study and cell variances are random effects)',
};

/**
 * Heterogeneity in words, from I²: the share of the variance of the effects that sampling error
 * does not explain (Higgins & Thompson 2002; their rough bands of 0.25, 0.50, 0.75).
 */
export function heterogeneityWords(I2: number, what: string): string {
  const share = I2.toFixed(2);
  if (!Number.isFinite(I2)) return `I² could not be computed for ${what}`;
  if (I2 >= 0.75) return `I² = ${share}: the ${what} disagree far more than sampling error explains`;
  if (I2 >= 0.5) return `I² = ${share}: the ${what} disagree clearly more than sampling error explains`;
  if (I2 >= 0.25) return `I² = ${share}: the ${what} disagree somewhat more than sampling error explains`;
  if (I2 > 0) return `I² = ${share}: the ${what} agree about as well as sampling error allows`;
  return `I² = 0: the ${what} differ no more than sampling error explains`;
}
