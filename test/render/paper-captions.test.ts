import { describe, expect, it } from 'vitest';
import { captionsFile } from '../../src/render/paper-style.js';
import type { Figure } from '../../src/render/figure.js';

const figure = (id: string, subtitle?: string): Figure => ({
  id, title: 'Table 3: robustness and action shift with 95 % intervals', caption: 'Point estimates per model and pooled. Pooled values are diamonds.',
  spec: { title: { text: 'x', ...(subtitle === undefined ? {} : { subtitle }) } },
} as unknown as Figure);

describe('figures/captions.md', () => {
  it('the subtitle follows the title after a dash, so no sentence begins in lower case', () => {
    const figures = [figure('table3-forest', 'conservative, a = 0.7; shift = friend-sharing − business'), figure('plain')];
    const text = captionsFile(figures, '/out').content as string;
    expect(text).toContain('**Table 3: robustness and action shift with 95 % intervals — conservative, a = 0.7; shift = friend-sharing − business.** Point estimates');
    expect(text).toContain('**Table 3: robustness and action shift with 95 % intervals.** Point estimates');
    for (const para of text.split('\n').filter((l) => l.startsWith('**'))) {
      expect(para.match(/\. +[a-z]/g), para).toBeNull();
    }
  });
});
