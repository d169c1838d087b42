/**
 * The user-facing messages used only in commands/pipeline/ (the route every command shares), as
 * functions of plain values (the convention of core/messages/).
 */
import { q } from '../../core/messages/text.js';

export const pipelineMsg = {
  framingPair: (base: string, alt: string) => `planned framing pair: ${base} (base) vs ${alt} (alternative); choose another with --base/--alt`,
  noLambdaGap: (game: string) => `λ̂ undefined for game ${q(game)}: its expected payoff gap at q = 0.5 is 0 or its payoffs are unknown`,
  compareNoOverlap: (file: string) => `${file}: no cell of the comparison file matches a cell of the run (match models with --map-model DIRECT=RECONSTRUCTED)`,
  wrongDesignKind: (path: string, is: string, wanted: string) => `${path}: the run is a ${is} design; this function analyzes ${wanted} runs (use analyze)`,
  expectOneShotOnly: (path: string) =>
    `--expect: ${path} holds a repeated game; published values are compared with the tables of one-shot two-framing runs only`,
  compareOneShotOnly: (path: string) => `${path}: --compare sets reconstructed one-shot rates beside a one-shot run; this run is a repeated game`,
  roundsOneFraming: (path: string) =>
    `--rounds: ${path} has one framing, so no two-framing tables are made; cells, rounds, reactions and the end game read every round`,
  roundsRepeatedOnly: (path: string) => `${path}: --rounds selects rounds of repeated play (a play design or --trials logs); this run is a one-shot game`,
  factorRepeatedOnly: (path: string) =>
    `${path}: --factor keeps a decision factor of repeated play (a play design or --trials logs); a one-shot run's factors are its cells already`,
  unknownDecisionFactor: (path: string, factor: string, known: readonly string[]) =>
    (`${path}: --factor ${factor}: no decision has a factor of that ` +
      `name${known.length ? ` (its decisions have: ${known.join(', ')})` : ' (its decisions have no further factors)'}`),
  expectNeedsTwoFraming: (store: string) =>
    `--expect: ${store} holds a context-enrichment run; published values are compared with two-framing tables (table2, table3, family) only`,
  adaptiveMatchAnalysis: (method: string, early: number, units: number, used: number, fixed: number, calls: number, fixedCalls: number) =>
    (`adaptive run: ${early} of ${units} stopped before max_trials, ${used.toLocaleString('en-US')} matches of the fixed design's `
      + `${fixed.toLocaleString('en-US')} (${calls.toLocaleString('en-US')} calls of ${fixedCalls.toLocaleString('en-US')}); reports/adaptive.csv holds each `
      + `one's ${method} confidence-sequence interval over its matches at its stopping look, valid under the data-dependent stopping; the fixed-n `
      + 'intervals of the other tables assume a number of matches fixed in advance and are not valid here'),
  adaptiveAnalysis: (method: string, early: number, units: number, used: number, fixed: number) =>
    (`adaptive run: ${early} of ${units} stopped before max_trials, ${used.toLocaleString('en-US')} trials of the fixed ` +
      `design's ${fixed.toLocaleString('en-US')}; `)
    + `reports/adaptive.csv holds each one's ${method} confidence-sequence interval at its stopping look, valid under the data-dependent stopping; `
    + 'the fixed-n intervals of table3.csv assume a sample size fixed in advance and are not valid here',
  exploratory: (flags: readonly string[]) =>
    `exploratory: ${flags.join(', ')} differ${flags.length === 1 ? 's' : ''} from the sealed plan; the verdicts, metrics.json and the report say so`,
  verdictsLine: (supported: number, total: number, file: string) => `verdicts: ${supported} of ${total} hypotheses supported (${file})`,
};
