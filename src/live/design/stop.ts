/**
 * The stopping rule of an adaptive run (the design's `stop:` block): each cell (target
 * rate) or each model × game contrast of two framings sampled in lockstep (target shift) stops
 * when its confidence sequence (stats/confseq) is narrow enough or decides, else at max_trials.
 * In a repeated game the unit of sampling is the match, and its cells have an opponent (live/adaptive/).
 */
import { z } from 'zod';
import { CONFSEQ_METHOD_IDS, type ConfSeqMethodId } from '../../stats/confseq/registry.js';
import type { StopRule } from '../../stats/confseq/stop-rule.js';
import { formatPath, problems, type Path, type Problem } from './problems.js';
import { UserError } from '../../core/errors.js';
import { designMsg } from './messages.js';
import { liveMsg } from '../../core/messages/live.js';

const framingId = z.string().min(1);

export const stopSchema = z.strictObject({
  target: z.enum(['rate', 'shift'])
    .describe('rate: each model × game × framing cell; shift: each model × game contrast alt − base, its two framings sampled in lockstep'),
  half_width: z.number().gt(0).max(1).optional().describe('stop a cell or contrast when its interval\'s half-width is at or below this'),
  decide: z.enum(['sign', 'equivalence']).optional()
    .describe('shift only: stop when the interval excludes 0 (sign) or lies inside [-delta, delta] (equivalence), or half_width is met, whichever comes first'),
  delta: z.number().gt(0).max(1).optional().describe('the equivalence margin of decide: equivalence'),
  confidence: z.number().gt(0).lt(1).default(0.95).describe('the confidence level of the sequences (default 0.95)'),
  wave: z.number().int().min(1).default(20).describe('trials (pairs for a shift; matches in a repeated game) per open cell between two looks (default 20)'),
  max_trials: z.number().int().min(1).optional().describe('trials (matches in a repeated game) per cell at most (default and at most the design\'s trials)'),
  method: z.enum(CONFSEQ_METHOD_IDS as [ConfSeqMethodId, ...ConfSeqMethodId[]]).default('betting')
    .describe('the confidence sequence: betting (hedged capital, Waudby-Smith and Ramdas 2023) or normal-mixture (closed form, Howard et al. 2021)'),
  base: framingId.optional().describe('shift: the base framing (default the first framing)'),
  alt: framingId.optional().describe('shift: the alternative framing (default the second framing)'),
}).describe('adaptive run: stop each cell or contrast when its anytime-valid confidence sequence meets the rule (docs/methods.md §24)');

export type StopDocument = z.output<typeof stopSchema>;

/** A design's resolved stopping rule: the rule of stats/confseq and, for a shift, its two framings. */
export interface AdaptiveStop extends StopRule {
  readonly base?: string;
  readonly alt?: string;
}

/** What a stop block cannot say given the rest of the design. */
export function stopProblems(s: StopDocument, trials: number, framings: readonly string[], kind: 'one-shot' | 'repeated' | 'other'): Problem[] {
  const at = (...p: Path): Path => ['stop', ...p];
  const out: Problem[] = [];
  if (kind === 'other') out.push({ path: at(), message: designMsg.stopOneShotOnly() });
  if (s.half_width === undefined && s.decide === undefined) out.push({ path: at(), message: designMsg.stopNeedsRule() });
  if (s.decide !== undefined && s.target !== 'shift') out.push({ path: at('decide'), message: designMsg.stopDecideShift() });
  if (s.decide === 'equivalence' && s.delta === undefined) out.push({ path: at('delta'), message: designMsg.stopNeedsDelta() });
  if (s.max_trials !== undefined && s.max_trials > trials) out.push({ path: at('max_trials'), message: designMsg.stopMaxTrials(s.max_trials, trials) });
  if (s.target === 'shift') {
    const [base, alt] = [s.base ?? framings[0], s.alt ?? framings[1]];
    for (const [k, v] of [['base', base], ['alt', alt]] as const) {
      if (v === undefined || !framings.includes(v)) out.push({ path: at(k), message: designMsg.stopFraming(k, v ?? '', framings) });
    }
    if (framings.length !== 2 || base === alt) out.push({ path: at('target'), message: designMsg.stopTwoFramings(framings.length) });
  }
  return out;
}

export function resolveStop(s: StopDocument, trials: number, framings: readonly string[]): AdaptiveStop {
  return {
    target: s.target, confidence: s.confidence, wave: s.wave, maxTrials: s.max_trials ?? trials, method: s.method,
    ...(s.half_width === undefined ? {} : { halfWidth: s.half_width }),
    ...(s.decide === undefined ? {} : { decide: s.decide }),
    ...(s.delta === undefined ? {} : { delta: s.delta }),
    ...(s.target === 'shift' ? { base: s.base ?? framings[0], alt: s.alt ?? framings[1] } : {}),
  };
}

/** What --until reads of a design (a Design). */
export interface UntilDesign {
  readonly framings: readonly { readonly id: string }[];
  readonly trials: number;
  readonly play?: unknown;
  readonly enrichment?: unknown;
}

/**
 * `run --until RULE`: the stop block written on the command line as comma-separated key=value
 * pairs of its fields (target=shift,half_width=0.05,decide=sign,wave=20), in place of the
 * design's own. Refused in one line naming the flag and the field.
 */
export function parseUntil(text: string, design: UntilDesign): AdaptiveStop {
  return resolveStop(untilBlock(text, design), design.trials, design.framings.map((f) => f.id));
}

/** The stop block of `--until` as given, checked against the design (parseUntil resolves its defaults: max_trials, base, alt). */
export function untilBlock(text: string, design: UntilDesign): StopDocument {
  const doc: Record<string, string | number> = {};
  for (const part of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new UserError(designMsg.untilSyntax(part));
    const [k, v] = [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    doc[k] = v !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  }
  const r = stopSchema.safeParse(doc);
  const framings = design.framings.map((f) => f.id);
  const kind = design.enrichment ? 'other' : design.play ? 'repeated' : 'one-shot';
  const found = r.success ? stopProblems(r.data, design.trials, framings, kind) : problems(r.error.issues);
  if (found.length > 0) throw new UserError(liveMsg.untilField(formatPath(found[0].path.filter((p) => p !== 'stop')), found[0].message));
  return r.data!;
}
