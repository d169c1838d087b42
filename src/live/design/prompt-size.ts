/**
 * The size rule of a prompt (docs/reference/specifications.md, "Limits"): every prompt a design can
 * send is at most MAX_PROMPT_CHARS, checked when the design is read, for each kind of design — a
 * one-shot framing for each game; a context-enrichment cell (condition × world × format); a
 * repeated game's last round with its history at its longest — so a template that expands
 * (`{payoffs}` written a hundred thousand times, a long fact repeated) is refused in one line
 * naming its field, before a call, and never built (prompts/template.ts fillParts stops first).
 */
import { FilledTooLong, MAX_FILLED_CHARS } from '../prompts/template.js';
import { renderFraming } from '../prompts/index.js';
import { renderEnrichmentCell, cellFraming } from './enrichment-render.js';
import { PromptLengths } from '../repeated/prompt-length.js';
import { llmSeats, planMatches } from '../repeated/plan.js';
import type { PlayedRound } from '../repeated/prompt.js';
import type { Design, EnrichmentSpec } from './types.js';
import type { DesignDocument } from './schema.js';
import type { Problem } from './problems.js';
import { designMsg } from './messages.js';

/** A rendered prompt is at most 8 Mi characters, about two million tokens: above every provider's context window. */
export const MAX_PROMPT_CHARS = MAX_FILLED_CHARS;

/** What `measure` measures, or the length a fill above the limit would have had (it is not built). */
function sizeOf(measure: () => number): number {
  try {
    return measure();
  } catch (e) {
    if (e instanceof FilledTooLong) return e.chars;
    throw e;
  }
}

/** The problems of a one-shot or repeated design's prompts: each template framing for each game, then a repeated game's last round. */
export function promptSizeProblems(design: Design, d: DesignDocument): Problem[] {
  const out: Problem[] = [];
  design.framings.forEach((f, i) => {
    if (f.template === undefined) return;
    const entry = d.framings[i];
    const field = typeof entry !== 'string' && entry.template_file !== undefined ? 'template_file' : 'template';
    for (const g of design.games) {
      const n = sizeOf(() => renderFraming(f, g).prompt.length);
      if (n > MAX_PROMPT_CHARS) { out.push({ path: ['framings', i, field], message: designMsg.promptTooLong(f.id, g.id, n, MAX_PROMPT_CHARS) }); return; }
    }
  });
  if (out.length > 0 || design.play === undefined) return out;
  const history = d.play?.history !== undefined && typeof d.play.history !== 'string';
  return roundPromptProblems(design, history ? ['play', 'history'] : ['play', 'rounds']);
}

const OUTCOMES: readonly PlayedRound[] = [{ moves: ['C', 'C'] }, { moves: ['C', 'D'] }, { moves: ['D', 'C'] }, { moves: ['D', 'D'] }];

/**
 * A repeated design's longest round prompt, bounded from above: the last round, whose history holds every earlier round at
 * the length of the longest outcome's line with the last round's number (a line never shortens as rounds count up).
 * Four lines are rendered per game × framing × seat, whatever the number of rounds.
 */
function roundPromptProblems(design: Design, path: Problem['path']): Problem[] {
  const play = design.play!;
  const seen = new Set<string>();
  for (const m of planMatches(design)) {
    for (const seat of llmSeats(m)) {
      const key = `${m.game.id}\u0000${m.framing.id}\u0000${seat}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const n = sizeOf(() => {
        const lengths = new PromptLengths(play, m, seat);
        const line = Math.max(...OUTCOMES.map((h) => lengths.line(play.rounds, h)));
        return lengths.promptLength(play.rounds, (play.rounds - 1) * line);
      });
      if (n > MAX_PROMPT_CHARS) return [{ path, message: designMsg.roundPromptTooLong(m.framing.id, m.game.id, play.rounds, n, MAX_PROMPT_CHARS) }];
    }
  }
  return [];
}

/** The problems of a context-enrichment design's prompts: each condition × world × format cell, at its format's field. */
export function enrichmentPromptProblems(e: EnrichmentSpec, formats: readonly { readonly template?: string }[]): Problem[] {
  const out: Problem[] = [];
  e.formats.forEach((f, i) => {
    for (const c of e.conditions) {
      for (const w of e.worlds) {
        const n = sizeOf(() => renderEnrichmentCell(e, c.id, w.id, f.id).prompt.length);
        if (n <= MAX_PROMPT_CHARS) continue;
        out.push({ path: formats[i]?.template === undefined ? ['formats', i] : ['formats', i, 'template'],
          message: designMsg.cellPromptTooLong(cellFraming(c.id, w.id, f.id), n, MAX_PROMPT_CHARS) });
        return;
      }
    }
  });
  return out;
}
