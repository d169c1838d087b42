/**
 * The payoff rule and the number rule run once per story template when a design is read
 * (docs/methods.md §18b): the check that refuses a misplaced payoff also returns the clauses it
 * could not decide (framingTemplates), framingWarnings takes those instead of running the rule
 * again, and parseDesign keeps the warnings it found, as it keeps its name warnings, so
 * designWarnings hands out the load-time result (it does not read the templates again). The same for a
 * context-enrichment design: the check of its format templates and fact texts (each distinct text once,
 * wherever it stands) returns the clauses it could not decide (parseEnrichment), and
 * enrichmentWarnings takes those instead of running the rule again.
 */
import { describe, expect, it } from 'vitest';
import { designWarnings, parseDesign } from '../../src/live/design/design.js';
import { framingTemplates, framingWarnings } from '../../src/live/design/framings.js';
import { initDesign } from '../../src/commands/init-designs.js';
import { parseYamlMapping } from '../../src/core/doc-problems.js';
import { parseEnrichment } from '../../src/live/design/enrichment.js';
import { enrichmentWarnings } from '../../src/live/design/enrichment-formats.js';

const DESIGN = `name: once
models: [{ id: Sim, provider: simulated }]
games: [prisoners-dilemma]
framings:
  - { id: a, labels: [J, F], template: "Each of you picks.\\n{payoffs}\\nThe others: 7 points.\\n{answer}" }
  - { id: b, labels: [J, F], template: "The best you can get is {you.DC}.\\n{payoffs}\\n{answer}" }
  - business
trials: 1
`;

describe('the story rules when a design is read', () => {
  it('the load-time check returns the clauses it could not decide, and framingWarnings uses them instead of checking again', () => {
    const entries = [{ id: 'b', labels: ['J', 'F'], template: 'The best you can get is {you.DC}.\n{payoffs}\n{answer}' }];
    const t = framingTemplates(entries, 'x.yaml');
    expect(t.problems).toEqual([]);
    expect(t.undecided.get(0)).toHaveLength(1);
    expect(t.undecided.get(0)![0]).toContain('the payoff rule cannot decide the clause "The best you can get is {you.DC}."');
    const framings = [{ id: 'b', labels: ['J', 'F'] as [string, string], template: entries[0].template }];
    const game = parseDesign(DESIGN, 'once.yaml').games[0];
    // Given the load-time result, it is what the warnings say (a stand-in here shows the rule is not run again).
    expect(framingWarnings(framings, [game], undefined, new Map([[0, ['kept at load']]]))).toEqual(['kept at load']);
    expect(framingWarnings(framings, [game])).toEqual(t.undecided.get(0));
  });

  it('designWarnings hands out what parseDesign found: changing a template afterwards does not change them', () => {
    const d = parseDesign(DESIGN, 'once.yaml');
    const w = designWarnings(d);
    expect(w.some((x) => x.startsWith('once.yaml:5: ') && x.includes('writes 7 as a payoff or a cost'))).toBe(true);
    expect(w.some((x) => x.includes('framing b') && x.includes('not checked against its outcome'))).toBe(true);
    // A design is plain data: were the warnings computed again, the new text would give none.
    const plain = { ...d.framings[1], template: 'Each of you picks.\n{payoffs}\n{answer}' };
    (d.framings as unknown as object[])[1] = plain;
    (d.framings as unknown as object[])[0] = { ...d.framings[0], template: plain.template };
    expect(designWarnings(d)).toEqual(w);
    expect(designWarnings({ ...d })).toEqual([]); // a design parseDesign did not return is checked when asked
  });
});

describe('the payoff rule on a context-enrichment design', () => {
  const FACT = 'Each chooses to {C} or to {D}. The best either of you can get is {T}.';
  // The starter design, its game fact undecided and stated again in the norm slot, a format line undecided.
  const text = initDesign('e', 'enrichment')
    .replace('    - text: "Each chooses to {C} with the shared watering or to {D} their water."', `    - text: ${JSON.stringify(FACT)}`)
    .replace('[{ text: "Around here, gardeners are expected to share water in a dry season." }]', `[{ text: ${JSON.stringify(FACT)} }]`)
    .replace('      The points of each outcome:\n', '      The points of each outcome (at best you get {you.DC}):\n');

  it('the load-time check returns the undecided clauses of every format template and distinct fact text; the warnings are those, each once', () => {
    expect(text).toContain('at best you get {you.DC}');
    expect(text.split(FACT)).toHaveLength(3);
    const { doc, lc, data } = parseYamlMapping(text, () => 'syntax', () => 'not a mapping');
    const { design, undecided } = parseEnrichment(data, doc, lc, 'e.yaml');
    const e = design.enrichment!;
    const facts = [...new Set([...Object.values(e.base), ...e.worlds.map((w) => w.slots), ...e.conditions.map((c) => c.slots)]
      .flatMap((slots) => Object.values(slots).flat() as { text: string }[]).map((f) => f.text))];
    expect(facts).toHaveLength(4);
    // Every format template and fact text the warnings speak of was checked at load: nothing is left for a second pass.
    expect([...undecided.formats.keys()]).toEqual([0, 1]);
    expect([...undecided.facts.keys()].sort()).toEqual([...facts].sort());
    expect(undecided.formats.get(0)).toHaveLength(1);
    expect(undecided.formats.get(1)).toEqual([]);
    expect(undecided.facts.get(FACT)).toHaveLength(1);

    // Given the load-time result, it is what the warnings say (stand-ins show the rule is not run again).
    const standIns = { formats: new Map([[0, ['format kept at load']], [1, []]]),
      facts: new Map(facts.map((f) => [f, f === FACT ? ['fact kept at load'] : []])) };
    expect(enrichmentWarnings(e, undefined, standIns)).toEqual(['format kept at load', 'fact kept at load']);

    const w = designWarnings(parseDesign(text, 'e.yaml')).filter((x) => x.includes('the payoff rule cannot decide'));
    expect(w).toEqual([...undecided.formats.get(0)!, ...undecided.facts.get(FACT)!]);
    expect(w[0]).toMatch(/^format story: template line 3: the payoff rule cannot decide the clause "\{intro\} .*\{you\.DC\} not checked/);
    expect(w[1]).toMatch(/^fact "Each chooses to \{C\} or to \{D\}\. The be\.\.\.": template line 1: the payoff rule cannot decide the clause "The best/);
    // Without the load-time result (a design built by the library) the rule runs here, with the same warnings.
    expect(enrichmentWarnings(e).filter((x) => x.includes('the payoff rule cannot decide'))).toEqual(w);
  });
});
