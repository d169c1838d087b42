/**
 * The rendered prompts of a design for review (`samegame prompts`): one per model × game ×
 * framing (the reps of a cell share the prompt), in the design's order, each as the text a
 * reviewer reads — labels and their canonical actions, the system message if any, the prompt
 * (for a repeated game, its round-1 prompt, or round N after an example history, docs/methods.md §18).
 */
import { UserError } from '../../core/errors.js';
import { liveMsg } from '../../core/messages/live.js';
import type { Design } from '../design/design.js';
import { framingSource, renderFraming } from './index.js';
import { roundPrompt, type PlayedRound } from '../repeated/prompt.js';
import type { Action } from '../types.js';
import { reviewEnrichmentPrompts, type PromptFilter, type ReviewedPrompt } from '../design/enrichment-review.js';
import { promptsMsg } from './messages.js';

export type { PromptFilter, ReviewedPrompt } from '../design/enrichment-review.js';

function check(what: string, value: string | undefined, known: readonly string[]): void {
  if (value !== undefined && !known.includes(value)) throw new UserError(liveMsg.noMatch(what, value, known));
}

/** The example history of `prompts --round N`: rounds 1 … N − 1 cycle through the outcomes CC, CD, DC, DD (seat 1's move first). */
export function exampleHistory(round: number): PlayedRound[] {
  const cycle: (readonly [Action, Action])[] = [['C', 'C'], ['C', 'D'], ['D', 'C'], ['D', 'D']];
  return Array.from({ length: round - 1 }, (_, i) => ({ moves: cycle[i % 4] }));
}

function checkRound(design: Design, round: number | undefined): number {
  if (round === undefined) return 1;
  if (!design.play) throw new UserError(promptsMsg.roundNotRepeated());
  if (round > design.play.rounds) throw new UserError(promptsMsg.roundBeyond(round, design.play.rounds));
  return round;
}

export function reviewPrompts(design: Design, filter: PromptFilter & { readonly round?: number } = {}): ReviewedPrompt[] {
  const round = checkRound(design, filter.round);
  if (design.enrichment) return reviewEnrichmentPrompts(design, filter);
  check('--model', filter.model, design.models.map((m) => m.id));
  check('--game', filter.game, design.games.map((g) => g.id));
  check('--framing', filter.framing, design.framings.map((f) => f.id));
  const out: ReviewedPrompt[] = [];
  for (const m of design.models) {
    if (filter.model !== undefined && m.id !== filter.model) continue;
    for (const g of design.games) {
      if (filter.game !== undefined && g.id !== filter.game) continue;
      for (const f of design.framings) {
        if (filter.framing !== undefined && f.id !== filter.framing) continue;
        // A repeated game's prompt as seat 1 of match 1 asks it in the round (round 1 unless --round).
        const history = exampleHistory(round);
        const r = design.play ? roundPrompt({ play: design.play, game: g, framing: f, seat: 1, match: 1, round, history }) : renderFraming(f, g);
        const labels = Object.entries(r.labels).map(([l, a]) => `${l} = ${a}`).join(', ');
        const shown = filter.round === undefined ? '' : (` | round ${round} of ${design.play!.rounds}, example ` +
          `history ${history.map((h) => h.moves.join('')).join(' ') || 'none'}`);
        const text = [
          `=== model ${m.id} (${m.provider}: ${m.model}) | game ${g.id} | framing ${f.id} (${framingSource(f)}) ===`,
          `labels: ${labels}${design.synthetic ? ' | synthetic design' : ''}${shown}`,
          ...(r.system === undefined ? [] : ['--- system ---', r.system]),
          '--- user ---',
          r.prompt,
          '',
        ].join('\n');
        out.push({ model: m.id, game: g.id, framing: f.id, file: `${m.id}/${g.id}/${f.id}.txt`, text });
      }
    }
  }
  return out;
}
