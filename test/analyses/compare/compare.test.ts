import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { canonicalGameKey, compareCells } from '../../../src/analyses/compare/compare.js';

const t = (rows: [string, string, string, number, number][]): CellTable => ({
  factors: ['model', 'game', 'framing'],
  cells: rows.map(([model, game, framing, x, n]) => ({ key: { model, game, framing }, obs: { kind: 'binary', n, x } })),
});

describe('side-by-side comparison', () => {
  const direct = t([['sim', 'prisoners-dilemma', 'business', 20, 100], ['sim', 'prisoners-dilemma', 'friend-sharing', 70, 100], ['sim', 'abstract-only', 'business', 5, 10], ['sim', 'abstract-only', 'friend-sharing', 5, 10]]);
  const recon = t([['GPT-4', "Prisoner's Dilemma", 'business', 0, 300], ['GPT-4', "Prisoner's Dilemma", 'friend-sharing', 296, 300]]);
  const c = compareCells(direct, recon, { seed: 1, reps: 4000, attenuation: 1, base: 'business', alt: 'friend-sharing' }, { sim: 'GPT-4' });

  it('matches games by canonical id or name and models through the map', () => {
    expect(canonicalGameKey("Prisoner's Dilemma")).toBe('prisoners-dilemma');
    expect(canonicalGameKey('prisoners-dilemma')).toBe('prisoners-dilemma');
    expect(c.rows.map((r) => [r.game, r.framing])).toEqual([['prisoners-dilemma', 'business'], ['prisoners-dilemma', 'friend-sharing']]);
    expect(c.unmatchedDirect).toEqual(['sim / abstract-only / business', 'sim / abstract-only / friend-sharing']);
    expect(c.unmatchedReconstructed).toEqual([]);
  });

  it('difference direct − reconstructed with an interval from redrawing both cells', () => {
    const [b, s] = c.rows;
    expect(b.difference).toBeCloseTo(0.2, 15);
    expect(s.difference).toBeCloseTo(0.7 - 296 / 300, 15);
    // Hand: 0/300 cannot vary, so the interval is that of 20/100: 0.2 ± 1.96·√(0.16/100) ≈ ±0.078
    expect(b.diff_lo).toBeCloseTo(0.2 - 0.0784, 1);
    expect(b.diff_hi).toBeCloseTo(0.2 + 0.0784, 1);
    expect(b.diff_lo).toBeGreaterThan(0.1);
    // Hand: both vary: SD = √(0.21/100 + 0.0132/300) ≈ 0.0463
    expect(s.diff_hi - s.diff_lo).toBeCloseTo(2 * 1.96 * Math.sqrt(0.21 / 100 + (296 / 300) * (4 / 300) / 300), 1);
  });

  it('analyzes the reconstructed data with the same settings for the headline comparison', () => {
    expect(c.reconstructed.layout.models).toEqual(['GPT-4']);
  });
});
