/**
 * User-facing messages of the live-run module's designs, prompts and parser (the vega-lite
 * convention of core/messages/: every message a function, so tests compare the same text).
 */
import { at } from './common.js';

const q = (s: string) => JSON.stringify(s);

export const liveMsg = {
  playsNoMatch: (model: string) => `model ${JSON.stringify(model)} plays no match: a model is not its own opponent by name (write self for self-play) and no other model meets it`,
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
  noMatch: (what: string, value: string, known: readonly string[]) =>
    `${what} ${q(value)} is not in the design (known: ${known.join(', ')})`,
  cannotWrite: (dir: string, reason: string) => `${dir}: cannot write the prompt files (${reason})`,
  wrotePrompts: (n: number, dir: string) => `wrote ${n} prompt file${n === 1 ? '' : 's'} under ${dir}`,
  parseNone: (labels: readonly string[]) => `names none of the actions ${labels.join(', ')}`,
  parseMultiple: (found: readonly string[]) => `names more than one action (${found.join(', ')})`,
  parseEmpty: () => 'empty response',
  trialsPerCell: (max: number) => `too large: at most ${max.toLocaleString('en-US')} trials per cell`,
  trialsTotal: (total: number, max: number) =>
    `too large: ${total.toLocaleString('en-US')} trials in all (cells × trials); at most ${max.toLocaleString('en-US')} per design — split the run into several designs`,
  unknownOpponent: (id: string, models: readonly string[], strategies: readonly string[]) =>
    `opponent ${q(id)} is neither self, a model of this design (${models.join(', ')}) nor a fixed strategy (${strategies.join(', ')})`,
  playNeedsSample: () => 'a repeated game (a play block) needs scoring: sample: each round\'s move must be a chosen action, which the history of later rounds names',
  opponentClash: (id: string) => `opponent id ${q(id)} is also a model id; give the strategy another id`,
  noLogprobs: (model: string, provider: string) =>
    `model ${q(model)}: provider ${provider} returns no log-probabilities, so scoring: logprobs cannot score it (use scoring: sample)`,
  temperatureTooHigh: (model: string, provider: string, t: number, max: number) =>
    `model ${q(model)}: provider ${provider} accepts a temperature of at most ${max}, not ${t}`,
  /** A design refused once an override flag (e.g. --provider) is applied. */
  overrideRefused: (file: string, flag: string, what: string) => `${file}: ${flag}: ${what}`,
};
