/**
 * The payoff rule (docs/methods.md §18b) on a corpus of 20 correct templates in different styles
 * (test/fixtures/payoff-templates/: sentences, bullet and numbered lists, lists under a lead-in,
 * tables, second and third person): none refused and none undecided, in one-shot, repeated and
 * context-enrichment designs; each of the 8 payoff placeholders moved to a wrong outcome, and
 * every pairwise swap of two of them, refused in every template and every kind of design. Then
 * generated templates (fast-check) and the number rule.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { designWarnings, parseDesign } from '../../src/live/design/design.js';
import { initDesign } from '../../src/commands/init-designs.js';
import { framingMeanings, payoffCheck } from '../../src/live/prompts/payoff/index.js';
import { FRAMING_PLACEHOLDERS, PAYOFF_PLACEHOLDERS } from '../../src/live/prompts/placeholders.js';
import { ROOT, runCli } from '../helpers/cli.js';

const DIR = join(ROOT, 'test/fixtures/payoff-templates');
const CORPUS = readdirSync(DIR).filter((f) => f.endsWith('.txt')).sort().map((f) => ({ file: f, text: readFileSync(join(DIR, f), 'utf8') }));
const outcome = (p: string) => p.split('.')[1];

const indent = (t: string) => t.replace(/\n$/, '').split('\n').map((l) => `      ${l}`).join('\n');
const KINDS = {
  'one-shot': (t: string) => 'name: t\nmodels: [{ id: a, provider: simulated }]\ngames: [prisoners-dilemma, stag-hunt]\nframings:\n'
    + `  - id: story\n    labels: [Help, Keep]\n    template: |\n${indent(t)}\ntrials: 1\n`,
  repeated: (t: string) => `${KINDS['one-shot'](t)}play: { rounds: 2, opponents: [self] }\n`,
  enrichment: (t: string) => initDesign('e', 'enrichment')
    .replace(/  - id: terse\n    template: \|\n[\s\S]*$/, `  - id: terse\n    template: |\n${indent(`{intro} {context} {norm} {game}\n\n${t}`)}\n`),
};
const refusal = (text: string): string | undefined => {
  try { parseDesign(text, 'd.yaml'); return undefined; } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; }
};
const check = (t: string) => payoffCheck(t, FRAMING_PLACEHOLDERS, framingMeanings(), 'framing story');
/** Every occurrence of a and b exchanged. */
const swap = (t: string, a: string, b: string) => t.split(`{${a}}`).map((s) => s.split(`{${b}}`).join(`{${a}}`)).join(`{${b}}`);

describe('the corpus of correct templates', () => {
  it('holds 20 templates, each stating every payoff placeholder once', () => {
    expect(CORPUS).toHaveLength(20);
    for (const { text } of CORPUS) for (const p of PAYOFF_PLACEHOLDERS) expect(text.split(`{${p}}`)).toHaveLength(2);
  });
  for (const [kind, wrap] of Object.entries(KINDS)) {
    it(`${kind}: none is refused and no clause is left undecided`, () => {
      for (const { file, text } of CORPUS) {
        expect(check(text), file).toEqual({ undecided: [] });
        let warnings: string[] = [];
        expect(() => { warnings = designWarnings(parseDesign(wrap(text), 'd.yaml')); }, file).not.toThrow();
        expect(warnings.filter((w) => /payoff rule cannot decide/.test(w)), file).toEqual([]);
      }
    });
  }
});

describe('what init writes', () => {
  it('is accepted for every kind, with no clause left undecided and no number warned of', () => {
    for (const kind of ['one-shot', 'repeated', 'enrichment'] as const) expect(designWarnings(parseDesign(initDesign('s', kind), 's.yaml')), kind).toEqual([]);
  });
});

describe('a payoff placeholder at a wrong outcome or player', () => {
  it('each of the 8 moved to a wrong outcome (one at a time) is a fault of the rule in every template', () => {
    let n = 0;
    for (const { file, text } of CORPUS) {
      for (const p of PAYOFF_PLACEHOLDERS) {
        for (const q of PAYOFF_PLACEHOLDERS.filter((x) => outcome(x) !== outcome(p))) {
          const moved = text.replace(`{${p}}`, `{${q}}`);
          const f = check(moved).fault;
          expect(f, `${file}: {${p}} -> {${q}}`).toBeDefined();
          expect(f!.message).toMatch(new RegExp(`names outcome (CC|CD|DC|DD) .* states \\{(you|other)\\.(CC|CD|DC|DD)\\}, a payoff of outcome`));
          n++;
        }
      }
    }
    expect(n).toBe(20 * 8 * 6);
  });

  const pairs = PAYOFF_PLACEHOLDERS.flatMap((a, i) => PAYOFF_PLACEHOLDERS.slice(i + 1).map((b) => [a, b] as const));

  it('every pairwise swap of two of the 8 is a fault of the rule in every template', () => {
    expect(pairs).toHaveLength(28);
    for (const { file, text } of CORPUS) {
      for (const [a, b] of pairs) expect(check(swap(text, a, b)).fault, `${file}: {${a}} <-> {${b}}`).toBeDefined();
    }
  });

  for (const [kind, wrap] of Object.entries(KINDS)) {
    // The design-level refusal of each of the 28 swaps, each on two templates of the corpus in turn (the rule itself is run on all above).
    it(`${kind}: every pairwise swap is refused in one line naming the design, framing, line and the two outcomes`, () => {
      pairs.forEach(([a, b], i) => {
        for (const { file, text } of [CORPUS[i % 20], CORPUS[(i + 7) % 20]]) {
          const m = refusal(wrap(swap(text, a, b)));
          expect(m, `${file}: {${a}} <-> {${b}}`).toBeDefined();
          expect(m!.split('\n'), `${file}: {${a}} <-> {${b}}`).toHaveLength(1);
          const subject = kind === 'enrichment' ? 'format terse' : 'framing story';
          const field = '(framings\\[0\\]|formats\\[1\\])\\.template';
          expect(m).toMatch(new RegExp(`^d\\.yaml:\\d+: field "${field}": ${subject}: template line \\d+: the clause ".*" names outcome (CC|CD|DC|DD) `));
          expect(m).toMatch(/ (a payoff of outcome (CC|CD|DC|DD)|but in outcome (CC|CD|DC|DD) it is)/);
        }
      });
    });
  }

  it('points the design line at the template line of the fault inside a literal block', () => {
    const t = CORPUS.find((c) => c.file === '01-sentences.txt')!.text;
    // {you.DD} and {you.CC} swapped: the first fault is {you.DD} on template line 2, design line 7 + 2.
    expect(refusal(KINDS['one-shot'](swap(t, 'you.CC', 'you.DD')))).toBe('d.yaml:9: field "framings[0].template": framing story: template line 2: '
      + 'the clause "If you both {C}, you get {you.DD} and the stranger gets {other.CC}." names outcome CC (you {C}, the other player {C}) '
      + 'but states {you.DD}, a payoff of outcome DD: each payoff must sit with its own outcome (docs/methods.md §18b)');
  });
});

describe('a template file', () => {
  it('with a swapped payoff is refused naming the design line, the file and the template line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'samegame-payoff-file-'));
    writeFileSync(join(dir, 'story.txt'), swap(CORPUS[0].text, 'other.CD', 'other.DC'));
    const text = 'name: t\nmodels: [{ id: a, provider: simulated }]\ngames: [prisoners-dilemma]\nframings:\n  - { id: s, template_file: story.txt }\ntrials: 1\n';
    let message = '';
    try { parseDesign(text, join(dir, 'd.yaml')); } catch (e) { expect(e).toBeInstanceOf(UserError); message = (e as Error).message; }
    expect(message).toBe(`${join(dir, 'd.yaml')}:5: field "framings[0].template_file": story.txt: framing s: template line 3: `
      + 'the clause "If you {C} and the stranger chooses {D}, you get {you.CD} and the stranger gets {other...." names outcome CD '
      + '(you {C}, the other player {D}) but states {other.DC}, a payoff of outcome DC: each payoff must sit with its own outcome (docs/methods.md §18b)');
  });
});

describe('generated templates', () => {
  const ROLE = {
    you: ['you', 'your side', 'Player A'],
    other: ['the other player', 'they', 'your opponent', 'Player B'],
  };
  const actionWord = fc.constantFrom('choose', 'pick', 'play', 'go for');
  const getWord = fc.constantFrom('get', 'receive', 'earn', 'score');
  /** One outcome as a clause: the two actions in either order, then the two payoffs in either order. */
  const clause = (x: string, y: string) => fc.record({
    you: fc.constantFrom(...ROLE.you), other: fc.constantFrom(...ROLE.other), act: actionWord, get: getWord,
    actionsFirst: fc.boolean(), otherFirst: fc.boolean(), payoffsFirst: fc.boolean(), style: fc.constantFrom('sentence', 'item'),
  }).map((r) => {
    const acts = [`${r.you} ${r.act} {${x}}`, `${r.other} ${r.act} {${y}}`];
    const pays = [`${r.you} ${r.get} {you.${x}${y}}`, `${r.other} ${r.get} {other.${x}${y}}`];
    const a = (r.otherFirst ? acts.reverse() : acts).join(' and ');
    const p = (r.payoffsFirst ? pays.reverse() : pays).join(' and ');
    const s = r.actionsFirst ? `If ${a}, ${p}.` : `${p[0].toUpperCase()}${p.slice(1)} when ${a}.`;
    return r.style === 'item' ? `- ${s}` : s;
  });
  const template = fc.tuple(clause('C', 'C'), clause('C', 'D'), clause('D', 'C'), clause('D', 'D'), fc.constantFrom(' ', '\n'))
    .chain(([a, b, c, d, sep]) => fc.shuffledSubarray([a, b, c, d], { minLength: 4, maxLength: 4 })
      .map((xs) => xs.join(xs.some((x) => x.startsWith('-')) ? '\n' : sep)));

  it('a correct template is never refused nor undecided', () => {
    fc.assert(fc.property(template, (t) => { expect(check(t)).toEqual({ undecided: [] }); }), { numRuns: 200 });
  });

  it('a template with two payoff placeholders exchanged or one moved to another outcome is always refused', () => {
    const mutation = fc.tuple(fc.constantFrom(...PAYOFF_PLACEHOLDERS), fc.constantFrom(...PAYOFF_PLACEHOLDERS), fc.boolean()).filter(([a, b]) => a !== b);
    fc.assert(fc.property(template, mutation, (t, [a, b, move]) => {
      if (move && outcome(a) === outcome(b)) return;
      const m = move ? t.replace(`{${a}}`, `{${b}}`) : swap(t, a, b);
      expect(check(m).fault).toBeDefined();
    }), { numRuns: 300 });
  });
});

describe('clauses the rule cannot decide', () => {
  it('are warnings naming the template line and the clause, never refusals', () => {
    const t = '{C} or {D}?\nThe payoffs are {you.CC}, {other.CC}, {you.CD}, {other.CD}, {you.DC}, {other.DC}, {you.DD} and {other.DD}.';
    expect(check(t).fault).toBeUndefined();
    expect(check(t).undecided).toEqual([
      'framing story: template line 2: the payoff rule cannot decide the clause "The payoffs are {you.CC}, {other.CC}, {you.CD}, {other.C'
      + 'D}, {you.DC}, {other.DC}, {you....": it names no action; {you.CC}, {other.CC}, {you.CD}, {other.CD}, {you.DC}, {other.DC}, {you.DD'
      + '}, {other.DD} not checked against their outcome (write each outcome as "if you {C} and the other player {D}, you get {you.CD} and '
      + 'they get {other.CD}", docs/methods.md §18b)',
    ]);
    const unless = 'If you {C} you get {you.CC} unless the other player chooses {D}.';
    expect(check(unless).undecided[0]).toMatch(/it negates an action or speaks of several outcomes/);
    // Names the story does not declare: the matrix order (first action yours) is not assumed, in either order.
    for (const named of [
      'If Bob picks {D} and Alice picks {C}, Alice gets {you.CD} and Bob gets {other.CD}.',
      'If Alice picks {C} and Bob picks {D}, Alice gets {you.CD} and Bob gets {other.CD}.',
    ]) {
      expect(check(named)).toEqual({ undecided: [expect.stringMatching(/it does not say which player takes which action/)] });
    }
    const two = 'If you choose {D}, you get {you.DC} if they choose {C} and {you.DD} if they choose {D}.';
    expect(check(two).undecided[0]).toMatch(/it names more than one outcome/);
    const w = designWarnings(parseDesign(KINDS['one-shot'](`${CORPUS[0].text}\n${unless}`), 'd.yaml'));
    const start = 'framing story: template line 8: the payoff rule cannot decide the clause "If you {C} you get {you.CC} unless';
    expect(w.some((x) => x.startsWith(start))).toBe(true);
  });
});

describe('facts of a context-enrichment design', () => {
  const facts = (text: string) => initDesign('e', 'enrichment')
    .replace('    - text: "Each chooses to {C} with the shared watering or to {D} their water."', `    - text: ${JSON.stringify(text)}`);
  it('a fact that gives {T} to the cooperator is refused at its field; a correct one passes', () => {
    expect(refusal(facts('Each chooses to {C} or to {D}. If you {C} and they {D}, you get {S} and they get {T}.'))).toBeUndefined();
    expect(refusal(facts('Each chooses to {C} or to {D}. If you {C} and they {D}, you get {T} and they get {S}.')))
      .toBe('d.yaml:44: field "base.game[0].text": fact: template line 1: the clause "If you {C} and they {D}, you get {T} and they get {S}." '
        + 'names outcome CD (you {C}, the other player {D}) and gives {T} to you, but in outcome CD it is the other player\'s payoff (docs/methods.md §18b)');
    expect(refusal(facts('Each chooses to {C} or to {D}. If you both {C}, each gets {P}.')))
      .toMatch(/names outcome CC .* but states \{P\}, a payoff of outcome DD/);
  });
});

describe('the number rule', () => {
  /** The warnings of a one-shot design telling `story`, each checked to begin with the design line where the story stands, then without it. */
  const warnings = (story: string) => {
    const text = KINDS['one-shot'](`${story}\n{payoffs}`);
    const at = `d.yaml:${text.split('\n').findIndex((l) => l.includes(story.split('\n')[0])) + 1}: `;
    expect(at).not.toBe('d.yaml:0: ');
    return designWarnings(parseDesign(text, 'd.yaml')).map((w) => { expect(w.startsWith(at)).toBe(true); return w.slice(at.length); });
  };
  it('warns of a number no game has, payoff-shaped or not, and of a number that is a payoff', () => {
    expect(warnings('The warden fines anyone who chooses {D} 100 dollars.')).toEqual([
      'framing story: template line 1 writes 100 as a payoff or a cost ("warden fines anyone who chooses … 100 dollars."), '
      + 'a number no game of this design has as a payoff: '
      + 'a story that states a payoff, a fine or a bonus of its own changes the game, and the static check cannot tell (docs/methods.md §18b)',
    ]);
    expect(warnings('A village of 100 families shares the well.')[0])
      .toMatch(/^framing story: template line 1 writes 100 \("A village of 100 families shares the"\), a number no game/);
    // 3 is a payoff of the Prisoner's Dilemma: the fine in words is named as a hard-coded payoff; fifty is no game's.
    expect(warnings('The warden fines anyone who chooses {D} three points.')[0])
      .toMatch(/^framing story: template line 1 writes three, a payoff of prisoners-dilemma, as text/);
    expect(warnings('The warden fines anyone who chooses {D} fifty points.')[0]).toMatch(/writes fifty as a payoff or a cost/);
    expect(warnings('Each of you starts with 10 points.')).toEqual([
      'framing story: template line 1 writes 10, a payoff of prisoners-dilemma, as text; '
      + 'a hard-coded number does not follow the game (use a placeholder such as {you.CC})',
    ]);
  });
  it('does not warn of percentages, labels, ordinals, counts, list numbers or numbers inside words', () => {
    const story = 'A 10% cut, or 15 percent, or 20 per cent. Player 2 acts 1st in round 3 of 10 rounds; 2 players, 4 options.\n1. A GPT4 agent.';
    expect(warnings(story)).toEqual([]);
  });
  it('a number anywhere in a generated story that is neither a placeholder nor excluded is always warned of', () => {
    const stories = fc.constantFrom('Around here, {n} families share the well.', 'You lose {n} points.', 'The fine is ${n}.', 'It costs {n}.');
    fc.assert(fc.property(fc.integer({ min: 11, max: 99999 }), stories, (n, s) => {
      expect(warnings(s.replace('{n}', String(n))).some((w) => w.includes(`writes ${n}`))).toBe(true);
    }), { numRuns: 30 });
  });
});

describe('each of the 8 moved to a wrong outcome, in a design', () => {
  const moves = PAYOFF_PLACEHOLDERS.flatMap((p) => PAYOFF_PLACEHOLDERS.filter((q) => outcome(q) !== outcome(p)).map((q) => [p, q] as const));
  Object.entries(KINDS).forEach(([kind, wrap], k) => {
    // The 48 moves shared out among the three kinds of design (each on a template of the corpus in turn; the rule itself is run on all
    // of them above). Each is refused by the payoff rule, naming the clause and both outcomes: a story framing that no longer states
    // the payoff moved is not refused only as never stating it.
    it(`${kind}: each move is refused in one line naming the design, the framing or format, and the outcomes`, () => {
      expect(moves).toHaveLength(48);
      const mine = moves.filter((_, i) => i % 3 === k);
      expect(mine).toHaveLength(16);
      mine.forEach(([p, q], i) => {
        const { file, text } = CORPUS[(3 * i + k) % 20];
        const m = refusal(wrap(text.replace(`{${p}}`, `{${q}}`)));
        expect(m, `${file}: {${p}} -> {${q}}`).toBeDefined();
        expect(m!.split('\n')).toHaveLength(1);
        const where = kind === 'enrichment' ? 'd\\.yaml:\\d+: field "formats\\[1\\]\\.template": format terse'
          : 'd\\.yaml:\\d+: field "framings\\[0\\]\\.template": framing story';
        expect(m).toMatch(new RegExp(`^${where}: template line \\d+: the clause ".*" names outcome `
          + '(CC|CD|DC|DD) .*(a payoff of outcome (CC|CD|DC|DD)|but in outcome (CC|CD|DC|DD) it is)'));
      });
    });
  });
});

describe('the CLI on a template with two payoffs swapped', () => {
  it('run, run --dry-run and prompts --out exit 2 with one line naming design, framing, line and outcomes, and write nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'samegame-payoff-'));
    for (const [kind, wrap] of Object.entries(KINDS)) {
      const file = join(dir, `${kind}.yaml`);
      writeFileSync(file, wrap(swap(CORPUS[1].text, 'you.CD', 'you.DC')));
      const store = join(dir, 'runs.sqlite');
      for (const args of [['run', file, '--store', store], ['run', file, '--dry-run', '--store', store], ['prompts', file, '--out', join(dir, 'prompts')]]) {
        const r = await runCli(args);
        expect(r.code, `${kind} ${args[0]}`).toBe(2);
        const lines = r.stderr.trim().split('\n');
        expect(lines, r.stderr).toHaveLength(1);
        const where = '(framing story: template line 3|format terse: template line 5)';
        const what = 'names outcome CD \\(you \\{C\\}, the other player \\{D\\}\\) but states \\{you\\.DC\\}, a payoff of outcome DC';
        expect(lines[0]).toMatch(new RegExp(`${kind}\\.yaml:\\d+: field ".*": ${where}: the clause ".*" ${what}`));
        expect(r.stdout).toBe('');
      }
    }
    expect(readdirSync(dir).sort()).toEqual(['enrichment.yaml', 'one-shot.yaml', 'repeated.yaml']);
  });
});
