/**
 * Framings as story templates in one-shot, repeated and context-enrichment designs: the rendered
 * prompts carry the game's numbers and labels; the payoff-equivalence check refuses what is
 * missing; the committed golden of today's prompts (test/golden/prompts/, taken before templates
 * existed) still holds for every data/designs design, and a repeated {rules} template changes
 * only where {rules} carried the one-shot wording.
 *
 * The golden was written at commit 731ecbf, before templates: `samegame prompts DESIGN >
 * test/golden/prompts/NAME.txt` for every data/designs design and the {rules} fixture, and the
 * round-3 prompts (`*-round3.raw.txt`) as `round3` below writes them (seat 1, match 1, the example
 * history CC, CD). It is never regenerated: it is what the prompts were.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { designWarnings, expandDesign, loadDesign, parseDesign } from '../../src/live/design/design.js';
import { exampleHistory, reviewPrompts } from '../../src/live/prompts/review.js';
import { roundPrompt } from '../../src/live/repeated/prompt.js';
import { ROOT } from '../helpers/cli.js';
import { MAX_TEMPLATE_BYTES } from '../../src/live/design/framings.js';

const FIX = join(ROOT, 'test/fixtures/templates');
const GOLDEN = join(ROOT, 'test/golden/prompts');
const err = (text: string, file = join(FIX, 'd.yaml')) => {
  try { parseDesign(text, file); } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; }
  throw new Error('expected a UserError');
};
const design = (framings: string, extra = '') => `name: t
models: [{ id: a, provider: simulated }]
games: [prisoners-dilemma, stag-hunt]
framings:
${framings}
trials: 1
${extra}`;

describe('a template framing in a one-shot design', () => {
  const d = loadDesign(join(FIX, 'neighbours.yaml'));

  it('renders the game\'s numbers for every placeholder and the labels, then the answer instruction', () => {
    const specs = expandDesign(d).filter((s) => s.rep === 0);
    expect(specs.map((s) => `${s.game}/${s.framing}`)).toEqual(['prisoners-dilemma/neighbours', 'prisoners-dilemma/strangers', 'stag-hunt/neighbours', 'stag-hunt/strangers']);
    const sh = specs.find((s) => s.game === 'stag-hunt' && s.framing === 'strangers')!;
    // Stag Hunt (Appendix A): CC 10/10, CD 2/5, DC 5/2, DD 3/3.
    expect(sh.prompt).toContain('If you both Help, you get\n10 and the stranger gets 10. If you Help and the stranger chooses Keep, you get\n2 and the stranger gets 5.');
    expect(sh.prompt).toContain('If you both Keep, you get 3 and the\nstranger gets 3.');
    expect(sh.prompt.endsWith('Which do you choose?\nAnswer with exactly one word, either Help or Keep, and nothing else.')).toBe(true);
    expect(sh.labels).toEqual({ Help: 'C', Keep: 'D' });
    const pd = specs.find((s) => s.game === 'prisoners-dilemma' && s.framing === 'neighbours')!;
    expect(pd.prompt).toContain('- If you choose Keep and the other player chooses Help, you receive 10 points and the other player receives 2 points.');
    expect(pd.prompt).not.toMatch(/[{}]/);
  });

  it('{answer} places the instruction; a template stating it keeps it where it is', () => {
    const at = parseDesign(design('  - { id: x, template: "{payoffs}\\n{answer}\\nThanks." }'), 'd.yaml');
    expect(expandDesign(at)[0].prompt.endsWith('Answer with exactly one word, either C or D, and nothing else.\nThanks.')).toBe(true);
    const stated = parseDesign(design('  - { id: x, template: "{payoffs}\\nAnswer with exactly one word, either {C} or {D}, and nothing else. Go." }'), 'd.yaml');
    expect(expandDesign(stated)[0].prompt.match(/Answer with exactly one word/g)).toHaveLength(1);
    expect(expandDesign(stated)[0].prompt.endsWith('nothing else. Go.')).toBe(true);
  });

  it('refuses a template missing a payoff, with an unknown placeholder, an unclosed brace or an unreadable file: file, line, field', () => {
    expect(err(design('  - id: x\n    template: "{C} {D} {you.CC} {you.CD} {you.DC} {you.DD} {other.CC} {other.CD} {other.DC}"')))
      .toMatch(/d\.yaml:6: field "framings\[0\]\.template": framing x: the template never states \{other\.DD\} \(/);
    expect(err(design('  - id: x\n    template: "{payoffs} {you.XY}"'))).toMatch(/d\.yaml:6: field "framings\[0\]\.template": unknown placeholder \{you\.XY\}/);
    expect(err(design('  - id: x\n    template: "{payoffs} {C"'))).toMatch(/d\.yaml:6: field "framings\[0\]\.template": unclosed brace at "\{C"/);
    expect(err(design('  - id: x\n    template_file: nowhere.txt'))).toMatch(/d\.yaml:6: field "framings\[0\]\.template_file": cannot read the template file "nowhere\.txt" \(ENOENT\)/);
    expect(err(design('  - { id: x, family: business, template: "{payoffs}" }'))).toMatch(/give exactly one of family, template, template_file/);
    expect(err(design('  - id: x\n    template_file: .'))).toMatch(/field "framings\[0\]\.template_file": cannot read the template file "\." \(EISDIR\)/);
    const big = join(mkdtempSync(join(tmpdir(), 'samegame-big-')), 'big.txt');
    writeFileSync(big, `{payoffs}${' '.repeat(MAX_TEMPLATE_BYTES)}`);
    expect(err(design(`  - id: x\n    template_file: ${JSON.stringify(big)}`))).toMatch(/the template file ".*big\.txt" is larger than 1 MiB/);
  });

  it('warns of a number in the template that equals a payoff', () => {
    const text = design('  - { id: x, template: "{payoffs} Each of you starts with 10 points." }');
    const line = text.split('\n').findIndex((l) => l.includes('starts with 10 points')) + 1;
    expect(line).toBeGreaterThan(0);
    const w = designWarnings(parseDesign(text, 'd.yaml'));
    expect(w).toEqual([`d.yaml:${line}: framing x: template line 1 writes 10, a payoff of prisoners-dilemma, as text; `
      + 'a hard-coded number does not follow the game (use a placeholder such as {you.CC})']);
    expect(designWarnings(loadDesign(join(FIX, 'neighbours.yaml')))).toEqual([]);
  });
});

describe('the same framings in a repeated design', () => {
  const text = readFileSync(join(FIX, 'neighbours.yaml'), 'utf8').replace('trials: 20', 'trials: 2\nplay: { rounds: 3, opponents: [self] }').replace('name: neighbours', 'name: neighbours-repeated');
  const d = parseDesign(text, join(FIX, 'neighbours-repeated.yaml'));

  it('round 3 holds the story, the payoffs, exactly two history lines and no one-shot wording', () => {
    for (const f of d.framings) {
      const p = roundPrompt({ play: d.play!, game: d.games[0], framing: f, seat: 1, match: 1, round: 3, history: exampleHistory(3) }).prompt;
      expect(p).toContain(f.id === 'neighbours' ? 'You and your neighbour each tend a garden plot' : 'You and a stranger you will never meet again');
      expect(p).toMatch(/you get\s+5 and the stranger gets 5|you receive 5 points and the other player receives 5 points/); // PD CC
      expect(p.match(/^In round \d+, you chose/gm)).toHaveLength(2);
      expect(p).toContain('You are currently playing round 3.');
      expect(p).not.toMatch(/one-shot/);
      expect(p.match(/Answer with exactly one word/g)).toHaveLength(1);
      expect(p.endsWith('Answer with exactly one word, either Help or Keep, and nothing else.')).toBe(true);
    }
  });
});

describe('any template text in a design', () => {
  const token = fc.oneof(fc.constantFrom('{payoffs}', '{C}', '{D}', '{answer}', '{you.CC}', '{other.DD}', '{you.XY}', '{', '}', '{{', '}}', '{x', ' 10 ', '\n'), fc.string({ maxLength: 6 }));
  it('is accepted exactly when it follows the rule and states the matrix; accepted, its prompts state every payoff, both labels and the answer instruction', () => {
    let accepted = 0;
    fc.assert(fc.property(fc.boolean(), fc.array(token, { minLength: 1, maxLength: 8 }), (whole, tokens) => {
      const t = `${whole ? '{payoffs} ' : ''}${tokens.join('')}`;
      let d;
      try { d = parseDesign(design(`  - { id: x, labels: [Up, Down], template: ${JSON.stringify(t)} }`), 'd.yaml'); accepted++; } catch (e) {
        expect(e).toBeInstanceOf(UserError);
        expect((e as Error).message.split('\n')[0]).toMatch(/^d\.yaml:\d+: /);
        return;
      }
      const specs = expandDesign(d);
      for (const sp of specs) {
        const g = d.games.find((x) => x.id === sp.game)!;
        for (const r of ['C', 'D'] as const) for (const c of ['C', 'D'] as const) for (const v of g.payoffs[r][c]) expect(sp.prompt).toContain(String(v));
        expect(sp.prompt).toContain('Up');
        expect(sp.prompt).toContain('Down');
        expect(sp.prompt.match(/Answer with exactly one word, either Up or Down, and nothing else\./g)?.length).toBeGreaterThanOrEqual(1);
      }
    }), { numRuns: 300 });
    expect(accepted).toBeGreaterThan(30); // both sides of the rule are exercised
  });
});

describe('one placeholder rule for the templates of play', () => {
  const play = (history: string) => design('  - business', `play:\n  rounds: 3\n  opponents: [self]\n  history: { template: ${JSON.stringify(history)} }`);
  it.each([
    ['{round}: {own_payoff:.2f}', /\{own_payoff:\.2f\} is not a placeholder/],
    ['{round}: {', /unclosed brace/],
    ['{round}: }', /a stray "\}"/],
    ['{{own}}', /the template has no placeholder/],
    ['{round} {nope}', /unknown placeholder \{nope\}/],
  ])('a history template %j is refused with file, line and field', (t, message) => {
    const m = err(play(t));
    expect(m).toMatch(/d\.yaml:10: field "play\.history\.template": /);
    expect(m).toMatch(message);
  });

  it('a round template must name {rules}, which states the payoffs', () => {
    expect(err(design('  - business', 'play: { rounds: 2, opponents: [self], prompt: { template: "{history} Round {round}." } }')))
      .toMatch(/field "play\.prompt\.template": the round prompt never states the payoffs: name \{rules\}/);
  });
});

describe('the golden of today\'s prompts', () => {
  const designs = readdirSync(join(ROOT, 'data/designs')).filter((f) => f.endsWith('.yaml'));

  it.each(designs)('%s renders byte-identical prompts', (f) => {
    const d = loadDesign(join(ROOT, 'data/designs', f));
    expect(reviewPrompts(d).map((p) => p.text).join('\n')).toBe(readFileSync(join(GOLDEN, f.replace('.yaml', '.txt')), 'utf8'));
  });

  const round3 = (file: string) => {
    const d = loadDesign(file);
    return d.games.flatMap((g) => d.framings.map((f) => `=== ${g.id} ${f.id}\n${roundPrompt({ play: d.play!, game: g, framing: f, seat: 1, match: 1, round: 3, history: exampleHistory(3) }).prompt}\n`)).join('');
  };
  const oneShotWording = (s: string) => s.replace(/one-shot /g, '').replace(/\n\n[^\n]*\?\nAnswer with exactly one word[^\n]*/g, '');

  it('an akata repeated design: round 3 byte-identical', () => {
    expect(round3(join(ROOT, 'data/designs/akata-pd-sim.yaml'))).toBe(readFileSync(join(GOLDEN, 'akata-pd-sim-round3.raw.txt'), 'utf8'));
  });

  it('a {rules} template: differs only where {rules} carried the one-shot wording (round 1 and round 3)', () => {
    const before = readFileSync(join(GOLDEN, 'rules-template-round3.raw.txt'), 'utf8');
    const now = round3(join(FIX, 'rules-template.yaml'));
    expect(now).not.toBe(before);
    expect(now).toBe(oneShotWording(before));
    const r1 = reviewPrompts(loadDesign(join(FIX, 'rules-template.yaml'))).map((p) => p.text).join('\n');
    expect(r1).toBe(oneShotWording(readFileSync(join(GOLDEN, 'rules-template.txt'), 'utf8')));
  });
});
