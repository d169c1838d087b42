import { describe, expect, it } from 'vitest';
import { parseAction } from '../../src/live/scoring/parse.js';

const JF = { J: 'C', F: 'D' } as const;
const CD = { C: 'C', D: 'D' } as const;
const ARMS = { DISARM: 'C', ARM: 'D' } as const;
const WORDS = { CONTRIBUTE: 'C', WITHHOLD: 'D' } as const;

// Each expectation is decided by reading the text, not by running the parser.
describe('parseAction: one action named', () => {
  it.each([
    ['J', JF, 'C'], ['F', JF, 'D'], ['j', JF, 'C'], ['**J**', JF, 'C'], ['J.', JF, 'C'], ['(F)', JF, 'D'],
    ['  F\n', JF, 'D'], ['"J"', JF, 'C'], ['I choose J.', JF, 'C'], ['Just J', JF, 'C'], ['Answer: F', JF, 'D'],
    ['J. Final answer: J', JF, 'C'],
    ["I'd pick C", CD, 'C'], // the d of "I'd" is inside a word
    ['Cooperation matters, so: D', CD, 'D'], // "C" inside "Cooperation" does not count
    ['DISARM', ARMS, 'C'], ['disarm.', ARMS, 'C'], ['We ARM.', ARMS, 'D'], // ARM inside DISARM does not count
    ['Contribute', WORDS, 'C'], ['**WITHHOLD**', WORDS, 'D'],
    ['<think>C looks good but D pays more</think>\nD', CD, 'D'],
  ] as const)('%j → %s', (text, labels, want) => {
    const r = parseAction(text, labels);
    expect(r.action).toBe(want);
    expect(r.reason).toBeUndefined();
  });
});

describe('parseAction: invalid answers keep their reason', () => {
  it.each([
    ['Just fine', JF], ['Jumping Frogs', JF], ['JF', JF], ['', JF], ['   ', JF], ['It depends.', CD],
    ['Cooperate', CD], ['DISARMAMENT', ARMS], ['<think>J</think>', JF],
  ] as const)('%j names no action', (text, labels) => {
    const r = parseAction(text, labels);
    expect(r.action).toBeNull();
    expect(r.reason).toMatch(/names none|empty/);
  });
  it.each([
    ['J or F', JF], ['J/F', JF], ['C-D', CD], ['I would DISARM, then ARM.', ARMS], ['j, not f', JF],
  ] as const)('%j names more than one action', (text, labels) => {
    const r = parseAction(text, labels);
    expect(r.action).toBeNull();
    expect(r.reason).toMatch(/more than one action/);
    if (r.action === null) expect([...r.found].sort()).toEqual(Object.keys(labels).sort());
  });
});
