/**
 * The user-facing messages used only in analyses/meta/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { at } from '../../core/messages/common.js';
import { q } from '../../core/messages/text.js';

export const analysesMetaMsg = {
  manifestSyntax: (file: string, line: number | undefined, detail: string) => at(file, line, undefined, `not valid YAML (${detail})`),
  manifestNotMapping: (file: string) => `${file}: a meta-analysis manifest is a YAML mapping with a "studies" list (see data/meta/manifest.schema.json)`,
  noSource: (kinds: readonly string[]) => `a study needs one source: ${kinds.join(', ')}`,
  twoSources: (a: string, b: string) => `a study has one source; this one has both ${q(a)} and ${q(b)}`,
  sourceOption: (option: string, kind: string) => `${q(option)} belongs to a "${kind}" source`,
  sameFraming: (f: string) => `base and alt are both ${q(f)}: the contrast needs two framings`,
  duplicateStudy: (id: string, line: number | undefined) => `study id ${q(id)} is already used${line === undefined ? '' : ` (line ${line})`}`,
  moderatorMissing: (name: string, study: string) =>
    `moderator ${q(name)} names no column: study ${q(study)} has no such moderator, and it is not study, model or game`,
  protoModerator: () => 'the name __proto__ cannot name a moderator (it is JavaScript\'s prototype key): choose another name',
  moderatorConstant: (name: string, value: string) =>
    `moderator ${q(name)} does not vary: every cell has ${q(value)}, so it cannot explain differences between cells (leave it out)`,
  collinearDropped: (terms: readonly string[]) =>
    `meta-regression: ${terms.map(q).join(', ')} ${terms.length === 1 ? 'is an exact linear combination' : 'are exact linear combinations'}`
    + ' of the terms before (collinear moderators); dropped from the model, as metafor drops redundant predictors',
  fewForPrediction: (scopes: readonly string[], few: number) =>
    `prediction interval from fewer than ${few} cells (or studies) — ${scopes.join('; ')}: τ² is poorly estimated from so few, so read it as rough`,
  predictionClipped: (scopes: readonly string[], range: readonly [number, number]) =>
    `prediction interval cut at the effect's range [${range[0]}, ${range[1]}] — ${scopes.join('; ')}: `
    + 'the normal approximation reached past what the effect can be',
  multilevelNotIdentified: () =>
    'three-level model: no study holds two cells, so the study and cell variances cannot be told apart; no three-level row (the overall row pools the cells)',
  multilevelNoInterval: (studies: number) =>
    `three-level model: ${studies} studies — its t interval would have ${studies - 1} degree of freedom (studies − 1), too few for an interval; `
    + 'the estimate is given without one',
  tooFewCells: (scope: string, k: number) => `${scope}: ${k} cell${k === 1 ? '' : 's'}, no pooled row (pooling needs 2 or more)`,
  notFitted: (scope: string) => `${scope}: the model could not be fitted (singular weights)`,
  notConverged: (scope: string, method: string) => `${scope}: the ${method} iteration for τ² did not converge; its value is the last iterate`,
  tau2Boundary: (scope: string, method: string) =>
    `${scope}: the ${method} likelihood is higher at τ² = 0 than at the maximum its iteration reached inside the range; τ² is set to 0 (as metafor does)`,
  regressionNotFitted: (k: number,
    p: number) => `meta-regression: ${k} cells cannot fit ${p} coefficients (needs more cells than coefficients and moderators that vary)`,
  identicalStudies: (a: string, b: string, k: number) =>
    (`studies ${q(a)} and ${q(b)} give identical effects in all ${k} of their cells: they may be one study's data read twice, and both enter the overall ` +
      `estimate (in the funnel plot their points coincide)`),
  influenceSkipped: (k: number, max: number) =>
    `influence diagnostics: ${k} cells, more than ${max} (each cell's refit runs over all the others); no reports/meta-influence.csv`,
  smallStudyTooFew: (k: number, min: number) =>
    `small-study tests (Egger, Begg, trim and fill, PET-PEESE): not run — ${k} cells, fewer than ${min}, too few for them to detect asymmetry`,
  smallStudyNotApplicable: () =>
    'small-study tests: not applicable — every study is a direct run of the user\'s own, so no publication process chose which results exist',
  multilevelRegressionNotFitted: () => 'three-level meta-regression: the model could not be fitted (more coefficients than the cells allow)',
  noMultilevelFixed: () => 'pooling: fixed — no three-level model (its study and cell variances are random effects)',
};
