/**
 * Values too small for any scale to resolve (an attenuation of 1e-320 makes every conservative
 * shift subnormal): Vega's tick code divides by the extent and crashed ("reading 'marktype'").
 * The renderer draws them as 0, and the figure renders.
 */
import { describe, expect, it } from 'vitest';
import { table3Forest } from '../../src/render/charts/forest.js';
import { renderSvg } from '../../src/render/render.js';

const rows = (scale: number) => [0, 1, 2].map((i) => ({
  model: `M${i}`, statistic: 'shift', estimate: 2 * scale * (1 + i / 10), lo: 1.8 * scale * (1 + i / 10), hi: 2.4 * scale * (1 + i / 10), group: 'Model' as const,
}));

describe('subnormal values in a figure', () => {
  it.each([1e-321, 3e-308, 1e-305])('a forest whose every value is about %s renders', async (scale) => {
    const f = table3Forest(rows(scale), { rows: ['M0', 'M1', 'M2'], statistics: ['shift'], subtitle: 's', named: 'action shift', quantities: 'action shift' });
    const warnings: string[] = [];
    const svg = await renderSvg(f.spec, warnings);
    expect(svg).toContain('<svg');
    expect(svg).toContain('M2');
  });
});
