/**
 * The user-facing messages used only in live/design/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { at } from '../../core/messages/common.js';
import { q } from '../../core/messages/text.js';

const list = (xs: readonly string[]) => xs.map(q).join(', ');


export const designMsg = {
  playsNoMatch: (model: string) =>
    `model ${JSON.stringify(model)} plays no match: a model is not its own opponent by name (write self for self-play) and no other model meets it`,
  designUnreadable: (file: string, reason: string) => `${file}: cannot read the design (${reason})`,
  designYamlSyntax: (file: string, line: number | undefined, detail: string) => at(file, line, undefined, `invalid YAML (${detail})`),
  designNotMapping: (file: string) => at(file, 1, undefined, 'a design must be a YAML mapping with name, models, games, framings and trials'),
  /** One problem at a path inside the design document, e.g. models[1].provider. */
  designField: (file: string, line: number | undefined, path: string, what: string) =>
    path === '' ? at(file, line, undefined, what) : at(file, line, path, what),
  duplicateId: (kind: string, id: string, first: string) => `duplicate ${kind} id ${q(id)} (first used at ${first})`,
  levelId: (kind: string, fault: string) => `${kind} id ${fault}`,
  cellFramingId: (fault: string) => `the cell framing condition/world/format of the longest ids ${fault}`,
  gameIdClash: (id: string) => `custom game id ${q(id)} is a canonical game with different payoffs; choose another id`,
  unknownBiasKey: (kind: string, key: string, known: readonly string[]) =>
    `no ${kind} with id ${q(key)} in this design (known: ${known.join(', ')})`,
  trialsPerCell: (max: number) => `too large: at most ${max.toLocaleString('en-US')} trials per cell`,
  probesTotal: (total: number, max: number) =>
    `${total} comprehension probes (models × games × framings × probes) is more than a run plans at most (${max}); ask fewer per cell`,
  trialsTotal: (total: number, max: number) =>
    (`too large: ${total.toLocaleString('en-US')} trials in all (cells × trials); at most ${max.toLocaleString('en-US')} per design — split the run into ` +
      `several designs`),
  unknownOpponent: (id: string, models: readonly string[], strategies: readonly string[]) =>
    `opponent ${q(id)} is neither self, a model of this design (${models.join(', ')}) nor a fixed strategy (${strategies.join(', ')})`,
  playNeedsSample: () =>
    'a repeated game (a play block) needs scoring: sample: each round\'s move must be a chosen action, which the history of later rounds names',
  opponentClash: (id: string) => `opponent id ${q(id)} is also a model id; give the strategy another id`,
  noLogprobs: (model: string, provider: string) =>
    `model ${q(model)}: provider ${provider} returns no log-probabilities, so scoring: logprobs cannot score it (use scoring: sample)`,
  temperatureTooHigh: (model: string, provider: string, t: number, max: number) =>
    `model ${q(model)}: provider ${provider} accepts a temperature of at most ${max}, not ${t}`,
  // Design validation (each is the "what" of a file:line: field "path": what message).
  unknownSlot: (slot: string, known: readonly string[]) => `no slot ${q(slot)} in the template (slots: ${list(known)})`,
  slotTwoSources: (slot: string, other: string) =>
    `slot ${q(slot)} is already filled by ${other}; a slot has one source (base, worlds or conditions)`,
  slotNeverFilled: (slot: string) => `template slot ${q(slot)} is filled by neither base, worlds nor conditions`,
  unknownWorldKey: (key: string, worlds: readonly string[]) => `no world ${q(key)} in this design (worlds: ${list(worlds)})`,
  missingWorldKey: (world: string) => `contents for world ${q(world)} are missing (give facts for every world, or one list for both)`,
  directionWorld: (id: string, worlds: readonly string[]) => `${q(id)} is not a world of this design (worlds: ${list(worlds)})`,
  directionSame: () => 'higher and lower must be different worlds',
  keyRequired: (format: string) => `required field is missing: format ${q(format)} has style key-value, so every fact needs a key`,
  paraphraseRequired: (format: string, wording: number, have: number) =>
    `format ${q(format)} uses wording ${wording}, but this fact has ${have} paraphrase${have === 1 ? '' : 's'}`,
  effectFactor: (key: string) => `effects can match condition, world or format, not ${q(key)}`,
  effectLevel: (factor: string, level: string, known: readonly string[]) =>
    `no ${factor} ${q(level)} in this design (known: ${list(known)})`,
  fileUnreadable: (file: string, reason: string) => `cannot read the template file ${q(file)} (${reason})`,
  fileTooLarge: (file: string, max: number) => `the template file ${q(file)} is larger than ${max / 1024 / 1024} MiB`,
  fileFault: (file: string, what: string) => `${file}: ${what}`,
  oneSource: () => 'a framing is a built-in family, a template or a template_file: give exactly one of family, template, template_file',
  neverStates: (framing: string, missing: readonly string[]) =>
    (`framing ${framing}: the template never states ${missing.map((m) => `{${m}}`).join(', ')} (every prompt must present the whole payoff matrix and both ` +
      `labels: use {payoffs}, or the eight {you.XY} {other.XY}, and {C} {D})`),
  roundNeverStates: () => 'the round prompt never states the payoffs: name {rules} (the framing\'s story with the payoff matrix)',
  formatNeverStates: (format: string, cell: string, missing: readonly string[]) =>
    (`format ${format}: the cell ${cell} never states ${missing.map((m) => `{${m}}`).join(', ')} (every prompt must present the whole payoff matrix: ` +
      `{payoffs}, the eight {you.XY} {other.XY}, or {T} {R} {P} {S} in its facts)`),
  oneFormatSource: () => 'a format is a style or a template: give exactly one of style, template, template_file',
  formatSlotsMissing: (format: string, slots: readonly string[]) =>
    (`format ${format}: the template never places the slot${slots.length === 1 ? '' : 's'} ${slots.map((x) => `{${x}}`).join(', ')} (every format lays out ` +
      `the same facts)`),
  templateTooLarge: (bytes: number, max: number) =>
    `the template is ${bytes.toLocaleString('en-US')} bytes; a template is at most ${max.toLocaleString('en-US')} bytes (${max / 2 ** 20} MiB)`,
  templateControl: (codepoint: string, line: number) =>
    `the template holds the control character ${codepoint} (line ${line}): a story may hold any printable character, tabs and line ends, `
    + 'no other control character',
  templateNotUtf8: (file: string) => `the template file ${q(file)} is not valid UTF-8 (save it as UTF-8)`,
  designNotUtf8: (file: string) => `${file}: the design is not valid UTF-8 (save it as UTF-8)`,
  designTooLarge: (file: string, bytes: number, max: number) =>
    `${file}: the design is ${bytes.toLocaleString('en-US')} bytes; a design is at most ${max.toLocaleString('en-US')} bytes (${max / 2 ** 20} MiB)`,
  promptTooLong: (framing: string, game: string, chars: number, max: number) =>
    `framing ${framing}: its prompt for game ${game} is ${chars.toLocaleString('en-US')} characters; `
    + `a prompt is at most ${max.toLocaleString('en-US')} (about two million tokens)`,
  cellPromptTooLong: (cell: string, chars: number, max: number) =>
    `cell ${cell}: its prompt is ${chars.toLocaleString('en-US')} characters; a prompt is at most ${max.toLocaleString('en-US')} (about two million tokens)`,
  roundPromptTooLong: (framing: string, game: string, rounds: number, chars: number, max: number) =>
    `framing ${framing}: its prompt for game ${game} in round ${rounds} (the history of ${rounds - 1} rounds included) is up to `
    + `${chars.toLocaleString('en-US')} characters; a prompt is at most ${max.toLocaleString('en-US')} (about two million tokens)`,
  unknownKind: (kind: string, kinds: readonly string[]) =>
    `${q(kind)} is not a design kind (kind: ${kinds.join(', ')}; a one-shot design has no kind: field, nor has a repeated one, which has a play: block)`,
  fieldOfEnrichment: (field: string) =>
    `a design without kind: is a one-shot or repeated design, which has no ${field} field: `
    + `${field} belongs to a context-enrichment design (add kind: context-enrichment, or remove ${field})`,
  fieldOfOneShot: (kind: string, field: string) =>
    `a ${kind} design (kind: ${kind}) has no ${field} field: ${field} belongs to a one-shot or repeated design (remove kind: for one, or remove ${field})`,
  unknownRateKey: (key: string) => `rates are keyed GAME/FRAMING with a game and a framing of this design, not ${q(key)}`,
  // The stop block of an adaptive run (stop.ts), and run --until.
  untilSyntax: (part: string) => `--until: expected key=value pairs separated by commas (e.g. target=shift,half_width=0.05), not ${q(part)}`,
  stopOneShotOnly: () => 'a stop rule applies to one-shot and repeated-game designs (not to a context-enrichment design)',
  stopNeedsRule: () => 'a stop rule needs half_width, decide, or both',
  stopDecideShift: () => 'decide applies to target: shift (the interval of a contrast excludes 0, or lies within ±delta)',
  stopNeedsDelta: () => 'decide: equivalence needs delta, the equivalence margin',
  stopMaxTrials: (max: number, trials: number) => `max_trials ${max} is above the design's trials (${trials}); the fixed design is the most a cell runs`,
  stopFraming: (field: string, id: string, framings: readonly string[]) => `${field} ${q(id)} is not a framing of this design (framings: ${list(framings)})`,
  stopTwoFramings: (n: number) =>
    `target: shift samples two different framings in lockstep; this design has ${n} framing${n === 1 ? '' : 's'} (give exactly two, base and alt)`,
};
