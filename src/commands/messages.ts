/**
 * The user-facing messages used only in commands/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { q } from '../core/messages/text.js';

export const commandsMsg = {
  needDataOrStore: () => 'give a pilot store (samegame plan STORE) or --data FILE (not both)',
  planPriceSplit: () => '--price IN,OUT needs a pilot store\'s input and output tokens: '
    + 'give one price for both (--price USD) with --data or a store without them',
  planTwoFramingOnly: (path: string, factors: readonly string[]) =>
    `${path}: the run has the factors ${factors.join(', ')} (a context-enrichment design); plan covers the two-framing statistics R and shift only`,
  planAttenuation: (a: string, why: 'flag' | 'direct' | 'reconstructed') => (why === 'flag'
    ? `Planned for attenuation a = ${a} (--attenuation).`
    : why === 'direct'
      ? `Planned for a direct run: no attenuation (a = ${a}), as analyze reports direct runs.`
      : (`Planned for reconstructed rates at attenuation a = ${a}, the conservative transform; analyze reports a direct run at a = 1 (no attenuation): plan ` +
        `one with --direct.`)),
  stage: (name: string, seconds: number) => `${name} done (${seconds.toFixed(1)} s)`,
  summaryConsistency: (flags: number, cells: number, auditMd = 'reports/audit.md') => cells === 0
    ? 'consistency: no reported rate to test (the counts were given or read off a figure)'
    : flags === 0
    ? `consistency: all ${cells} reported rates are possible at their n`
    : `consistency: ${flags} of ${cells} cells flagged (see ${auditMd})`,
  badBatchSize: (n: number, max: number) => `--batch-size: ${n} is more than a batch file may hold (${max})`,
  submitted: (open: number) =>
    `${open} batch${open === 1 ? '' : 'es'} open; the results are collected when the same command runs again`,
  stillPending: (n: number) =>
    `${n} trials are still pending (failed lines or expired batches); run the same command again to send them`,
  dryRun: (files: number, lines: number, total: number, stored: number, inBatches: number, inTok: number, outTok: number, cost: string) =>
    [`dry run (batch): ${files} file${files === 1 ? '' : 's'}, ${lines} requests (${total} trials, ${stored} already stored, ${inBatches} in open batches)`,
      `estimated tokens: ${inTok} input (≈ characters / 4), ${outTok} output (at most max tokens per call)`,
      `estimated cost at batch prices: ${cost}`].join('\n'),
  repeatedDryRun: (matches: number, rounds: number) =>
    `${matches} matches × ${rounds} rounds: each round its own batch files (one or more per model), sent when the round before is collected`,
  noChunks: (store: string) => `${store}: no batches`,
  cancelled: (n: number) => `cancel requested for ${n} open batch${n === 1 ? '' : 'es'}`,
  checksFailed: (names: string[]) => `verification failed: ${names.join(', ')}`,
  wrote: (path: string) => `wrote ${path}`,
  dataAndStore: () => 'give one input: --data FILE, --trials FILE or a STORE',
  clustered: (matches: number, icc: number) =>
    (`clustered cells (${matches} matches): each simulation redraws every cell's matches as they are (beta-binomial, within-match ` +
      `correlation ${icc.toFixed(3)} estimated from the data)`),
  notTwoFraming: (path: string) => `${path}: coverage needs a model × game × framing run; this one is a context-enrichment run`,
  missingPlanned: (path: string, model: string, game: string, framing: string) =>
    `${path}: model ${q(model)}, game ${q(game)} has no ${q(framing)} cell (coverage simulates the planned pair; choose it with --base/--alt)`,
  title: (sims: number, truth: string, n: string) =>
    (`Coverage of the 95 % intervals: ${sims} simulations of this design (${n}), truth ` +
      `= ${truth === 'jeffreys' ? 'drawn around the observed rates (Jeffreys)' : truth}`),
  simulating: (sims: number, n: string) => `simulating ${sims} data sets of this design (${n}) and analysing each`,
  clickShift: (axes: string, click: number, px: number, value: number, count: number) =>
    (`Calibration click ${click} of axes ${q(axes)} moved ±${px} px along the value axis changes a value by at most ${value.toPrecision(3)} and a count by ` +
      `at most ${count} (it moves all the points of those axes together: a systematic shift, not part of the per-cell ranges).`),
  badName: (name: string) => `init: ${q(name)} is not a design name (letters, digits, ".", "_" or "-", starting with a letter or digit)`,
  badKind: (kind: string, known: readonly string[]) => `init: --kind ${q(kind)} is not one of ${known.join(', ')}`,
  exists: (file: string) => `init: ${file} exists already (choose another name, or move it away)`,
  initWrote: (file: string, name: string) =>
    `wrote ${file}; next: samegame prompts ${file}, then samegame run ${file}, then samegame analyze runs/${name}.sqlite`,
  cannotWrite: (dir: string, reason: string) => `${dir}: cannot write the prompt files (${reason})`,
  wrotePrompts: (n: number, dir: string) => `wrote ${n} prompt file${n === 1 ? '' : 's'} under ${dir}`,
  formatNeedsTrials: () => '--format and --rounds apply to --trials FILE: give the log with --trials',
  formatNeedsTrialsStore: () => '--format applies to --trials FILE: give the log with --trials (--rounds also works on a repeated store)',
  clusterIsMatch: () => '--cluster: a log read through --format is clustered by its matches (leave out --cluster)',
  analyzeNeedsFormat: () => 'analyze --trials reads published logs of repeated play: add --format NAME|DESCRIPTION.yaml (built-in: akata, fairgame)',
  exportNeedsOut: () => "exportTrials: give out: a file, '-' for standard output, or a stream",
  optionNotForInput: (flag: string, takers: string, input: string) => `${flag} applies to ${takers}, not to ${input}: leave it out`,
  analyzeStoreOrTrials: () => 'analyze: give a trial store, --trials FILE --format NAME or --aggregates FILE: one of them',
  moderatorNoColumn: (name: string, columns: readonly string[]) =>
    `moderator ${q(name)} names no column (the columns are ${columns.map(q).join(', ')})`,
  framingNotHeld: (framing: string, source: string) => `the source does not hold the framing ${q(framing)}: ${source}`,
  sourceProblem: (source: string) => `the source cannot be read: ${source}`,
  noEffects: (file: string) => `${file}: no study gave an effect (every cell was left out)`,
  /** Where a meta manifest's display names are, for a warning of an id that names nothing. */
  manifestNames: (file: string) => `${file}: names: block`,
  effectsFlagWithManifest: () => 'give either a manifest or --effects FILE.csv, not both',
  needInput: () => 'samegame meta needs a manifest (MANIFEST.yaml) or --effects FILE.csv',
  clash: (file: string, id: string, name: string,
    other: string) => (`${file}: ${q(id)} would be shown as ${q(name)}, ${other === name ? 'which names another level already' : `as ${q(other)} is`}: ` +
      `display names must keep the levels apart`),
  adaptiveCoverage: (method: string, units: number, sims: number) =>
    `adaptive run: its stop rule simulated ${sims} times at the run's rates for each of ${units} units — the ${method} sequence at the stop beside `
    + 'the fixed-n interval at the same stop (which has no guarantee after an adaptive stop: its coverage is measured, not assumed)',
  namesOf: (path: string, run?: number) => (run === undefined ? `${path}: names:` : `${path}: run ${run}'s design, names: block`),
  wroteReport: (path: string) => `wrote ${path}`,
  reportSummary: (figures: number) => `report: ${figures} interactive figures, self-contained (opens offline from file://)`,
  verdictFlagWithoutExpect: (flag: string) => `${flag} sets how published values are judged: give them with --expect FILE`,
  badAlpha: (value: string) => `--verdict-alpha: ${q(value)} is not a level in (0, 1) (e.g. 0.05)`,
  badPublishedReps: (value: string) => `--published-reps: ${q(value)} is not a number of bootstrap replicates (a whole number ≥ 1)`,
  settingsDiffer: (changed: string, compared: string, path: string) =>
    (`settings differ from the publication's (${changed}): comparing ${compared} of ${path}, the numbers that do not depend on them ` +
      `(--expect ${path} compares every number)`),
  usingShipped: (path: string) => `comparing with the published values in ${path} (the shipped data's paper tables; --expect FILE to use another)`,
  noSuchRun: (file: string, id: number, ids: readonly number[]) =>
    `${file}: --run ${id}: no such run (the store has ${ids.length === 0 ? 'no runs' : `run${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`})`,
  adaptiveDone: (early: number, units: number, used: number, fixed: number) =>
    `adaptive run: ${early} of ${units} stopped before max_trials; ${used.toLocaleString('en-US')} trials `
    + `of the fixed design's ${fixed.toLocaleString('en-US')} (${Math.max(0, fixed - used).toLocaleString('en-US')} saved)`,
  askedInOpenBatches: (store: string, n: number) => `${store}: ${n} of this run's trials or probes wait in batches not yet collected: `
    + 'run again with --batch to collect them (samegame batches lists them; --cancel stops them, and the next run --batch collects what they answered)',
  adaptiveOpen: (open: number, units: number) => `adaptive run: ${open} of ${units} units still open (their waves not all answered): run again to continue`,
  adaptiveRepeatedDone: (early: number, units: number, matches: number, fixedMatches: number, calls: number, fixedCalls: number) =>
    `adaptive run: ${early} of ${units} stopped before max_trials; ${matches.toLocaleString('en-US')} matches of the fixed design's `
    + `${fixedMatches.toLocaleString('en-US')}, ${calls.toLocaleString('en-US')} calls of ${fixedCalls.toLocaleString('en-US')} `
    + `(${Math.max(0, fixedCalls - calls).toLocaleString('en-US')} saved)`,
  planAdaptive: (until: string, runs: number, max: number, expected: number, fixedCalls: number, unit = 'trials') =>
    `Adaptive rule ${until} (${runs} simulated runs per unit, at most ${max} ${unit} per cell): expected ${Math.round(expected).toLocaleString('en-US')} calls `
    + `beside ${fixedCalls.toLocaleString('en-US')} for the fixed ${max} per cell`,
  planRepeatedUntil: (path: string, id: number) => `${path}: run ${id} is a repeated game: plan gives the trials per cell of one-shot runs; `
    + 'for repeated play give --until RULE with max_trials, simulated on the pilot\'s matches (the match is the unit)',
  planRepeatedMaxTrials: (path: string) => `${path}: --until on a repeated pilot needs max_trials (matches per cell at most), e.g. `
    + 'target=shift,decide=sign,max_trials=100',
  planRepeatedNoMatches: (path: string, id: number) => `${path}: run ${id} has no unit of the rule with a finished match in each of its framings`,
  planRepeatedPilot: (path: string, id: number, matches: number) => `Plan of a repeated game from ${path} (run ${id}): the stop rule simulated on `
    + `draws from the pilot's ${matches.toLocaleString('en-US')} finished matches (the match is the unit; --target-halfwidth plans one-shot runs only)`,
  planRepeatedFraming: (path: string, id: number, flag: string, framing: string, framings: readonly string[]) =>
    `${path}: ${flag} ${q(framing)} is not a framing of run ${id} (its framings: ${framings.map(q).join(', ')})`,
  planRepeatedLeft: (n: number) => `${n} unit${n === 1 ? '' : 's'} left out: no finished match in one of ${n === 1 ? 'its' : 'their'} framings`,
  adaptiveDryRun: (rule: string, units: number, fixedCalls: number, max: number, stored: number, unit = 'trials') =>
    `adaptive run (stop rule ${rule}): ${units} units, each stopped by its confidence sequence; at most `
    + `${Math.max(0, fixedCalls - stored).toLocaleString('en-US')} calls (the fixed design: ${max} ${unit} per cell`
    + `${stored > 0 ? `, ${fixedCalls.toLocaleString('en-US')} calls, ${stored.toLocaleString('en-US')} already stored` : ''})`,
  adaptiveDryRunExpected: (expected: number, runs: number, fixedCalls: number) =>
    `expected ${Math.round(expected).toLocaleString('en-US')} calls under the rule at the simulated models' rates (${runs} simulated runs per unit), `
    + `beside ${fixedCalls.toLocaleString('en-US')} for the fixed design`,
  adaptiveDryRunMatches: (expected: number, runs: number, matches: number, fixedCalls: number) =>
    `expected ${Math.round(expected).toLocaleString('en-US')} calls under the rule, simulated on draws from the ${matches.toLocaleString('en-US')} matches `
    + `stored (${runs} simulated runs per unit), beside ${fixedCalls.toLocaleString('en-US')} for the fixed design`,
  adaptiveNoBatch: (design: string) =>
    `${design}: a design with a stop rule runs its waves one way: every model synchronously, or every model through its batch API `
    + '(--batch, or batch: true on every model); here some models are batched and some not',
  runPlan: (design: string, runId: number, total: number, done: number, resumed: boolean) =>
    `${resumed ? 'resuming' : 'starting'} run ${runId} of ${q(design)}: ${total} trials, ${done} already stored, ${total - done} to request`,
  runDone: (stored: number, ok: number, invalid: number, errors: number, tokens: number, store: string) =>
    `done: ${stored} trials stored (${ok} ok, ${invalid} invalid, ${errors} errors), ${tokens} tokens; store ${store}`,
  interrupted: (done: number, total: number) =>
    `interrupted: in-flight calls were finished and stored; ${done} of ${total} trials complete. Run the same command again to resume.`,
  aborted: (done: number, total: number) =>
    `aborted: in-flight calls were dropped; ${done} of ${total} trials complete. Run the same command again to resume.`,
  runDryRun: (calls: number, total: number, stored: number, inTok: number, outTok: number, cost: string) =>
    [`dry run: ${calls} calls (${total} trials, ${stored} already stored)`,
      `estimated tokens: ${inTok} input (≈ characters / 4), ${outTok} output (at most max tokens per call)`,
      `estimated cost: ${cost}`].join('\n'),
  /** A dry run's cost: dollars to four places, or why there is none. */
  cost: (cost: number | undefined) => (cost === undefined ? commandsMsg.noPrices() : `$${cost.toFixed(4)}`),
  noPrices: () => 'unknown (give --price IN,OUT in USD per million tokens, or prices in the design)',
  exported: (n: number, out: string) => `exported ${n} trials to ${out}`,
  exportedProbes: (n: number, out: string) => `exported ${n} comprehension probes to ${out}`,
  syntheticNote: (models: readonly string[]) =>
    `note: ${models.join(', ')} answered through the simulated provider — synthetic data, not a model's answers`,
  repeatedPlan: (design: string, runId: number, matches: number, over: number, decisions: number, stored: number, resumed: boolean) =>
    `${resumed ? 'resuming' : 'starting'} run ${runId} of ${design}: ${matches} matches (${over} over), ${decisions} decisions, ${stored} already stored`,
  repeatedDone: (matches: number, over: number, forfeited: number, ok: number, invalid: number, errors: number, tokens: number, store: string) =>
    (`done: ${over} of ${matches} matches over (${forfeited} forfeited); decisions ` +
      `stored: ${ok} ok, ${invalid} invalid, ${errors} errors; ${tokens} tokens; store ${store}`),
  repeatedOpen: (open: number) => `${open} matches are not over (a decision failed); run the same command again to continue them`,
  runRepeatedDryRun: (matches: number, rounds: number, calls: number, total: number, stored: number, inTok: number, outTok: number, cost: string) =>
    `dry run: ${matches} matches × ${rounds} rounds: ${calls} calls to make (${total} decisions = Σ matches × rounds × LLM seats, ${stored} already stored); `
    + `~${inTok} input tokens (growing with the history), ≤${outTok} output tokens; cost ${cost}`,
  repeatedInterrupted: (over: number, matches: number) =>
    `interrupted: in-flight calls were finished and stored; ${over} of ${matches} matches over. Run the same command again to resume.`,
  /** The closing line of a run: the command that analyses its store. */
  nextCommand: (store: string) => `next: samegame analyze ${/^[A-Za-z0-9._/+-]+$/.test(store) ? store : `'${store.replace(/'/g, "'\\''")}'`}`,
  repeatedAborted: (over: number, matches: number) =>
    `aborted: in-flight calls were dropped; ${over} of ${matches} matches over. Run the same command again to resume.`,
  syntheticStudies: (studies: readonly string[], mix: string) =>
    `synthetic data: ${studies.length === 1 ? 'the study' : 'the studies'} ${studies.join(', ')} ${mix === 'all' ? '(every study)' : mix === 'kept apart'
      ? 'pooled apart from the real ones (scopes "synthetic …"; --pool-synthetic pools them together)' : 'pooled with the real ones (--pool-synthetic)'}`,
  probesDryRun: (perCell: number, calls: number, total: number, stored: number, inTok: number, outTok: number, cost: string) =>
    (`comprehension probes: ${calls} calls (${total} probes = ${perCell} per model × game × framing, ${stored} already stored); ` +
      `~${inTok} input tokens, ≤${outTok} output tokens; cost ${cost}`),
  probesBatchDryRun: (perCell: number, files: number, lines: number, total: number, stored: number, inBatches: number, inTok: number, outTok: number,
    cost: string) =>
    (`comprehension probes (batch): ${files} file${files === 1 ? '' : 's'}, ${lines} requests (${total} probes = ${perCell} per model × game × framing, ` +
      `${stored} already stored, ${inBatches} in open batches); ~${inTok} input tokens, ≤${outTok} output tokens; cost at batch prices ${cost}`),
  probesPlan: (total: number, done: number) => `comprehension probes: ${total} probes, ${done} already stored, ${total - done} to ask`,
  probesDone: (ok: number, invalid: number, errors: number) =>
    `comprehension probes stored: ${ok} answered with a number, ${invalid} without one, ${errors} errors (analyze writes reports/comprehension.csv)`,
  probesInterrupted: (done: number, total: number) =>
    `interrupted while asking comprehension probes: ${done} of ${total} probes complete. Run the same command again to resume.`,
  probesTotal: (design: string, total: number, max: number) =>
    `${design}: --probes asks ${total} comprehension probes (models × games × framings × probes), more than a run plans at most (${max})`,
  probesNotForEnrichment: (design: string) =>
    `${design}: comprehension probes (--probes) are asked of one-shot and repeated designs; a context-enrichment design has no story framing to ask under`,
  mixedAttenuations: (groups: readonly (readonly [number, readonly string[]])[]) =>
    `attenuation differs between studies — ${groups.map(([a, ids]) => `a = ${a}: ${ids.join(', ')}`).join('; ')}: their effects are shrunk by `
    + 'different factors before pooling, so heterogeneity may partly reflect the attenuation (set one attenuation: in the manifest to compare like with like)',
  // preregister, the seal checked by run and analyze, replay and capsule
  sealed: (store: string, sha: string, design: string, hash: string, at: string) =>
    `sealed plan ${sha} (design ${design}, ${hash.slice(0, 12)}…) into ${store} at ${at}; next: samegame run with --store ${store}`,
  alreadySealed: (store: string, sha: string, at: string) => `${store}: already sealed (plan ${sha.slice(0, 12)}… at ${at}); a seal is never replaced`,
  sealAfterTrials: (store: string, n: number) => `${store}: the store holds ${n} trial${n === 1 ? '' : 's'}; a plan is sealed before the first trial`,
  planNames: (file: string, what: string, name: string, known: readonly string[]) =>
    `${file}: ${what} ${q(name)} is not in the design (${known.map(q).join(', ')})`,
  sealedDesignDiffers: (store: string, what: string, at: string) =>
    `${store}: the design differs from the one sealed at ${at}: ${what} changed; a sealed store runs only its sealed design`,
  replayDifference: (kind: string, trial: string, detail: string) => `${kind} ${trial}: ${detail}`,
  replaySummary: (trials: number, notRendered: number, notReread: number, outputs: number) =>
    `replay: ${trials} trials re-rendered and re-read${notRendered + notReread > 0 ? ` (${notRendered} requests not re-rendered, ${notReread} ` +
      'responses not re-read: repeated-game decisions or providers without a renderer)' : ''}; ${outputs} output files recomputed`,
  replayAgrees: () => 'replay: every prompt, request, decision and output agrees',
  replayDisagrees: (n: number) => `replay: ${n} difference${n === 1 ? '' : 's'} (listed above)`,
  noOutputs: (dir: string) => `replay: no stored outputs in ${dir} (reports/): the analysis was not compared`,
  capsuleExists: (dir: string) => `${dir}: exists and is not empty; a capsule is written to a new folder`,
  capsuleWrote: (dir: string) => `wrote the capsule ${dir}; verify it with: npx samegame replay ${dir}/store.sqlite --capsule ${dir}`,
  notACapsule: (path: string) => `${path}: no such file (not a capsule samegame wrote)`,
  manifestMissing: () => 'listed in the manifest, missing',
  manifestChanged: () => 'its SHA-256 differs from the manifest\'s',
  manifestExtra: () => 'not in the manifest',
  outputMissing: () => 'the stored outputs lack this file',
  outputDiffers: () => 'the recomputed file differs from the stored one',
  sqlNotCompiled: (format: string, what: string) => `sql: the query engine does not compile ${what} (log format ${q(format)}): no query to print`,
  parquetOutExists: (out: string) => `--out ${q(out)}: the Parquet folder exists already; give a new folder (it is written whole or not at all)`,
  parquetNeedsFolder: () => 'export --format parquet writes a folder: give --out DIR (not standard output)',
  outInExport: (out: string, input: string) => `--out ${out}: inside the Parquet export ${input}, which is read: choose a folder outside it`,
  planMaxTrials: (max: number, bound: number) =>
    `${max} is more than a plan simulates (at most ${bound.toLocaleString('en-US')} per cell, the most trials a design's cell holds)`,
};
