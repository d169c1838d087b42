import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeLabels } from '../../src/render/overlay-labels.js';

const box = (p: { x: number; y: number; anchor: 'start' | 'end' }, text: string, fs: number) => {
  const w = 0.62 * fs * text.length, x0 = p.anchor === 'start' ? p.x : p.x - w, y1 = p.y + fs / 5;
  return { x0, y0: y1 - fs, x1: x0 + w, y1 };
};

describe('overlay label placement', () => {
  it('right and above a point with room (hand-placed: gap fs/2, baseline fs/5 above the box bottom)', () => {
    expect(placeLabels([{ x: 50, y: 50, text: '1' }], 200, 100, 10)).toEqual([{ x: 55, y: 43, anchor: 'start' }]);
  });

  it('at the right edge the label goes left, at the top edge below the point', () => {
    const [p] = placeLabels([{ x: 198, y: 2, text: '24' }], 200, 100, 10);
    expect(p.anchor).toBe('end');
    const b = box(p, '24', 10);
    expect(b.x1).toBeLessThanOrEqual(200);
    expect(b.y0).toBeGreaterThanOrEqual(0);
  });

  it('any points: every label inside the image; spaced points (≥ 4 em apart) get labels clear of each other', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 9 })), { minLength: 1, maxLength: 30 }), (cells) => {
      const fs = 10, seen = new Set<string>();
      const pts = cells.filter(([i, j]) => !seen.has(`${i},${j}`) && seen.add(`${i},${j}`)).map(([i, j], k) => ({ x: 4 + 40 * i, y: 4 + 40 * j, text: String(k + 1) }));
      const boxes = placeLabels(pts, 800, 400, fs).map((p, k) => box(p, pts[k].text, fs));
      for (const b of boxes) expect(b.x0 >= -1e-9 && b.x1 <= 800 + 1e-9 && b.y0 >= -1e-9 && b.y1 <= 400 + 1e-9).toBe(true);
      boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => expect(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1).toBe(false)));
    }));
  });
});
