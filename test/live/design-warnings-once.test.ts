/**
 * The payoff rule and the number rule run once per story template when a design is read
 * (docs/methods.md §18b): parseDesign keeps what it found at load time, as it keeps its name
 * warnings, and designWarnings hands that out without checking the templates again. Counted by
 * wrapping the rules' module.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => ({ payoffCheck: 0, numberWarnings: 0 }));
vi.mock('../../src/live/prompts/payoff/index.js', async (original) => {
  const m = await original<typeof import('../../src/live/prompts/payoff/index.js')>();
  return {
    ...m,
    payoffCheck: (...a: Parameters<typeof m.payoffCheck>) => { calls.payoffCheck++; return m.payoffCheck(...a); },
    numberWarnings: (...a: Parameters<typeof m.numberWarnings>) => { calls.numberWarnings++; return m.numberWarnings(...a); },
  };
});

const { designWarnings, parseDesign } = await import('../../src/live/design/design.js');

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
  beforeEach(() => { calls.payoffCheck = 0; calls.numberWarnings = 0; });

  it('run once per template; designWarnings gives the load-time warnings without running them again', () => {
    const d = parseDesign(DESIGN, 'once.yaml');
    expect(calls).toEqual({ payoffCheck: 2, numberWarnings: 2 });
    const w = designWarnings(d);
    expect(designWarnings(d)).toEqual(w);
    expect(calls).toEqual({ payoffCheck: 2, numberWarnings: 2 });
    // The warnings themselves: the number of framing a (with its design line) and the undecided clause of framing b.
    expect(w.some((x) => x.startsWith('once.yaml:5: ') && x.includes('writes 7 as a payoff or a cost'))).toBe(true);
    expect(w.some((x) => x.includes('framing b') && x.includes('not checked against its outcome'))).toBe(true);
  });
});
