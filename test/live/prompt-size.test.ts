/**
 * The prompt size rule on every kind of design: a template that expands past 8 Mi characters is refused when the design is
 * read, in one line naming its field — a context-enrichment format (its longest cell), a repeated game's history at its
 * longest (the last round) — and the starters, and a long but legal repeated game, are read.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { parseDesign } from '../../src/live/design/design.js';
import { initDesign } from '../../src/commands/init-designs.js';
import { FilledTooLong, fillParts, MAX_FILLED_CHARS, parseTemplate } from '../../src/live/prompts/template.js';
import { planMatches } from '../../src/live/repeated/plan.js';
import { roundPrompt } from '../../src/live/repeated/prompt.js';

function refusal(text: string): string {
  try {
    parseDesign(text, 'd.yaml');
  } catch (e) {
    if (e instanceof UserError) return e.message;
    throw e;
  }
  throw new Error('the design was read');
}

describe('prompt size rule', () => {
  it('context enrichment: a format whose placeholders expand past the limit is refused naming the format and the cell', () => {
    const starter = initDesign('en', 'enrichment');
    expect(parseDesign(starter, 'd.yaml').enrichment).toBeDefined();
    // 225 KB of template that expands to some 12 M characters
    const big = starter.replace(/( +)\{payoffs\}\n/, (_, pad: string) => `${pad}${'{payoffs}'.repeat(25_000)}\n`);
    const m = refusal(big);
    expect(m.split('\n')).toHaveLength(1);
    expect(m).toMatch(/^d\.yaml:\d+: field "formats\[0\]\.template": cell [\w-]+\/[\w-]+\/[\w-]+: its prompt is [\d,]+ characters; a prompt is at most 8,388,608/);
  });

  it('repeated play: a history whose last round passes the limit is refused naming the history, the round and the framing', () => {
    const starter = initDesign('rp', 'repeated');
    const line = 'Round {round}: you {own}, they {other}. '.repeat(400); // ~16 KB a round; 999 rounds of history: ~13 M characters
    const big = starter.replace(/rounds: 3/, 'rounds: 1000').replace(/history: akata.*$/m, `history: { template: "${line}" }`);
    const m = refusal(big);
    expect(m.split('\n')).toHaveLength(1);
    expect(m).toMatch(/^d\.yaml:\d+: field "play\.history": framing [\w-]+: its prompt for game [\w-]+ in round 1000 \(the history of 999 rounds/);
    // the same history over 400 rounds stays under the limit: read, and its last round's prompt is as long as the rule bounds it
    const ok = parseDesign(starter.replace(/rounds: 3/, 'rounds: 400').replace(/history: akata.*$/m, `history: { template: "${line}" }`), 'd.yaml');
    const m0 = planMatches(ok)[0];
    const history = Array.from({ length: 399 }, () => ({ moves: ['D', 'D'] as const }));
    const last = roundPrompt({ play: ok.play!, game: m0.game, framing: m0.framing, seat: 1, match: m0.match, round: 400, history });
    expect(last.prompt.length).toBeGreaterThan(5_000_000);
    expect(last.prompt.length).toBeLessThanOrEqual(MAX_FILLED_CHARS);
  });

  it('a fill past the limit is never built: FilledTooLong with the length it would have had', () => {
    const t = parseTemplate('{x}{x}{x}', ['x']);
    if (t.fault) throw new Error('parse');
    const x = 'a'.repeat(3_000_000);
    expect(() => fillParts(t.parts, { x })).toThrow(FilledTooLong);
    try { fillParts(t.parts, { x }); } catch (e) { expect((e as FilledTooLong).chars).toBe(9_000_000); }
    expect(fillParts(t.parts, { x: 'ab' })).toBe('ababab');
  });
});
