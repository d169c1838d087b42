/**
 * `samegame prompts` for a context-enrichment design: one prompt per model × condition × world ×
 * format, for reading the four formats of a cell side by side (the context-enrichment paper §D notes that their
 * equivalence was not checked by independent raters — this is where a reviewer checks it).
 */
import { UserError } from '../../core/errors.js';
import { liveMsg } from '../../core/messages/live.js';
import type { Design } from './types.js';
import { cellFraming, renderEnrichmentCell } from './enrichment-render.js';

export interface PromptFilter {
  readonly model?: string;
  readonly game?: string;
  readonly framing?: string;
}

export interface ReviewedPrompt {
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  /** Relative file path: <model>/<game>/<framing>.txt (ids are plain, see design-schema). */
  readonly file: string;
  readonly text: string;
}

export function reviewEnrichmentPrompts(design: Design, filter: PromptFilter = {}): ReviewedPrompt[] {
  const e = design.enrichment!;
  const cells = e.conditions.flatMap((c) => e.worlds.flatMap((w) => e.formats.map((f) => ({ c: c.id, w: w.id, f: f.id, framing: cellFraming(c.id, w.id,
    f.id) }))));
  const check = (what: string, v: string | undefined, known: readonly string[]) => {
    if (v !== undefined && !known.includes(v)) throw new UserError(liveMsg.noMatch(what, v, known));
  };
  check('--model', filter.model, design.models.map((m) => m.id));
  check('--game', filter.game, [e.scenario]);
  check('--framing', filter.framing, cells.map((x) => x.framing));
  const out: ReviewedPrompt[] = [];
  for (const m of design.models) {
    if (filter.model !== undefined && m.id !== filter.model) continue;
    for (const x of cells) {
      if (filter.framing !== undefined && x.framing !== filter.framing) continue;
      const r = renderEnrichmentCell(e, x.c, x.w, x.f);
      const text = [
        `=== model ${m.id} (${m.provider}: ${m.model}) | scenario ${e.scenario} | condition ${x.c} | world ${x.w} | format ${x.f} ===`,
        `labels: ${e.actions[0]} = C, ${e.actions[1]} = D${design.synthetic ? ' | synthetic design' : ''}`,
        ...(r.system === undefined ? [] : ['--- system ---', r.system]),
        '--- user ---', r.prompt, '',
      ].join('\n');
      out.push({ model: m.id, game: e.scenario, framing: x.framing, file: `${m.id}/${e.scenario}/${x.framing}.txt`, text });
    }
  }
  return out;
}
