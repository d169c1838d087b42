/**
 * A context-enrichment format may be a template: the slots are placeholders beside the framing's
 * ({payoffs}, {you.XY} …), every slot must be placed, and every cell must state the whole payoff
 * matrix, through the template or through its facts' {T} {R} {P} {S}. Facts follow the same
 * placeholder rule as every template.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { designWarnings, expandDesign, parseDesign } from '../../src/live/design/design.js';
import { initDesign } from '../../src/commands/init-designs.js';

const base = initDesign('e', 'enrichment');
const err = (text: string) => {
  try { parseDesign(text, 'e.yaml'); } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; }
  throw new Error('expected a UserError');
};

describe('format templates', () => {
  it('fill the slots with the cell\'s facts and the world\'s payoffs, then the answer instruction', () => {
    const d = parseDesign(base, 'e.yaml');
    const trials = expandDesign(d).filter((t) => t.rep === 0);
    // 2 conditions × 2 worlds × 2 formats
    expect(trials).toHaveLength(8);
    const story = trials.find((t) => t.framing === 'norms/strangers/story')!;
    expect(story.prompt).toBe([
      'Two people each tend a garden plot and share one water supply. The other gardener is a stranger you will never meet again. Around here, gardeners are expected to share water in a dry season.',
      'Each chooses to HELP with the shared watering or to KEEP their water.',
      'The points of each outcome:',
      // payoffs T 5, R 4, P 2, S 0: CC (R, R), CD (S, T), DC (T, S), DD (P, P)
      '- If you choose HELP and the other player chooses HELP, you receive 4 points and the other player receives 4 points.',
      '- If you choose HELP and the other player chooses KEEP, you receive 0 points and the other player receives 5 points.',
      '- If you choose KEEP and the other player chooses HELP, you receive 5 points and the other player receives 0 points.',
      '- If you choose KEEP and the other player chooses KEEP, you receive 2 points and the other player receives 2 points.',
      'Answer with exactly one word, either HELP or KEEP, and nothing else.',
    ].join('\n'));
    const plain = trials.find((t) => t.framing === 'plain/neighbours/terse')!;
    expect(plain.prompt).toContain('The other gardener is your neighbour of many years.  Each chooses'); // the empty {norm} slot
    expect(plain.prompt).toContain('Both HELP: you 4, they 4. You HELP, they KEEP: you 0, they 5.\nYou KEEP, they HELP: you 5, they 0. Both KEEP: you 2, they 2.');
  });

  it('refuses a format that drops a slot, one that never states a payoff, and a format with both a style and a template', () => {
    expect(err(base.replace('{intro} {context} {norm}\n      {game}', '{intro} {context}\n      {game}')))
      .toMatch(/^e\.yaml:\d+: field "formats\[0\]\.template": format story: the template never places the slot \{norm\}/);
    expect(err(base.replace('Both {D}: you {you.DD}, they {other.DD}.', 'Both {D}: you {you.DD}.')))
      .toMatch(/field "formats\[1\]\.template": format terse: the cell plain\/neighbours never states \{other\.DD\}/);
    expect(err(base.replace('  - id: story\n', '  - id: story\n    style: prose\n'))).toMatch(/field "formats\[0\]\.id": a format is a style or a template/);
  });

  it('payoffs stated by the facts\' {T} {R} {P} {S} count for a template without {payoffs}', () => {
    const facts = base.replace('    - text: "Each chooses to {C} with the shared watering or to {D} their water."',
      '    - text: "Each chooses to {C} with the shared watering or to {D} their water. Both {C}: {R} each; both {D}: {P} each; one {C}, one {D}: {S} for the first, {T} for the second."')
      .replace('      The points of each outcome:\n      {payoffs}\n', '');
    expect(() => parseDesign(facts, 'e.yaml')).not.toThrow();
  });

  it('a fact with a stray brace is refused like any template', () => {
    expect(err(base.replace('share one water supply."', 'share one water supply {."')))
      .toMatch(/field "base\.intro\[0\]\.text": unclosed brace/);
  });
});

describe('a number written in a format template', () => {
  it('is warned of with the design file and line where it stands', () => {
    const text = base.replace('      The points of each outcome:\n', '      The points of each outcome (a win is 5 points):\n');
    expect(text).not.toBe(base);
    const line = text.split('\n').findIndex((l) => l.includes('a win is 5 points')) + 1;
    const warnings = designWarnings(parseDesign(text, 'e.yaml')).filter((w) => w.includes('writes 5'));
    // 5 is world payoff T; the line in the format's inline block, found in the text itself.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^e\\.yaml:${line}: format story: template line \\d+ writes 5, a payoff of `));
  });
});
