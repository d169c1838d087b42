import { describe, expect, it } from 'vitest';
import { CANONICAL_GAMES } from '../../src/core/games.js';
import { FAMILY_IDS, PROMPT_FAMILIES, labelPairProblem, renderFraming, type LabelPair } from '../../src/live/prompts/index.js';
import type { Action, Game } from '../../src/live/types.js';

/**
 * Reads the payoff matrix back from a prompt, independently of how the families build it: an
 * outcome line names my label, then theirs, then my payoff, then theirs; a Markdown table has the
 * column labels in its header and "(mine, theirs)" cells in rows that end with the row label.
 */
function reconstruct(prompt: string, labels: Readonly<Record<string, Action>>): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  const names = Object.keys(labels);
  const num = /-?\d+(?:\.\d+)?/g;
  const labelAt = (s: string) => names
    .flatMap((l) => [...s.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${l}(?![\\p{L}\\p{N}])`, 'gu'))].map((m) => ({ l, i: m.index! })))
    .sort((a, b) => a.i - b.i).map((x) => x.l);
  const put = (r: string, c: string, u: number, v: number) => {
    const key = `${labels[r]}${labels[c]}`;
    expect(out.has(key), `outcome ${key} stated twice`).toBe(false);
    out.set(key, [u, v]);
  };
  let cols: string[] | undefined;
  for (const line of prompt.split('\n')) {
    if (line.startsWith('|')) {
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      if (/^-+$/.test(cells[1])) continue;
      if (cells[0] === '') { cols = cells.slice(1).map((c) => c.split(' ').at(-1)!); continue; }
      const row = cells[0].split(' ').at(-1)!;
      cells.slice(1).forEach((cell, j) => {
        const [u, v] = cell.match(num)!.map(Number);
        put(row, cols![j], u, v);
      });
    } else if (line.startsWith('- ')) {
      const ls = labelAt(line);
      const ns = line.match(num)!.map(Number);
      expect(ls.length, line).toBe(2);
      expect(ns.length, line).toBe(2);
      put(ls[0], ls[1], ns[0], ns[1]);
    }
  }
  return out;
}

function expectSameGame(prompt: string, labels: Readonly<Record<string, Action>>, g: Game) {
  const m = reconstruct(prompt, labels);
  expect([...m.keys()].sort()).toEqual(['CC', 'CD', 'DC', 'DD']);
  for (const r of ['C', 'D'] as const) for (const c of ['C', 'D'] as const) expect(m.get(`${r}${c}`)).toEqual([...g.payoffs[r][c]]);
}

// All eight payoffs distinct, with a negative and decimals, so a swapped pair cannot pass.
const ODD: Game = { id: 'odd', name: 'odd', payoffs: { C: { C: [7, 6.5], D: [-1.5, 12] }, D: { C: [11, 0], D: [4.25, 3] } } };

describe('prompt families (Same Game, Different Story Appendix B)', () => {
  it('registers the eight families', () => {
    expect(FAMILY_IDS).toEqual(['business', 'friend-sharing', 'abstract-matrix', 'neutral-narrative',
      'cooperative-narrative', 'competitive-narrative', 'role-narrative', 'label-perturbation']);
  });

  const labelSets: Record<string, LabelPair[]> = {};
  for (const f of PROMPT_FAMILIES) labelSets[f.id] = [f.defaultLabels, ['Q', 'X'], ['ALPHA', 'OMEGA']];

  for (const f of PROMPT_FAMILIES) {
    describe(f.id, () => {
      it.each(labelSets[f.id].flatMap((l) => [...CANONICAL_GAMES, ODD].map((g) => [g.id, l] as const)))(
        '%s with labels %j: the matrix can be read back exactly', (gid, labels) => {
          const g = [...CANONICAL_GAMES, ODD].find((x) => x.id === gid)!;
          const r = renderFraming({ id: 'x', family: f.id, labels }, g);
          expectSameGame(r.prompt, r.labels, g);
        });

      it('contains every payoff of every game as a number', () => {
        for (const g of [...CANONICAL_GAMES, ODD]) {
          const r = renderFraming({ id: 'x', family: f.id, labels: f.defaultLabels }, g);
          const nums = new Set((r.prompt.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number));
          for (const row of ['C', 'D'] as const) for (const col of ['C', 'D'] as const) {
            for (const v of g.payoffs[row][col]) expect(nums.has(v), `${g.id} ${row}${col} ${v}`).toBe(true);
          }
        }
      });

      it('asks for a one-word answer naming both labels', () => {
        const r = renderFraming({ id: 'x', family: f.id, labels: ['Q', 'X'] }, CANONICAL_GAMES[0]);
        expect(r.prompt).toMatch(/exactly one word, either Q or X/);
      });

      it('its label map is a bijection onto {C, D}, in canonical order', () => {
        for (const labels of labelSets[f.id]) {
          const r = renderFraming({ id: 'x', family: f.id, labels }, CANONICAL_GAMES[0]);
          expect(Object.keys(r.labels)).toHaveLength(2);
          expect(Object.values(r.labels).sort()).toEqual(['C', 'D']);
          expect(r.labels[r.actionWords[0]]).toBe('C');
          expect(r.labels[r.actionWords[1]]).toBe('D');
          expect(r.actionWords).toEqual(labels);
        }
      });

      it('its default labels pass the label rules', () => expect(labelPairProblem(f.defaultLabels)).toBeUndefined());
    });
  }

  it('label perturbation changes only the labels of the abstract matrix', () => {
    const g = CANONICAL_GAMES[2];
    const a = renderFraming({ id: 'a', family: 'abstract-matrix', labels: ['C', 'D'] }, g).prompt;
    const p = renderFraming({ id: 'p', family: 'label-perturbation', labels: ['J', 'F'] }, g).prompt;
    expect(p).not.toBe(a);
    expect(p.replace(/\bJ\b/g, 'C').replace(/\bF\b/g, 'D')).toBe(a);
  });

  it('the role narrative sets a system message; the others do not need one', () => {
    expect(renderFraming({ id: 'r', family: 'role-narrative', labels: ['DISARM', 'ARM'] }, CANONICAL_GAMES[0]).system).toMatch(/minister/);
    expect(renderFraming({ id: 'b', family: 'business', labels: ['C', 'D'] }, CANONICAL_GAMES[0]).system).toBeUndefined();
  });
});

describe('labelPairProblem', () => {
  it.each([
    [['Q', 'X'], undefined], [['J', 'F'], undefined], [['DISARM', 'ARM'], undefined],
  ] as const)('%j is usable', (l, want) => expect(labelPairProblem(l)).toBe(want));
  it.each([
    [['J'], /exactly two/], [['J', 'j'], /must differ/], [['COOP', 'CHEAT'], /same character/],
    [['J F', 'X'], /one word/], [['J.', 'X'], /one word/], [['', 'X'], /one word/],
  ] as const)('%j is refused', (l, re) => expect(labelPairProblem(l)).toMatch(re));
});
