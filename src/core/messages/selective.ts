/**
 * User-facing messages of context-enrichment designs and the selective-robustness analysis
 * (the context-enrichment paper): every message a function, so tests compare against the same text.
 */
const q = (s: string) => JSON.stringify(s);
const list = (xs: readonly string[]) => xs.map(q).join(', ');

export const selectiveMsg = {
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
  // Analysis.
  noEnrichment: (path: string) =>
    `${path}: the run's design is not a context-enrichment design (it registers no worlds, direction or formats)`,
  incompleteGroups: (missing: readonly string[]) =>
    `left out of the selective estimands (a world × format cell has no valid calls): ${missing.slice(0, 6).join('; ')}${missing.length > 6 ? ` … (${missing.length} cells)` : ''}`,
  noCompleteGroup: (path: string) => `${path}: no model × condition has valid calls in every world × format cell`,
  imputed: (n: number, total: number) => `${n} of ${total} scored calls lacked one action among the returned candidates (imputed at half the unreturned mass)`,
  publishedUnreadable: (path: string, reason: string) => `${path}: cannot read the published metrics (${reason})`,
};
